// PodUnavailableBudget end to end on a real API server: the production Worker (Miniflare over
// HTTPS) stamps `kruise.io/related-pub` on pod CREATE, decides DELETE, eviction and in-place
// UPDATE in one ledger per PUB (a Durable Object), and validates PUBs; the PUB controller
// (`reconcile --once` with the edge) writes status and Events and resyncs the ledgers. Pods run
// on the fake kubelet, which also finalises deleted pods.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushCollections } from '../../src/edge-state/push.js';
import { PODS_COLLECTION } from '../../src/pub/collections.js';
import { stateCollections } from '../../src/registry.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Lister } from '../../src/edge-state/live-state.js';
import { deletePod, deniedBy, evictPod, VPOD } from './support/disrupt.js';
import { eventually } from './support/kube.js';
import { PUB, startEdgeEnv, type EdgeEnv, type Pod, type PubObj } from './support/edge-env.js';
import { pubFeature } from '../../src/pub/index.js';
import { pubReconciler } from '../../src/pub/controller/reconciler.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';

let env: EdgeEnv;
type Owner = KubeObject & { metadata: { uid: string } };
const exhausted = (pub: string) => `podunavailablebudget.policy.kruise.io "${pub}" is forbidden: pub unavailable allowed is negative`;
const related = async (name: string) => (await env.kube.get<Pod>('v1', 'Pod', name, env.ns)).metadata.annotations?.['kruise.io/related-pub'];
const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
const list: Lister = (v, k, o) => env.kube.list(v, k, o);
const evict = (name: string, dryRun = false) => evictPod(env.kube, env.ns, name, { dryRun });
const del = (name: string, dryRun = false) => deletePod(env.kube, env.ns, name, { dryRun });
const imagePatch = (name: string, image: string) =>
  env.kube.patch<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: env.ns } }, { spec: { containers: [{ name: 'main', image }] } }, 'strategic');
const podGone = async (name: string) => {
  const pods = await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, fieldSelector: `metadata.name=${name}` });
  return pods.items.length === 0 || Boolean(pods.items[0]!.metadata.deletionTimestamp);
};
type CoreEvent = KubeObject & { reason: string; message: string; type: string; source?: { component?: string }; involvedObject: { kind: string; name: string } };
const eventsFor = async (kind: string, name: string, reason: string) =>
  (await env.kube.list<CoreEvent>('v1', 'Event', { namespace: env.ns, fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name},reason=${reason}` })).items;

/** Pods labelled app=<prefix>, created and Ready. */
async function readyPods(prefix: string, n: number, annotations?: (i: number) => Record<string, string> | undefined): Promise<string[]> {
  const names = range(prefix, n);
  await Promise.all(names.map((name, i) => env.createPod(name, { app: prefix }, annotations?.(i) ? { annotations: annotations(i)! } : {})));
  await env.waitReady(names);
  return names;
}

beforeAll(async () => {
  env = await startEdgeEnv('pub', [pubFeature]);
});

afterAll(async () => {
  await env?.dispose();
});

describe('without a current budget at the edge', () => {
  it('a pushed pod list observed 4 minutes ago is still current when the observers wrote to it since: the eviction is decided, not refused for its age', async () => {
    const others = stateCollections().filter((c) => c.name !== PODS_COLLECTION);
    await pushCollections(env.edge, list, others);
    await env.createPub('early', { selector: { matchLabels: { app: 'early' } }, maxUnavailable: 1 });
    await pushCollections(env.edge, list, others);
    // Created after the push below was listed: observe-pod writes it through, so the edge last knew the pods current now.
    await env.createPod('early', { app: 'early' }, { annotations: { 'pub.kruise.io/no-protect': 'true' } });
    expect(await related('early')).toBe('early');
    await env.waitReady(['early']);
    // The pods as observed 4 minutes ago: older than the 3-minute bound (src/pub/disruption-webhook.test.ts
    // covers a list with no write since: refused with 429, naming the PUB and the age).
    await pushCollections(env.edge, list, stateCollections().filter((c) => c.name === PODS_COLLECTION), () => Date.now() - 240_000);
    // The pod is not protected (no-protect): evicted.
    expect(await evict('early')).toEqual({ code: 201, message: '' });
  });

  it('a PUB whose budget was never synced refuses DELETE (503) and eviction (429), naming the PUB', async () => {
    const push = () => pushCollections(env.edge, list, stateCollections());
    await push();
    await env.createPub('unsynced', { selector: { matchLabels: { app: 'unsynced' } }, maxUnavailable: 1 });
    await push();
    await readyPods('unsynced', 1);
    expect(await related('unsynced-0')).toBe('unsynced');
    await push();
    const message = 'podunavailablebudget "unsynced": its budget is not known yet (the PodUnavailableBudget controller has not synced it); retry shortly';
    expect(await del('unsynced-0')).toEqual({ code: 503, message: deniedBy(VPOD, message) });
    expect(await evict('unsynced-0')).toEqual({ code: 429, message: deniedBy(VPOD, message) });
  });
});

describe('kruise.io/related-pub on pod CREATE', () => {
  it('selector: matching pods are stamped, others not', async () => {
    await env.createPub('stamp-sel', { selector: { matchLabels: { app: 'stamp-sel' } }, maxUnavailable: 1 });
    await env.createPod('stamp-sel-0', { app: 'stamp-sel' });
    await env.createPod('stamp-other-0', { app: 'stamp-other' });
    expect(await related('stamp-sel-0')).toBe('stamp-sel');
    expect(await related('stamp-other-0')).toBeUndefined();
  });

  it('targetRef StatefulSet: its pods are stamped, though the selector would match nothing', async () => {
    await env.createPub('stamp-sts', { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'stamp-sts' }, maxUnavailable: 1 });
    await env.kube.create({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'stamp-sts', namespace: env.ns }, spec: {
      replicas: 2, serviceName: 'stamp-sts', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'stamp-sts' } },
      template: { metadata: { labels: { app: 'stamp-sts' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    await env.waitReady(['stamp-sts-0', 'stamp-sts-1']);
    expect(await related('stamp-sts-0')).toBe('stamp-sts');
    await env.resync();
    expect(await env.pubStatus('stamp-sts')).toMatchObject({ totalReplicas: 2, desiredAvailable: 1, currentAvailable: 2, unavailableAllowed: 1 });
  });

  it.each([
    ['CloneSet', 'apps.kruise.io/v1alpha1', 'stamp-cs'],
    ['StatefulSet', 'apps.kruise.io/v1beta1', 'stamp-asts'],
  ])('targetRef %s (%s, a workload with a scale subresource): pods it owns are stamped and its replicas are the total', async (kind, apiVersion, name) => {
    const workload = (await env.kube.create<KubeObject>({ apiVersion, kind, metadata: { name, namespace: env.ns }, spec: {
      replicas: 4, serviceName: name, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    } })) as Owner;
    await env.createPub(name, { targetRef: { apiVersion, kind, name }, maxUnavailable: '50%' });
    // No controller for these kinds runs here: the pods are created as it would create them.
    const owner = { apiVersion, kind, name, uid: workload.metadata.uid, controller: true };
    await Promise.all(range(name, 2).map((n) => env.createPod(n, { app: name }, { ownerReferences: [owner] })));
    await env.waitReady(range(name, 2));
    expect(await related(`${name}-1`)).toBe(name);
    await env.resync();
    // 4 expected (scale), 50% may be unavailable: 2 desired; both running pods are needed.
    expect(await env.pubStatus(name)).toMatchObject({ totalReplicas: 4, desiredAvailable: 2, currentAvailable: 2, unavailableAllowed: 0 });
    expect(await evict(`${name}-0`)).toEqual({ code: 429, message: deniedBy(VPOD, exhausted(name)) });
  });
});

describe('a Deployment’s PUB, created before any pod (kruise#1857)', () => {
  const web = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: '' } };
  const webPods = async () => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: 'app=web' })).items.filter((p) => !p.metadata.deletionTimestamp);

  it('has a status from the first run, then counts the pods as they come (stamped through the ReplicaSet)', async () => {
    web.metadata.namespace = env.ns;
    const pub = await env.createPub('web', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 });
    await env.kube.create({ ...web, spec: {
      replicas: 0, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    await eventually('the ReplicaSet', async () => ((await env.kube.list('apps/v1', 'ReplicaSet', { namespace: env.ns, labelSelector: 'app=web' })).items.length ? true : undefined));
    await env.resync(); // the ReplicaSet reaches the edge: its pods resolve to the Deployment
    expect(await env.pubStatus('web')).toEqual({
      observedGeneration: pub.metadata.generation, totalReplicas: 0, desiredAvailable: 0, currentAvailable: 0, unavailableAllowed: 0,
    });
    await env.kube.patch(web, { spec: { replicas: 3 } });
    const pods = await eventually('3 ready web pods', async () => {
      const ps = await webPods();
      return ps.length === 3 && ps.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ? ps : undefined;
    });
    expect(pods.map((p) => p.metadata.annotations?.['kruise.io/related-pub'])).toEqual(['web', 'web', 'web']);
    await env.resync();
    expect(await env.pubStatus('web')).toEqual({
      observedGeneration: pub.metadata.generation, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1,
    });
  });

  it('an allowed eviction that never happens (a PodDisruptionBudget refuses it) shows in disruptedPods, then expires after 20 s with a NotDeleted Event', async () => {
    await env.kube.create({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'web-pdb', namespace: env.ns }, spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'web' } } } });
    const [victim] = (await webPods()).map((p) => p.metadata.name);
    const refused = await evict(victim!);
    // Our webhook spent the budget; the API server's PDB check came after it and refused.
    expect(refused.code).toBe(429);
    expect(refused.message).toMatch(/disruption budget/);
    await env.resync();
    const status = await env.pubStatus('web');
    expect(Object.keys(status?.disruptedPods ?? {})).toEqual([victim]);
    expect(status).toMatchObject({ currentAvailable: 2, unavailableAllowed: 0 });
    const other = (await webPods()).map((p) => p.metadata.name).find((n) => n !== victim)!;
    expect(await evict(other)).toEqual({ code: 429, message: deniedBy(VPOD, exhausted('web')) });
    await new Promise((r) => setTimeout(r, 21_000));
    await env.resync();
    const settled = await env.pubStatus('web');
    expect(settled).toMatchObject({ currentAvailable: 3, unavailableAllowed: 1 });
    expect(settled?.disruptedPods).toBeUndefined(); // empty: omitted, as OpenKruise's omitempty
    const notDeleted = await eventsFor('Pod', victim!, 'NotDeleted');
    expect(notDeleted[0]).toMatchObject({ type: 'Warning', message: 'podunavailablebudget "web" allowed disrupting this pod, but it was not disrupted within 20s' });
    await env.kube.delete({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'web-pdb', namespace: env.ns } });
  }, 90_000);
});

describe('disruption decisions', () => {
  it('maxUnavailable 1 of 3: dry runs spend nothing; then one eviction, a 429 for the next, a 403 for a DELETE, and PubPreventPodDeletion Events', async () => {
    const pub = await env.createPub('ev', { selector: { matchLabels: { app: 'ev' } }, maxUnavailable: 1 });
    const [a, b, c] = await readyPods('ev', 3);
    await env.resync();
    expect(await env.pubStatus('ev')).toEqual({
      observedGeneration: pub.metadata.generation, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1,
    });
    expect(await evict(a!, true)).toEqual({ code: 201, message: '' });
    expect(await evict(b!, true)).toEqual({ code: 201, message: '' });
    expect(await del(c!, true)).toEqual({ code: 200, message: '' });
    expect(await podGone(a!)).toBe(false);
    expect(await evict(a!)).toEqual({ code: 201, message: '' });
    expect(await evict(b!, true)).toEqual({ code: 429, message: deniedBy(VPOD, exhausted('ev')) });
    expect(await evict(b!)).toEqual({ code: 429, message: deniedBy(VPOD, exhausted('ev')) });
    expect(await del(c!)).toEqual({ code: 403, message: deniedBy(VPOD, exhausted('ev')) });
    expect(await podGone(b!)).toBe(false);
    await env.resync();
    for (const pod of [b!, c!]) {
      const [event] = await eventsFor('Pod', pod, 'PubPreventPodDeletion');
      expect(event).toMatchObject({ type: 'Warning', message: 'openkruise pub prevents pod deletion', source: { component: 'kruise-serverless' } });
    }
    // The dry-run refusal was not recorded, and the allowed eviction raised none.
    expect(await eventsFor('Pod', a!, 'PubPreventPodDeletion')).toEqual([]);
  });

  const table: [string, Record<string, unknown>, number, number][] = [
    // name, spec, pods, how many may be evicted
    ['pct-min', { minAvailable: '50%' }, 4, 2],
    ['pct-max', { maxUnavailable: '25%' }, 4, 1],
    ['int-min', { minAvailable: 3 }, 3, 0],
    ['zero', { maxUnavailable: '100%' }, 2, 2],
  ];
  it.each(table)('%s %j of %i pods: %i evictions allowed, then 429', async (name, spec, n, allowed) => {
    await env.createPub(name, { selector: { matchLabels: { app: name } }, ...spec });
    const pods = await readyPods(name, n);
    await env.resync();
    for (const [i, pod] of pods.entries()) {
      const want = i < allowed ? { code: 201, message: '' } : { code: 429, message: deniedBy(VPOD, exhausted(name)) };
      expect(await evict(pod), `${pod}`).toEqual(want);
    }
  });

  it('digest-pinned pods whose runtime reports a bare config-digest imageID count as available, so the budget protects them (kruise#2570)', async () => {
    const image = `registry.k8s.io/ingress-nginx/controller@sha256:${'1'.repeat(64)}`;
    env.kubelet.reportImage(image, { imageID: `sha256:${'2'.repeat(64)}` });
    await env.createPub('dig', { selector: { matchLabels: { app: 'dig' } }, maxUnavailable: 1 });
    const names = range('dig', 2);
    for (const name of names) {
      await env.kube.create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: env.ns, labels: { app: 'dig' } },
        spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image }], terminationGracePeriodSeconds: 5 },
      });
    }
    await env.waitReady(names);
    await env.resync();
    expect(await env.pubStatus('dig')).toMatchObject({ totalReplicas: 2, desiredAvailable: 1, currentAvailable: 2, unavailableAllowed: 1 });
    expect(await evict(names[0]!)).toEqual({ code: 201, message: '' });
    expect(await evict(names[1]!)).toEqual({ code: 429, message: deniedBy(VPOD, exhausted('dig')) });
  });

  it('desiredAvailable 0 allows every DELETE too', async () => {
    const [pod] = await readyPods('zero-del', 1);
    await env.createPub('zero-del', { selector: { matchLabels: { app: 'zero-del' } }, maxUnavailable: '100%' });
    await env.resync(); // the controller back-fills related-pub on the pod created before its PUB
    expect(await related(pod!)).toBe('zero-del');
    expect(await env.pubStatus('zero-del')).toMatchObject({ desiredAvailable: 0, unavailableAllowed: 1 });
    expect(await del(pod!)).toEqual({ code: 200, message: '' });
  });

  it('in-place UPDATE of a container image spends the budget (unavailablePods); metadata-only updates never do', async () => {
    await env.createPub('upd', { selector: { matchLabels: { app: 'upd' } }, maxUnavailable: 1 });
    const [a, b] = await readyPods('upd', 2);
    await env.resync();
    await imagePatch(a!, 'app:2');
    await expect(imagePatch(b!, 'app:2')).rejects.toThrow(deniedBy(VPOD, exhausted('upd')));
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: b!, namespace: env.ns } }, { metadata: { labels: { touched: 'yes' } } });
    await env.resync();
    const status = await env.pubStatus('upd');
    expect(Object.keys(status?.unavailablePods ?? {})).toEqual([a]);
    expect(status).toMatchObject({ unavailableAllowed: 0, currentAvailable: 1, desiredAvailable: 1 });
  });

  it('pub.kruise.io/no-protect: "true" pods may always go; their siblings stay protected', async () => {
    await env.createPub('np', { selector: { matchLabels: { app: 'np' } }, minAvailable: '100%' });
    const [free, kept] = await readyPods('np', 2, (i) => (i === 0 ? { 'pub.kruise.io/no-protect': 'true' } : undefined));
    await env.resync();
    expect(await evict(kept!)).toEqual({ code: 429, message: deniedBy(VPOD, exhausted('np')) });
    expect(await evict(free!)).toEqual({ code: 201, message: '' });
    expect(await del(kept!)).toEqual({ code: 403, message: deniedBy(VPOD, exhausted('np')) });
  });

  it('kruise.io/pub-protect-operations: DELETE guards deletes only (evictions and updates pass)', async () => {
    await env.createPub('ops', { selector: { matchLabels: { app: 'ops' } }, maxUnavailable: 0 }, { 'kruise.io/pub-protect-operations': 'DELETE' });
    const [a, b] = await readyPods('ops', 2);
    await env.resync();
    await imagePatch(a!, 'app:2');
    expect(await del(a!)).toEqual({ code: 403, message: deniedBy(VPOD, exhausted('ops')) });
    expect(await evict(b!)).toEqual({ code: 201, message: '' });
  });

  it('pods of a workload kind without a known scale are protected and reported, never allow-all (kruise#2571)', async () => {
    const group = 'pub-e2e.example.com';
    await env.kube.create({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` }, spec: {
      group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    } }).catch(() => undefined);
    const widget = await eventually('the Widget CRD served', () =>
      env.kube.create<KubeObject>({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w', namespace: env.ns } }) as Promise<Owner>);
    await env.createPub('widget', { targetRef: { apiVersion: `${group}/v1`, kind: 'Widget', name: 'w' }, maxUnavailable: 1 });
    const owner = { apiVersion: `${group}/v1`, kind: 'Widget', name: 'w', uid: widget.metadata.uid, controller: true };
    const names = range('widget', 3);
    await Promise.all(names.map((n) => env.createPod(n, { app: 'widget' }, { ownerReferences: [owner] })));
    await env.waitReady(names);
    expect(await related('widget-0')).toBe('widget');
    await env.resync();
    expect(await env.pubStatus('widget')).toMatchObject({ totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1 });
    const [event] = await eventsFor('PodUnavailableBudget', 'widget', 'UnknownWorkload');
    expect(event?.message).toMatch(/^the scale of Widget\/w cannot be read \(.*\); its observed pods are protected as its replicas$/);
    expect(await evict('widget-0')).toEqual({ code: 201, message: '' });
    expect(await evict('widget-1')).toEqual({ code: 429, message: deniedBy(VPOD, exhausted('widget')) });
    await env.kube.delete({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` } }).catch(() => undefined);
  });
});

describe('PodUnavailableBudget validation', () => {
  const create = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => env.createPub(name, spec, annotations);
  it.each([
    ['selector and targetRef', { selector: { matchLabels: { app: 'v' } }, targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'v' }, maxUnavailable: 1 }, undefined,
      'spec.selector, targetRef: Required value: selector and targetRef are mutually exclusive'],
    ['neither selector nor targetRef', { maxUnavailable: 1 }, undefined, 'spec.selector, targetRef: Required value: no selector or targetRef defined in PodUnavailableBudget'],
    ['maxUnavailable and minAvailable', { selector: { matchLabels: { app: 'v' } }, maxUnavailable: 1, minAvailable: 1 }, undefined,
      'spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually exclusive'],
    ['a negative int', { selector: { matchLabels: { app: 'v' } }, minAvailable: -1 }, undefined, 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
    ['a percentage over 100%', { selector: { matchLabels: { app: 'v' } }, maxUnavailable: '120%' }, undefined, 'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%'],
    ['an unknown protected operation', { selector: { matchLabels: { app: 'v' } }, maxUnavailable: 1 }, { 'kruise.io/pub-protect-operations': 'DELETE,evict' },
      'metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid'],
    ['a selector overlapping another PUB’s', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['ev', 'x'] }] }, maxUnavailable: 1 }, undefined,
      'pub.spec.selector is in conflict with other PodUnavailableBudget ev'],
    ['the targetRef of another PUB', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minAvailable: 1 }, undefined,
      'pub.spec.targetReference is in conflict with other PodUnavailableBudget web'],
  ])('refuses %s', async (_n, spec, annotations, message) => {
    await expect(create('invalid', spec, annotations)).rejects.toThrow(message);
  });

  it('refuses changing the selector of an existing PUB', async () => {
    const ev = await env.kube.get<PubObj>(PUB.apiVersion, PUB.kind, 'ev', env.ns);
    await expect(env.kube.patch(ev, { spec: { selector: { matchLabels: { app: 'ev2' } } } })).rejects.toThrow('selector and targetRef cannot be modified');
  });
});

describe('the Node loop', () => {
  beforeAll(() => env.resync()); // the install's push, in case this runs alone

  it('runs a PUB when its pods change (their watch, each naming its PUB): the budget as they become ready, then an eviction', async () => {
    await env.createPub('loop', { selector: { matchLabels: { app: 'loop' } }, maxUnavailable: 1 });
    const stop = new AbortController();
    // An hour between full resyncs: only the watches (and the runs' own wake-ups) make it run.
    const loop = runLoop({
      kube: env.kube, reconcilers: [pubReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
      run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `pub-loop-${scope.kind}`, ledgers: remoteLedgers(env.edge) }),
    });
    try {
      for (const n of ['loop-0', 'loop-1']) await env.createPod(n, { app: 'loop' });
      await env.waitReady(['loop-0', 'loop-1']);
      await eventually('the budget of two ready pods', async () => ((await env.pubStatus('loop'))?.unavailableAllowed === 1 ? true : undefined), 20_000, 50);
      expect((await evictPod(env.kube, env.ns, 'loop-0')).code).toBe(201);
      await eventually('the eviction in status', async () => ((await env.pubStatus('loop'))?.currentAvailable === 1 ? true : undefined), 10_000, 20);
    } finally {
      stop.abort();
      await loop;
    }
  });
});
