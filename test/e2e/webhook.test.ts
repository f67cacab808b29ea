// The admission runtime end to end on a real API server: a trivial handler served by the Worker
// (Miniflare over HTTPS), by the Node adapter and by the Lambda adapter; state pushed by the
// sync API or read live; webhooks registered with the install library; pods created through the
// API server come back patched. Wrong secrets get a 404 and nothing else.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/edge-state/auth.js';
import { pushCollections, type EdgeTarget } from '../../src/edge-state/push.js';
import { webhookEndpoints } from '../../src/registry.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { startNodeServer } from '../../functions/node/server.js';
import { makeLambdaHandler } from '../../functions/lambda/index.js';
import { NAMESPACES, STAMP_CLUSTER, STAMP_TEAM, stampFeature } from './fixtures/stamp-feature.js';
import { createNamespace, deleteNamespace, testKube, testKubeConfig } from './support/kube.js';
import { caPem, localServingCert, trustingFetch } from './support/tls.js';
import { inject } from 'vitest';

const kc = testKubeConfig();
const CLUSTER = 'e2e-cluster';
const ADMIN_TOKEN = 'e2e-admin-token';
const SELECTOR_LABEL = 'e2e.kruise-serverless.io/webhook';
let kube: KubeHttp;
let ns = '';
let worker: LocalWorker;
let creds: { clusterId: string; webhookSecret: string; syncToken: string };

type Pod = KubeObject & { metadata: { annotations?: Record<string, string> } };
const pod = (name: string, via: string) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: ns, labels: { [SELECTOR_LABEL]: via } },
  spec: { containers: [{ name: 'app', image: 'nginx:alpine' }] },
});

async function register(baseUrl: string, secret: string, via: string) {
  const objects = renderClusterSide({
    baseUrl, clusterId: CLUSTER, secret, caBundle: caPem(), endpoints: webhookEndpoints([stampFeature]), crds: [],
    overrides: { 'mutate-pod': { objectSelector: { matchLabels: { [SELECTOR_LABEL]: via } } } },
  });
  await applyClusterSide(kube, objects);
}

function review(uid: string, namespace: string) {
  return {
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid, kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      namespace, operation: 'CREATE', userInfo: { username: 'e2e' }, dryRun: false,
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  };
}

const decodePatch = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as unknown[];

beforeAll(async () => {
  kube = await testKube();
  ns = await createNamespace(kc, 'webhook', { team: 'blue' });
  worker = await startLocalWorker({ entry: join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'stamp-worker.ts'), tls: localServingCert(), adminToken: ADMIN_TOKEN });
  const res = await trustingFetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ clusterId: CLUSTER }) });
  expect(res.status).toBe(201);
  creds = (await res.json()) as typeof creds;
});

afterAll(async () => {
  await uninstallClusterSide(kube).catch(() => undefined);
  await deleteNamespace(kc, ns);
  await worker?.dispose();
  kube.close();
});

describe('Worker (Miniflare over HTTPS) with pushed state', () => {
  let edge: EdgeTarget;
  beforeAll(async () => {
    edge = { baseUrl: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, fetch: trustingFetch };
  });

  it('answers with the fallback (deny, 503) before any state is pushed', async () => {
    const res = await trustingFetch(`${worker.url}/clusters/${CLUSTER}/${creds.webhookSecret}/mutate-pod`, { method: 'POST', body: JSON.stringify(review('u-0', ns)) });
    const body = (await res.json()) as { response: { uid: string; allowed: boolean; status: { code: number; message: string } } };
    expect(res.status).toBe(200);
    expect(body.response).toMatchObject({ uid: 'u-0', allowed: false, status: { code: 503 } });
    expect(body.response.status.message).toMatch(/namespaces/);
  });

  it('accepts pushed state from the cluster through the sync API', async () => {
    const results = await pushCollections(edge, (v, k, o) => kube.list(v, k, o), [NAMESPACES]);
    expect(results[0]).toMatchObject({ collection: 'namespaces', mode: 'replace' });
    expect(results[0]!.items).toBeGreaterThan(3);
  });

  it('patches a pod created through the API server', async () => {
    await register(worker.url, creds.webhookSecret, 'worker');
    const created = await kube.create<Pod>(pod('via-worker', 'worker'));
    expect(created.metadata.annotations).toMatchObject({ [STAMP_CLUSTER]: CLUSTER, [STAMP_TEAM]: 'blue' });
  });

  it('patches a dry-run create the same way', async () => {
    const created = await kube.create<Pod>(pod('dry-run', 'worker'), { dryRun: 'All' });
    expect(created.metadata.annotations?.[STAMP_TEAM]).toBe('blue');
    await expect(kube.get('v1', 'Pod', 'dry-run', ns)).rejects.toThrow(/404/);
  });

  it('sees a label change after the next push', async () => {
    await kube.patch({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { metadata: { labels: { team: 'green' } } });
    const [r] = await pushCollections(edge, (v, k, o) => kube.list(v, k, o), [NAMESPACES]);
    // a diff, not a resend: other namespaces in the shared cluster may have changed too
    expect(r!.mode).toBe('patch');
    expect(r!.changed).toBeGreaterThanOrEqual(1);
    expect(r!.changed).toBeLessThan(r!.items);
    await new Promise((res) => setTimeout(res, 1100)); // the isolate's collection cache
    const created = await kube.create<Pod>(pod('after-push', 'worker'));
    expect(created.metadata.annotations?.[STAMP_TEAM]).toBe('green');
  });

  it.each([
    ['a wrong secret', () => `/clusters/${CLUSTER}/${'0'.repeat(64)}/mutate-pod`],
    ['an unknown cluster', () => `/clusters/nope/${creds.webhookSecret}/mutate-pod`],
    ['an unknown endpoint', () => `/clusters/${CLUSTER}/${creds.webhookSecret}/mutate-nothing`],
    ['the sync token used as path secret', () => `/clusters/${CLUSTER}/${creds.syncToken}/mutate-pod`],
  ])('gives %s the same bare 404', async (_n, path) => {
    const res = await trustingFetch(`${worker.url}${path()}`, { method: 'POST', body: JSON.stringify(review('u-1', ns)) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found' });
  });

  it('refuses the sync API without the sync token', async () => {
    const res = await trustingFetch(`${worker.url}/clusters/${CLUSTER}/sync`, { headers: { authorization: `Bearer ${creds.webhookSecret}` } });
    expect(res.status).toBe(404);
  });

  it('rotates the path secret with an overlap, both valid meanwhile', async () => {
    const res = await trustingFetch(`${worker.url}/admin/clusters/${CLUSTER}/rotate`, {
      method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ credential: 'webhook', overlapSeconds: 3600 }),
    });
    const { secret } = (await res.json()) as { secret: string };
    await new Promise((r) => setTimeout(r, 5100)); // the isolate's credentials cache
    for (const s of [creds.webhookSecret, secret]) {
      const r = await trustingFetch(`${worker.url}/clusters/${CLUSTER}/${s}/mutate-pod`, { method: 'POST', body: JSON.stringify(review('u-2', ns)) });
      expect(r.status).toBe(200);
    }
    await register(worker.url, secret, 'worker');
    const created = await kube.create<Pod>(pod('after-rotation', 'worker'));
    expect(created.metadata.annotations?.[STAMP_CLUSTER]).toBe(CLUSTER);
  });
});

describe('Node adapter (HTTPS, live reads)', () => {
  it('patches a pod created through the API server', async () => {
    const secret = 'f'.repeat(64);
    const registryJson = JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [{ sha256: await sha256Hex(secret) }], syncTokens: [] }]);
    const tls = localServingCert();
    const server = await startNodeServer({ clusterId: CLUSTER, registryJson, tlsCert: tls.cert, tlsKey: tls.key, port: 0, kubeconfigPath: inject('kubeconfig'), features: [stampFeature] });
    try {
      await register(server.url, secret, 'node');
      await kube.patch({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { metadata: { labels: { team: 'red' } } });
      const created = await kube.create<Pod>(pod('via-node', 'node'));
      expect(created.metadata.annotations).toMatchObject({ [STAMP_CLUSTER]: CLUSTER, [STAMP_TEAM]: 'red' });
      const wrong = await trustingFetch(`${server.url}/clusters/${CLUSTER}/${'0'.repeat(64)}/mutate-pod`, { method: 'POST', body: '{}' });
      expect(wrong.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('every platform answers the same review the same way', () => {
  it('Worker, Node and Lambda produce the same patch', async () => {
    await kube.patch({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { metadata: { labels: { team: 'same' } } });
    await pushCollections({ baseUrl: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, fetch: trustingFetch }, (v, k, o) => kube.list(v, k, o), [NAMESPACES]);
    await new Promise((r) => setTimeout(r, 1100));
    const secret = 'e'.repeat(64);
    const registryJson = JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [{ sha256: await sha256Hex(secret) }], syncTokens: [] }]);
    const body = JSON.stringify(review('same-uid', ns));

    const rotated = await trustingFetch(`${worker.url}/admin/clusters/${CLUSTER}/rotate`, {
      method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ credential: 'webhook', overlapSeconds: 3600 }),
    });
    const workerSecret = ((await rotated.json()) as { secret: string }).secret;
    await new Promise((r) => setTimeout(r, 5100));
    const fromWorker = await (await trustingFetch(`${worker.url}/clusters/${CLUSTER}/${workerSecret}/mutate-pod`, { method: 'POST', body })).json();

    const tls = localServingCert();
    const server = await startNodeServer({ clusterId: CLUSTER, registryJson, tlsCert: tls.cert, tlsKey: tls.key, port: 0, kubeconfigPath: inject('kubeconfig'), features: [stampFeature] });
    const fromNode = await (await trustingFetch(`${server.url}/clusters/${CLUSTER}/${secret}/mutate-pod`, { method: 'POST', body })).json();
    await server.close();

    const lambda = makeLambdaHandler([stampFeature], { KS_CLUSTER_ID: CLUSTER, KS_CLUSTERS_JSON: registryJson, KUBECONFIG: inject('kubeconfig') });
    const event = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'function-url-event.json'), 'utf8')) as Record<string, unknown>;
    const lambdaEvent = { ...event, rawPath: `/clusters/${CLUSTER}/${secret}/mutate-pod`, body, isBase64Encoded: false,
      requestContext: { ...(event.requestContext as object), http: { ...((event.requestContext as { http: object }).http), path: `/clusters/${CLUSTER}/${secret}/mutate-pod` } } };
    const out = (await lambda(lambdaEvent as never, {} as never)) as { statusCode: number; body: string };
    expect(out.statusCode).toBe(200);
    const fromLambda = JSON.parse(out.body) as unknown;

    for (const r of [fromWorker, fromNode, fromLambda] as { response: { uid: string; allowed: boolean; patch: string } }[]) {
      expect(r.response).toMatchObject({ uid: 'same-uid', allowed: true });
      expect(decodePatch(r.response.patch)).toEqual(decodePatch((fromWorker as { response: { patch: string } }).response.patch));
    }
    expect(JSON.stringify(decodePatch((fromWorker as { response: { patch: string } }).response.patch))).toContain('same');
  });
});
