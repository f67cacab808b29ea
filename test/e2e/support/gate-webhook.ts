// A validating webhook that allows everything but can hold requests after the API server has
// admitted them, so a test can choose the order in which concurrent writes reach etcd (or when a
// write commits). Registered as its own ValidatingWebhookConfiguration, removed on close.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import { caPem, localServingCert } from './tls.js';

/** Where the gate is registered: the configuration's name, and which requests it sees. */
export type GateRegistration = {
  kube: KubeHttp;
  name: string;
  rules: { apiGroups: string[]; apiVersions: string[]; resources: string[]; operations: string[] }[];
  namespaceSelector?: Record<string, unknown>;
  objectSelector?: Record<string, unknown>;
};

export type Gate = {
  url: string;
  /** Requests seen so far. */
  readonly seen: number;
  /** The next `n` requests are held until released. */
  holdNext(n: number): void;
  /** Resolves once `count` requests have been held. */
  held(count: number): Promise<void>;
  /** Answers (allows) the `index`-th held request. */
  release(index: number): void;
  /** Removes the configuration, answers what is held, stops. */
  close(): Promise<void>;
};

export async function startGate(at: GateRegistration): Promise<Gate> {
  let seen = 0;
  let toHold = 0;
  const holding: (() => void)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const w of waiters.filter((x) => holding.length >= x.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const server = createServer(localServingCert('gate-webhook'), (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen += 1;
      const uid = (JSON.parse(body) as { request?: { uid?: string } }).request?.uid ?? '';
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } }));
      if (toHold === 0) return answer();
      toHold -= 1;
      holding.push(answer);
      wake();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: at.name } };
  await at.kube.create({
    ...config,
    webhooks: [{
      name: `${at.name}.gate.kruise-serverless.io`, admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy: 'Fail', timeoutSeconds: 15,
      clientConfig: { url, caBundle: Buffer.from(caPem()).toString('base64') }, rules: at.rules,
      ...(at.namespaceSelector ? { namespaceSelector: at.namespaceSelector } : {}), ...(at.objectSelector ? { objectSelector: at.objectSelector } : {}),
    }],
  } as KubeObject);
  return {
    url,
    get seen() {
      return seen;
    },
    holdNext: (n) => void (toHold = n),
    held: (count) => new Promise<void>((resolve) => {
      waiters.push({ count, resolve });
      wake();
    }),
    release: (index) => {
      const answer = holding[index];
      holding[index] = () => undefined;
      answer?.();
    },
    async close() {
      await at.kube.delete(config).catch(() => undefined);
      toHold = 0;
      for (const answer of holding.splice(0)) answer();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
