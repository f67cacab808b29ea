// PodUnavailableBudget's RESIZE operation (`kruise.io/pub-protect-operations`) at the edge. An update
// that only changes a container's cpu/memory is classed RESIZE, not UPDATE. Kubernetes 1.20 refuses
// such a pod update in its own validation, before any admission webhook (in-place resize needs
// ≥ 1.27), so the update cannot reach the edge through this API server: the test checks that, then
// sends the AdmissionReview the API server would send to the production Worker's validate-pod
// endpoint itself. Everything else is real: the PUBs and pods on the API server, the budgets
// computed by the PUB controller on the Node loop (watches as triggers) and kept in the edge's
// ledgers. Users create the PUB and its pod at once, with no push between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pubFeature } from '../../src/pub/index.js';
import { pubReconciler } from '../../src/pub/controller/reconciler.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';
import { trustingFetch } from './support/tls.js';

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('pubrs', [pubFeature]);
  await env.resync(); // the install's push: nothing is configured yet
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [pubReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `pubrs-loop-${scope.kind}`, ledgers: remoteLedgers(env.edge) }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const exhausted = (pub: string) => `podunavailablebudget.policy.kruise.io "${pub}" is forbidden: pub unavailable allowed is negative`;
const resources = (cpu: string) => ({ requests: { cpu, memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } });

/** A Burstable pod (so a cpu change keeps its QoS class), protected by `pub`, created and Ready. */
async function readyPod(name: string, app: string): Promise<Pod> {
  await env.kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: env.ns, labels: { app } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'app:1', resources: resources('100m') }] } } as KubeObject);
  await env.waitReady([name]);
  return env.kube.get<Pod>('v1', 'Pod', name, env.ns);
}

/** The pod's update to `to` as the API server would review it: the edge's answer (allowed, or the refusal's code and message). */
async function reviewResize(pod: Pod, to: Record<string, unknown>): Promise<string> {
  const object = { ...pod, spec: { ...pod.spec, containers: pod.spec!.containers.map((c) => ({ ...c, resources: to })) } };
  const review = {
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: `resize-${pod.metadata.name}`, kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      name: pod.metadata.name, namespace: env.ns, operation: 'UPDATE', userInfo: { username: 'e2e' }, dryRun: false, object, oldObject: pod,
    },
  };
  const res = await trustingFetch(`${env.worker.url}/clusters/${env.clusterId}/${env.webhookSecret}/validate-pod`, { method: 'POST', body: JSON.stringify(review) });
  expect(res.status).toBe(200);
  const { response } = (await res.json()) as { response: { allowed: boolean; status?: { code?: number; message?: string } } };
  return response.allowed ? 'allowed' : `${response.status?.code} ${response.status?.message}`;
}

async function protectedBy(pub: string, operations: string): Promise<Pod> {
  await env.createPub(pub, { selector: { matchLabels: { app: pub } }, maxUnavailable: 0 }, { 'kruise.io/pub-protect-operations': operations });
  const pod = await readyPod(`${pub}-0`, pub);
  expect(pod.metadata.annotations?.['kruise.io/related-pub']).toBe(pub);
  await eventually(`${pub}: the budget of its ready pod`, async () => ((await env.pubStatus(pub))?.desiredAvailable === 1 && (await env.pubStatus(pub))?.currentAvailable === 1 ? true : undefined), 20_000, 50);
  return pod;
}

describe('kruise.io/pub-protect-operations RESIZE', () => {
  it('Kubernetes 1.20 refuses a resources change itself, before admission (why the review is sent to the edge directly)', async () => {
    const pod = await readyPod('plain-0', 'plain');
    expect(await attempt(env.kube.patch(pod, { spec: { containers: [{ name: 'main', resources: resources('150m') }] } }, 'strategic'))).toMatch(/^422 .*pod updates may not change fields other than/);
  });

  it('RESIZE: a cpu-only change is refused with OpenKruise’s message; an image change (UPDATE) passes', async () => {
    const pod = await protectedBy('rs', 'RESIZE');
    expect(await reviewResize(pod, resources('150m'))).toBe(`403 ${exhausted('rs')}`);
    await env.kube.patch(pod, { spec: { containers: [{ name: 'main', image: 'app:2' }] } }, 'strategic');
    expect((await env.kube.get<Pod>('v1', 'Pod', pod.metadata.name, env.ns)).spec?.containers[0]?.image).toBe('app:2');
  });

  it('UPDATE guards RESIZE too (OpenKruise with InPlacePodVerticalScaling off); DELETE alone lets a resize pass', async () => {
    expect(await reviewResize(await protectedBy('up', 'UPDATE'), resources('150m'))).toBe(`403 ${exhausted('up')}`);
    expect(await reviewResize(await protectedBy('dl', 'DELETE'), resources('150m'))).toBe('allowed');
  });

  it('a change of QoS class is not a resize but an UPDATE, which RESIZE alone does not guard; UPDATE does', async () => {
    const guaranteed = { requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '1', memory: '128Mi' } };
    expect(await reviewResize(await protectedBy('qos', 'RESIZE'), guaranteed)).toBe('allowed');
    expect(await reviewResize(await protectedBy('qos-up', 'UPDATE'), guaranteed)).toBe(`403 ${exhausted('qos-up')}`);
  });
});
