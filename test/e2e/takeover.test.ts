// `kruise-serverless takeover` and `handback` against a real API server, on a cluster set up as
// OpenKruise 1.9 leaves it once its manager is scaled down: its manager Deployment, its webhook
// configurations (pointing at a closed port, Ignore, selecting no namespace, so the cluster keeps
// working), and a PodUnavailableBudget whose status records a disruption admitted a moment ago,
// written as kruise-manager writes it (its field manager). Step 4 seeds the edge's ledgers through
// the sync API, as the CLI does with --edge-url and $KS_SYNC_TOKEN.
// The takeover applies the cluster side as the CLI renders it (our CRDs and our webhooks, pod
// webhooks scoped to this file's namespace as startEdgeEnv installed them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { POD_STATUS_OBSERVER } from '../../src/admission/endpoints.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide } from '../../src/install/apply.js';
import { serverKeepsNameLabel } from '../../src/install/server-version.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { isNotFound } from '../../src/kube/errors.js';
import { webhookEndpoints } from '../../src/registry.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import type { KubeObject } from '../../src/kube/http.js';
import { pubFeature } from '../../src/pub/index.js';
import { workloadSpreadFeature } from '../../src/workloadspread/index.js';
import { reconcilers } from '../../src/reconcilers.js';
import { handback, takeover, TakeoverRefused } from '../../src/takeover/run.js';
import { deletePod, deniedBy, evictPod, VPOD } from './support/disrupt.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { earlierFilesGone, undoTakeover } from './support/takeover-cluster.js';
import { eventually } from './support/kube.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { caPem } from './support/tls.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
// Pod CREATE: WorkloadSpread places, then PUB (production handler order).
const FEATURES = [workloadSpreadFeature, pubFeature];
const KS = 'kruise-system';
const MUTATING = 'kruise-mutating-webhook-configuration';
let env: EdgeEnv;

const manager = (replicas: number): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'kruise-controller-manager', namespace: KS },
  spec: { replicas, selector: { matchLabels: { 'control-plane': 'controller-manager' } }, template: { metadata: { labels: { 'control-plane': 'controller-manager' } }, spec: { containers: [{ name: 'manager', image: 'openkruise/kruise-manager:v1.9.0' }] } } },
} as KubeObject);
const openKruiseWebhook: KubeObject = {
  apiVersion: ADMISSION, kind: 'MutatingWebhookConfiguration', metadata: { name: MUTATING },
  webhooks: [{
    name: 'mpod.kb.io', admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy: 'Ignore',
    clientConfig: { url: 'https://127.0.0.1:1/mutate-pod' },
    namespaceSelector: { matchLabels: { 'ks-takeover-e2e': 'nothing-carries-this' } },
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
  }],
} as KubeObject;
const exists = (apiVersion: string, kind: string, name: string, ns?: string) =>
  env.kube.get(apiVersion, kind, name, ns).then(() => true, (e: unknown) => { if (isNotFound(e)) return false; throw e; });

/** What `kruise-serverless takeover --base-url … --cluster-id … --secret-file …` renders and applies. */
async function clusterSide(): Promise<KubeObject[]> {
  const endpoints = webhookEndpoints(FEATURES);
  const scoped = { namespaceSelector: { matchLabels: { 'e2e.kruise-serverless.io/takeover': 'yes' } } };
  const overrides = Object.fromEntries(endpoints.filter((e) => e.path.endsWith('-pod') || e.path === POD_STATUS_OBSERVER).map((e) => [e.path, scoped]));
  return renderClusterSide({
    baseUrl: env.worker.url, clusterId: env.clusterId, secret: env.webhookSecret, caBundle: caPem(), endpoints, overrides,
    crds: readCrdManifests(join(REPO_ROOT, 'infra', 'crds')), nameLabelKept: await serverKeepsNameLabel(env.kube),
  });
}

async function run(dryRun: boolean): Promise<string> {
  const lines: string[] = [];
  await takeover(env.kube, { dryRun, force: false, clusterSide: await clusterSide(), reconcilers: reconcilers(), ledgers: remoteLedgers(env.edge), out: (l) => lines.push(l) }).catch((e: unknown) => {
    if (e instanceof Error) e.message += `\n${lines.join('\n')}`;
    throw e;
  });
  return lines.join('\n');
}

beforeAll(async () => {
  env = await startEdgeEnv('takeover', FEATURES);
  await earlierFilesGone(env.kube);
  await env.resync(); // the install's first push
  await env.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KS } }).catch(() => undefined);
  await env.kube.create(openKruiseWebhook);
});
afterAll(async () => {
  await env?.kube.delete(manager(0)).catch(() => undefined);
  if (env) await undoTakeover(env.kube);
  await env?.kube.delete(openKruiseWebhook).catch(() => undefined);
  await env?.dispose();
});

describe('takeover', () => {
  it('refuses while kruise-controller-manager wants replicas, saying why; --dry-run prints every step and changes nothing', async () => {
    await env.kube.create(manager(1));
    const refused = await run(false).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(TakeoverRefused);
    expect((refused as Error).message).toContain('Deployment kruise-system/kruise-controller-manager wants 1 replica(s): scale it to 0 first');
    await env.kube.patch(manager(1), { spec: { replicas: 0 } });
    await eventually('the manager scaled to 0', async () => ((await env.kube.get<KubeObject & { status?: { replicas?: number } }>('apps/v1', 'Deployment', 'kruise-controller-manager', KS)).status?.replicas ?? 0) === 0 || undefined, 30_000);

    const printed = await run(true);
    expect(printed).toContain(`would delete MutatingWebhookConfiguration ${MUTATING}`);
    expect(printed).toContain('dry run: nothing was changed');
    expect(await exists(ADMISSION, 'MutatingWebhookConfiguration', MUTATING)).toBe(true);
    expect(await exists('v1', 'ConfigMap', 'kruise-serverless-handback', KS)).toBe(false);
  });

  it('a PUB with a drain OpenKruise admitted a moment ago keeps refusing; no pod write is planned; handback restores OpenKruise’s webhooks', async () => {
    await env.createPub('web', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
    const pods = ['web-0', 'web-1', 'web-2'];
    await Promise.all(pods.map((p) => env.createPod(p, { app: 'web' })));
    await env.waitReady(pods);
    await env.resync(); // our ledger holds the PUB already (an earlier install, or a first try)
    // OpenKruise's webhook then admitted evicting web-0 and wrote it to status, as kruise-manager
    // (its field manager); the pod is still there.
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await env.kube.patch({ apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'web', namespace: env.ns } },
      { status: { disruptedPods: { 'web-0': now }, unavailableAllowed: 0, currentAvailable: 2, desiredAvailable: 2, totalReplicas: 3 } }, 'merge', 'status', { fieldManager: 'kruise-manager' });

    const ours = () => env.kube.get(ADMISSION, 'ValidatingWebhookConfiguration', 'kruise-serverless-validating').then((w) => w.metadata?.uid);
    const before = await ours();
    const printed = await run(false);
    // Step 3 applies CRDs and RBAC only: our webhooks already installed are left alone, so no
    // eviction slips through between removing OpenKruise's (step 2) and installing ours (step 6).
    expect(await ours()).toBe(before);
    expect(printed).toContain('no pod write, no pod delete');
    expect(printed).toContain('in flight: web-0');
    expect(printed).toContain(`PodUnavailableBudget ${env.ns}/web: merged into the edge's ledger (unavailableAllowed 1 → 0, added in flight: web-0)`);
    expect(await exists(ADMISSION, 'MutatingWebhookConfiguration', MUTATING)).toBe(false);
    expect(await exists('v1', 'ConfigMap', 'kruise-serverless-handback', KS)).toBe(true);

    // Right after the takeover, before any controller run, the edge refuses as OpenKruise would.
    const exhausted = 'podunavailablebudget.policy.kruise.io "web" is forbidden: pub unavailable allowed is negative';
    expect(await evictPod(env.kube, env.ns, 'web-1')).toEqual({ code: 429, message: deniedBy(VPOD, exhausted) });

    await env.resync(); // the controller's first run after the takeover
    expect(await env.pubStatus('web')).toMatchObject({ unavailableAllowed: 0, disruptedPods: { 'web-0': now } });
    expect(await evictPod(env.kube, env.ns, 'web-1')).toEqual({ code: 429, message: deniedBy(VPOD, exhausted) });

    // The disruption completes: web-0 goes (its deletion is the one already admitted), and the budget comes back.
    expect((await deletePod(env.kube, env.ns, 'web-0')).code).toBe(200);
    await eventually('web-0 gone', () => exists('v1', 'Pod', 'web-0', env.ns).then((there) => (there ? undefined : true)), 60_000);
    await env.resync(); // no loop runs in this file: the PUB controller's run that web-0's deletion triggers
    expect(await evictPod(env.kube, env.ns, 'web-1')).toEqual({ code: 201, message: '' });

    const back: string[] = [];
    await handback(env.kube, { dryRun: false, out: (l) => back.push(l) });
    expect(await exists(ADMISSION, 'MutatingWebhookConfiguration', MUTATING)).toBe(true);
    expect(await exists('v1', 'ConfigMap', 'kruise-serverless-handback', KS)).toBe(false);
  });

  it('a WorkloadSpread creation OpenKruise recorded a moment ago counts against its subset right after takeover', async () => {
    await applyClusterSide(env.kube, await clusterSide()); // `install` again: the previous test handed the cluster back
    const labels = { app: 'spread-web', 'pod-template-hash': 'h1' };
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'spread-web', namespace: env.ns },
      spec: { replicas: 0, selector: { matchLabels: { app: 'spread-web' } }, template: { metadata: { labels }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }], terminationGracePeriodSeconds: 0 } } } } as KubeObject;
    await env.kube.create(rs);
    await env.kube.create({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread', namespace: env.ns },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'spread-web' }, subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b' }] } } as KubeObject);
    type PodObj = KubeObject & { metadata: { name: string; annotations?: Record<string, string> } };
    const podsOf = async () => (await env.kube.list<PodObj>('v1', 'Pod', { namespace: env.ns, labelSelector: 'app=spread-web' })).items;
    const subsetOf = (p: PodObj) => (JSON.parse(p.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}') as { subset?: string }).subset;

    // Our webhook places the first pod in a: the edge's ledger now holds the WorkloadSpread.
    await env.kube.patch(rs, { spec: { replicas: 1 } });
    const [first] = await eventually('the first pod', async () => ((await podsOf()).length === 1 ? podsOf() : undefined));
    expect(subsetOf(first!)).toBe('a');
    // As OpenKruise's controller leaves it: the deletion cost of a pod in the first of two subsets.
    await env.kube.patch(first!, { metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '200' } } });
    // OpenKruise's webhook, running next to ours, then placed another pod in a from the status it
    // read (no entries yet) and wrote it there as kruise-manager: with ours, a is full.
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await env.kube.patch({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread', namespace: env.ns } }, { status: {
      observedGeneration: 1,
      versionedSubsetStatuses: { h1: [{ name: 'a', replicas: 0, missingReplicas: 1, creatingPods: { 'spread-web-okx': now } }, { name: 'b', replicas: 0, missingReplicas: -1 }] },
    } }, 'merge', 'status', { fieldManager: 'kruise-manager' });

    const printed = await run(false);
    expect(printed).toContain(`WorkloadSpread ${env.ns}/spread: merged into the edge's ledger (creation(s) added: h1/a/spread-web-okx)`);
    expect(printed).toContain('no pod write, no pod delete');

    // Right after the takeover, the next pod goes to b: OpenKruise's creation holds a's last place.
    await env.kube.patch(rs, { spec: { replicas: 2 } });
    const pods = await eventually('the second pod', async () => { const all = await podsOf(); return all.length === 2 ? all : undefined; });
    expect(subsetOf(pods.find((p) => p.metadata.name !== first!.metadata.name)!)).toBe('b');
    await handback(env.kube, { dryRun: false, out: () => undefined });
  });
});
