// Read-your-writes on the Worker path: configuration and the action that depends on it are sent
// back to back, as `kubectl apply -f dir/` and `helm install` send them: no sleep, no push, no
// reconcile in between. The edge learns the configuration from its own admission (validating
// webhooks and observers write what they admit through to its state before answering).
// The only push is the install's, in beforeAll, before any of the objects below exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/registry.js';
import type { KubeObject } from '../../src/kube/http.js';
import { deletePod, evictPod } from './support/disrupt.js';
import { createNamespace, deleteNamespace, eventually, testKubeConfig } from './support/kube.js';
import { PUB, startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { pubReconciler } from '../../src/pub/controller/reconciler.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import './provided.js';

const SS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' };
const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' };
const SCOPE = { 'e2e.kruise-serverless.io/ryw': 'yes' };
let env: EdgeEnv;
const extraNamespaces: string[] = [];
const sets: string[] = [];
const names = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.name);

const sidecarSet = (name: string, spec: Record<string, unknown>) => {
  sets.push(name);
  return env.kube.create<KubeObject>({ ...SS, metadata: { name }, spec: { containers: [{ name: `${name}-agent`, image: 'agent:1' }], ...spec } });
};

beforeAll(async () => {
  env = await startEdgeEnv('ryw', FEATURES);
  await env.resync(); // the install's first push
});

afterAll(async () => {
  for (const s of sets) await env.kube.delete({ ...SS, metadata: { name: s } }).catch(() => undefined);
  for (const n of extraNamespaces) await deleteNamespace(testKubeConfig(), n);
  await env?.dispose();
});

/** Once the app's `count` pods exist, the subset WorkloadSpread placed each in. */
const placedSubsets = (app: string, count: number) =>
  eventually(`${count} pods`, async () => {
    const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;
    return pods.length === count ? pods.map((p) => (JSON.parse(p.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}') as { subset?: string }).subset) : undefined;
  }, 60_000);

describe('SidecarSet', () => {
  it('a pod applied right after its SidecarSet gets the sidecar; right after the set is deleted, it does not', async () => {
    await sidecarSet('ryw-inject', { selector: { matchLabels: { app: 'ryw-inject' } } });
    expect(names(await env.createPod('ryw-inject-0', { app: 'ryw-inject' }))).toEqual(['ryw-inject-agent', 'main']);
    await env.kube.delete({ ...SS, metadata: { name: 'ryw-inject' } });
    expect(names(await env.createPod('ryw-inject-1', { app: 'ryw-inject' }))).toEqual(['main']);
  });

  it('a namespace created with matching labels is seen by the namespaceSelector at once', async () => {
    await sidecarSet('ryw-ns', { selector: { matchLabels: { app: 'ryw-ns' } }, namespaceSelector: { matchLabels: { tier: 'ryw-gold' } } });
    const ns = await createNamespace(testKubeConfig(), 'ryw-gold', { ...SCOPE, tier: 'ryw-gold' });
    extraNamespaces.push(ns);
    const pod = await env.kube.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gold', namespace: ns, labels: { app: 'ryw-ns' } },
      spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
    expect(names(pod)).toEqual(['ryw-ns-agent', 'main']);
  });

  it('the kruise-configuration whitelist, then a SidecarSet using patchPodMetadata: accepted', async () => {
    const whitelist = { rules: [{ allowedAnnotationKeyExprs: ['^ryw.example.com/'] }] };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' } };
    await env.kube.delete(cm).catch(() => undefined);
    await env.kube.create({ ...cm, data: { SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify(whitelist) } });
    try {
      await sidecarSet('ryw-meta', { selector: { matchLabels: { app: 'ryw-meta' } },
        patchPodMetadata: [{ annotations: { 'ryw.example.com/x': 'y' }, patchPolicy: 'Overwrite' }] });
      expect((await env.createPod('ryw-meta-0', { app: 'ryw-meta' })).metadata.annotations?.['ryw.example.com/x']).toBe('y');
    } finally {
      await env.kube.delete(cm).catch(() => undefined);
    }
  });
});

// `kubectl replace` of the Kruise namespace (the conformance harness replaces it with a manifest that
// has no labels): Kubernetes 1.20 does not keep `kubernetes.io/metadata.name` on it, so observers
// selecting the namespace by that label would see nothing in it from then on.
describe('SidecarSet, after the Kruise namespace was replaced without labels', () => {
  type Named = KubeObject & { metadata: { name: string; resourceVersion?: string; labels?: Record<string, string> } };
  const KRUISE_NS = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } };
  let labels: Record<string, string> = {};

  beforeAll(async () => {
    const current = await env.kube.get<Named>('v1', 'Namespace', 'kruise-system');
    labels = current.metadata.labels ?? {};
    await env.kube.replace({ ...KRUISE_NS, metadata: { name: 'kruise-system', resourceVersion: current.metadata.resourceVersion } });
    expect((await env.kube.get<Named>('v1', 'Namespace', 'kruise-system')).metadata.labels ?? {}).toEqual({});
  });

  afterAll(async () => {
    await env.kube.patch(KRUISE_NS, { metadata: { labels } }).catch(() => undefined);
  });

  it('the kruise-configuration whitelist replaced (PUT), then a SidecarSet using patchPodMetadata: accepted', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' } };
    const whitelist = (expr: string) => ({ SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: [expr] }] }) });
    await env.kube.delete(cm).catch(() => undefined);
    const first = await env.kube.create<Named>({ ...cm, data: whitelist('^ryw-other.example.com/') });
    await env.kube.replace({ ...cm, metadata: { ...cm.metadata, resourceVersion: first.metadata.resourceVersion }, data: whitelist('^ryw-replaced.example.com/') });
    try {
      await sidecarSet('ryw-replaced', { selector: { matchLabels: { app: 'ryw-replaced' } },
        patchPodMetadata: [{ annotations: { 'ryw-replaced.example.com/x': 'y' }, patchPolicy: 'Overwrite' }] });
      expect((await env.createPod('ryw-replaced-0', { app: 'ryw-replaced' })).metadata.annotations?.['ryw-replaced.example.com/x']).toBe('y');
    } finally {
      await env.kube.delete(cm).catch(() => undefined);
    }
  });

  it('a ControllerRevision, then a SidecarSet pinning it: accepted, and its pod gets the pinned containers', async () => {
    const revision = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'ryw-pinned-rev1', namespace: 'kruise-system', labels: { 'kruise.io/sidecarset-name': 'ryw-pinned' } } };
    await env.kube.delete(revision).catch(() => undefined);
    await env.kube.create({ ...revision, revision: 1, data: { spec: { $patch: 'replace', containers: [{ name: 'ryw-pinned-agent', image: 'agent:pinned' }] } } });
    try {
      await sidecarSet('ryw-pinned', { selector: { matchLabels: { app: 'ryw-pinned' } },
        injectionStrategy: { revision: { revisionName: 'ryw-pinned-rev1', policy: 'Always' } } });
      const pod = await env.createPod('ryw-pinned-0', { app: 'ryw-pinned' });
      expect(pod.spec?.containers.find((c) => c.name === 'ryw-pinned-agent')?.image).toBe('agent:pinned');
    } finally {
      await env.kube.delete(revision).catch(() => undefined);
    }
  });
});

describe('PodUnavailableBudget', () => {
  it('a PUB, then a pod it selects, then that pod deleted, all at once: stamped with the PUB (an unready pod may go)', async () => {
    await env.createPub('ryw-pub', { selector: { matchLabels: { app: 'ryw-pub' } }, maxUnavailable: 1 });
    // Pinned to no node, so it is certainly not ready when deleted (the fake kubelet could
    // otherwise make it Ready first on a busy machine).
    const pod = (await env.kube.create<KubeObject>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ryw-pub-0', namespace: env.ns, labels: { app: 'ryw-pub' } },
      spec: { automountServiceAccountToken: false, nodeSelector: { 'ryw.example.com/no-such-node': 'x' }, containers: [{ name: 'main', image: 'app:1' }] } })) as Pod;
    expect(pod.metadata.annotations?.['kruise.io/related-pub']).toBe('ryw-pub');
    // Not ready, so not available: OpenKruise lets it go without spending the budget.
    expect(await deletePod(env.kube, env.ns, 'ryw-pub-0')).toEqual({ code: 200, message: '' });
  });

  it('a PUB deleted, then its pods deleted at once: allowed (kubectl delete -f of an app that ships its PUB)', async () => {
    await env.createPod('ryw-gone-0', { app: 'ryw-gone' });
    await env.createPub('ryw-gone', { selector: { matchLabels: { app: 'ryw-gone' } }, maxUnavailable: 0 });
    await env.kube.delete({ ...PUB, metadata: { name: 'ryw-gone', namespace: env.ns } });
    expect(await deletePod(env.kube, env.ns, 'ryw-gone-0')).toEqual({ code: 200, message: '' });
  });

  it('a pod created, then evicted at once: the edge knows the pod', async () => {
    await env.createPod('ryw-evict-0', { app: 'ryw-evict' });
    expect(await evictPod(env.kube, env.ns, 'ryw-evict-0')).toEqual({ code: 201, message: '' });
  });
});

describe('budgets right at first sight', () => {
  const pubStatus = { observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1 };
  const exhausted = (pub: string) => `admission webhook "vpod.kruise-serverless.io" denied the request: podunavailablebudget.policy.kruise.io "${pub}" is forbidden: pub unavailable allowed is negative`;

  /** Ready pods carrying `kruise.io/related-pub` (stamped by an earlier webhook, or OpenKruise's). */
  async function protectedPods(pub: string, n: number): Promise<string[]> {
    const names = Array.from({ length: n }, (_, i) => `${pub}-${i}`);
    await Promise.all(names.map((name) => env.createPod(name, { app: pub }, { annotations: { 'kruise.io/related-pub': pub } })));
    await env.waitReady(names);
    return names;
  }

  it('a PUB whose status another controller wrote, then its pods disrupted at once: decided from that status, as OpenKruise', async () => {
    const [p0, p1, p2] = await protectedPods('ryw-taken', 3);
    const pub = await env.createPub('ryw-taken', { selector: { matchLabels: { app: 'ryw-taken' } }, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': '3' });
    await env.kube.patch(pub, { status: pubStatus }, 'merge', 'status');
    // No controller has counted this PUB's pods: the edge takes the recorded allowance of 1.
    expect(await deletePod(env.kube, env.ns, p0!)).toEqual({ code: 200, message: '' });
    expect(await deletePod(env.kube, env.ns, p1!)).toEqual({ code: 403, message: exhausted('ryw-taken') });
    expect(await evictPod(env.kube, env.ns, p2!)).toEqual({ code: 429, message: exhausted('ryw-taken') });
    await expect(env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: p2!, namespace: env.ns } }, { spec: { containers: [{ name: 'main', image: 'app:2' }] } }, 'strategic'))
      .rejects.toThrow('pub unavailable allowed is negative');
  });

  it('a PUB created, then its pod deleted at once: the check waits for the budget’s first sync instead of answering 503', async () => {
    const [p0, p1] = await protectedPods('ryw-first', 2);
    const stop = new AbortController();
    // The controller as the Node loop runs it: the PUB's creation triggers its first sync.
    const loop = runLoop({
      kube: env.kube, reconcilers: [pubReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
      run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ryw-first-${scope.kind}`, ledgers: remoteLedgers(env.edge) }),
    });
    try {
      await env.createPub('ryw-first', { selector: { matchLabels: { app: 'ryw-first' } }, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': '2' });
      expect(await deletePod(env.kube, env.ns, p0!)).toEqual({ code: 200, message: '' });
      expect(await deletePod(env.kube, env.ns, p1!)).toEqual({ code: 403, message: exhausted('ryw-first') });
    } finally {
      stop.abort();
      await loop;
    }
  });

  /** A CloneSet (no controller runs for it here) and pods it owns, placed in `zone-a` as the webhook placed them. */
  async function placedPods(app: string, n: number): Promise<{ apiVersion: string; kind: string; name: string; uid: string; controller: boolean }> {
    const cs = await env.kube.create<KubeObject>({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: app, namespace: env.ns }, spec: {
      replicas: 4, selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: app, uid: String(cs.metadata?.uid), controller: true };
    const placed = JSON.stringify({ name: app, subset: 'zone-a' });
    await Promise.all(Array.from({ length: n }, (_, i) => env.createPod(`${app}-${i}`, { app }, { annotations: { 'apps.kruise.io/matched-workloadspread': placed }, ownerReferences: [owner] })));
    return owner;
  }
  const subsetOf = (p: Pod) => (JSON.parse(p.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}') as { subset?: string }).subset;
  const zoneStatus = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const subsets = [{ name: 'zone-a', ...a }, { name: 'zone-b', ...b }];
    return { observedGeneration: 1, subsetStatuses: subsets, versionedSubsetStatuses: { versionIgnored: subsets } };
  };

  it.each([
    ['zone-a full, zone-b unlimited: the next subset', 'ryw-full', undefined, { replicas: 0, missingReplicas: -1 }, 'zone-b'],
    ['every subset full: no subset, nothing injected', 'ryw-allfull', 2, { replicas: 2, missingReplicas: 0 }, undefined],
  ])('a WorkloadSpread whose status another controller wrote, then a pod at once: %s', async (_n, app, zoneBMax, zoneB, want) => {
    const owner = await placedPods(app, 2);
    const ws = await env.kube.create<KubeObject>({ ...WS, metadata: { name: app, namespace: env.ns }, spec: {
      targetRef: { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name },
      subsets: [{ name: 'zone-a', maxReplicas: 2 }, { name: 'zone-b', ...(zoneBMax === undefined ? {} : { maxReplicas: zoneBMax }) }],
    } });
    await env.kube.patch(ws, { status: zoneStatus({ replicas: 2, missingReplicas: 0 }, zoneB) }, 'merge', 'status');
    const pod = await env.createPod(`${app}-new`, { app }, { ownerReferences: [owner] });
    expect(subsetOf(pod)).toBe(want);
  });

  it('a pod whose owner does not exist, in a namespace with a WorkloadSpread: refused with the NotFound message, as OpenKruise', async () => {
    const owner = await placedPods('ryw-orphan', 0);
    await env.kube.create({ ...WS, metadata: { name: 'ryw-orphan', namespace: env.ns }, spec: {
      targetRef: { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name }, subsets: [{ name: 'zone-a' }],
    } });
    await expect(env.createPod('ryw-orphan-canary-0', { app: 'ryw-orphan' }, { ownerReferences: [{ ...owner, name: 'ryw-orphan-canary' }] }))
      .rejects.toThrow('clonesets.apps.kruise.io "ryw-orphan-canary" not found');
  });
});

describe('WorkloadSpread', () => {
  it('a WorkloadSpread, then its Deployment at once: the pods are placed in its subsets', async () => {
    await env.kube.create({ ...WS, metadata: { name: 'ryw-spread', namespace: env.ns }, spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ryw-spread' },
      subsets: [{ name: 'first', maxReplicas: 2 }, { name: 'rest' }],
    } });
    await env.kube.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ryw-spread', namespace: env.ns }, spec: {
      replicas: 5, selector: { matchLabels: { app: 'ryw-spread' } },
      template: { metadata: { labels: { app: 'ryw-spread' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    const subsets = await placedSubsets('ryw-spread', 5);
    expect(subsets.filter((s) => s === 'first')).toHaveLength(2);
    expect(subsets.filter((s) => s === 'rest')).toHaveLength(3);
    await env.kube.delete({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ryw-spread', namespace: env.ns } }, { propagationPolicy: 'Background' });
  });

  it('a Deployment scaled through its scale subresource (kubectl scale, an HPA): a percentage subset counts the new replicas at once', async () => {
    await env.kube.create({ ...WS, metadata: { name: 'ryw-scaled', namespace: env.ns }, spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ryw-scaled' },
      subsets: [{ name: 'half', maxReplicas: '50%' }, { name: 'rest' }],
    } });
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ryw-scaled', namespace: env.ns } };
    await env.kube.create({ ...deployment, spec: {
      replicas: 0, selector: { matchLabels: { app: 'ryw-scaled' } },
      template: { metadata: { labels: { app: 'ryw-scaled' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    // Only the scale subresource changes: the Deployment object itself is never updated by us.
    await env.kube.patch(deployment, { spec: { replicas: 4 } }, 'merge', 'scale');
    const subsets = await placedSubsets('ryw-scaled', 4);
    expect(subsets.filter((x) => x === 'half')).toHaveLength(2);
    expect(subsets.filter((x) => x === 'rest')).toHaveLength(2);
    await env.kube.delete(deployment, { propagationPolicy: 'Background' });
  });
});
