// Zero pod restarts, proven: a cluster as OpenKruise 1.9 leaves it — its CRDs (v1beta1 stored
// where OpenKruise stores it), a CloneSet with and one without volumeClaimTemplates, an Advanced
// StatefulSet, an Advanced DaemonSet and a SidecarSet, with the ControllerRevisions and pod labels
// OpenKruise's own code computes (test/e2e/fixtures/takeover/*.json, written by Go running
// OpenKruise's code: scripts/openkruise-revision-vectors.ts), pods Ready through the fake kubelet —
// is taken over as the CLI does it. Two resync periods then pass with a pod watch open: no pod is
// modified or deleted. Then an image change rolls as OpenKruise would (in place for the CloneSets,
// the StatefulSet and the SidecarSet; by replacement for the DaemonSet's Standard strategy), under
// the revision names and hashes OpenKruise's code gives the changed spec.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { POD_STATUS_OBSERVER } from '../../src/admission/endpoints.js';
import { reconcile } from '../../src/cli/reconcile.js';
import { claimsFor, newPod } from '../../src/cloneset/controller/new-pod.js';
import { newDaemonPod } from '../../src/daemonset/controller/new-pod.js';
import type { StoredDaemonSet } from '../../src/daemonset/types.js';
import type { StoredCloneSet } from '../../src/cloneset/types.js';
import { renderClusterSide } from '../../src/install/render.js';
import { serverKeepsNameLabel } from '../../src/install/server-version.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { isNotFound } from '../../src/kube/errors.js';
import type { KubeObject, WatchEvent } from '../../src/kube/http.js';
import { FEATURE_GATE_DEFAULTS } from '../../src/reconcile/feature-gates.js';
import { reconcilers } from '../../src/reconcilers.js';
import { FEATURES, webhookEndpoints } from '../../src/registry.js';
import { injectSidecarSets } from '../../src/sidecarset/inject.js';
import type { SidecarSet } from '../../src/sidecarset/types.js';
import { newStatefulSetPod } from '../../src/statefulset/controller/new-pod.js';
import type { StoredStatefulSet } from '../../src/statefulset/types.js';
import { takeover } from '../../src/takeover/run.js';
import { LIFECYCLE_STATE_LABEL } from '../../src/workload/lifecycle.js';
import type { Pod as WorkloadPod } from '../../src/workload/pods.js';
import { templateOfRevision } from '../../src/workload/template-revision.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { isReady, startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { eventually } from './support/kube.js';
import { deleteProvisionedVolumes, startProvisioner } from './support/provisioner.js';
import { earlierFilesGone, undoTakeover } from './support/takeover-cluster.js';
import { caPem } from './support/tls.js';

const NAME = 'tkrev';
const CRD_API = 'apiextensions.k8s.io/v1';
const PLURALS = ['clonesets', 'statefulsets', 'daemonsets', 'sidecarsets'];
const CRD_NAMES = PLURALS.map((p) => `${p}.apps.kruise.io`);
// Less the `default: ""` of LocalObjectReference.name: kube-apiserver 1.20 reads it as null and refuses the CRD.
const openKruiseCrd = (plural: string) =>
  parse(readFileSync(join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'openkruise-v1.9.0', `apps.kruise.io_${plural}.yaml`), 'utf8').replace(/^\s*default: ""\n/gm, '')) as KubeObject;
const OUR_CRDS = readCrdManifests(join(REPO_ROOT, 'infra', 'crds')).filter((c) => CRD_NAMES.includes(c.metadata?.name ?? ''));
const KINDS = ['CloneSet', 'StatefulSet', 'DaemonSet', 'SidecarSet'] as const;

type Revision = { name: string; labels: Record<string, string>; annotations?: Record<string, string>; data: string };
type Vector = { input: { object: KubeObject & { metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; spec: Record<string, unknown> } }; revision?: Revision; podLabels?: Record<string, string>; annotations?: Record<string, string> };
const fixture = (name: string): [Vector, Vector] => (JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'takeover', `${name}.json`), 'utf8')) as { vectors: [Vector, Vector] }).vectors;
const WEB = fixture('cloneset');
const DB = fixture('cloneset-vct');
const STORE = fixture('statefulset');
const AGENT = fixture('daemonset');
const MESH = fixture('sidecarset');

let env: EdgeEnv;
let provisioner: ReturnType<typeof startProvisioner> | undefined;
const podEvents: WatchEvent[] = [];
const watchStop = new AbortController();
const uids = new Map<string, string>();

const inNs = <T extends Vector['input']['object']>(o: T): T => (o.kind === 'SidecarSet' ? o : { ...o, metadata: { ...o.metadata, namespace: env.ns } });
const get = <T extends KubeObject>(o: KubeObject) => env.kube.get<T>(o.apiVersion!, o.kind!, o.metadata!.name!, o.metadata?.namespace);
const now = new Date();

/** A pod as OpenKruise leaves it once it runs: lifecycle Normal, its readiness gates' conditions True. */
async function createSteadyPod(pod: WorkloadPod): Promise<void> {
  const labels = pod.metadata.labels?.[LIFECYCLE_STATE_LABEL] ? { ...pod.metadata.labels, [LIFECYCLE_STATE_LABEL]: 'Normal' } : pod.metadata.labels;
  const created = (await env.kube.create({ ...(pod as unknown as KubeObject), metadata: { ...(pod.metadata as KubeObject['metadata']), labels } } as KubeObject)) as unknown as Pod;
  uids.set(created.metadata.name, created.metadata.uid!);
  const gates = ((pod.spec as { readinessGates?: { conditionType: string }[] }).readinessGates ?? []).map((g) => g.conditionType);
  if (gates.length) {
    await env.kube.patch(created, { status: { conditions: gates.map((type) => ({ type, status: 'True', lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z') })) } }, 'strategic', 'status');
  }
}

/** The workload and its revision as OpenKruise stored them, its status as OpenKruise wrote it. */
type Created = KubeObject & { metadata: { uid: string; name: string; namespace: string } };
async function createWorkload(v: Vector, status: Record<string, unknown>): Promise<Created> {
  const obj = (await env.kube.create(inNs(v.input.object))) as unknown as Created;
  await env.kube.patch(obj, { status }, 'merge', 'status');
  const rev = v.revision!;
  await env.kube.create({
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: { name: rev.name, namespace: env.ns, labels: rev.labels, ...(rev.annotations ? { annotations: rev.annotations } : {}), ownerReferences: [{ apiVersion: obj.apiVersion!, kind: obj.kind!, name: obj.metadata.name, uid: obj.metadata.uid, controller: true, blockOwnerDeletion: true }] },
    data: JSON.parse(rev.data) as unknown, revision: 1,
  } as KubeObject);
  return obj;
}

const revisionTemplate = (v: Vector) => templateOfRevision({ data: JSON.parse(v.revision!.data) } as never)!;

async function resyncOnce(): Promise<void> {
  for (const kind of KINDS) {
    const failures: string[] = [];
    const code = await reconcile(env.kube, {
      once: true, dryRun: false, kind, resyncSeconds: 0, watch: false, identity: `${NAME}-${Math.random().toString(36).slice(2, 8)}`,
      edge: { url: env.worker.url, clusterId: env.clusterId, syncToken: env.edge.syncToken, caFile: inject('caCert') },
      log: () => undefined, out: (m) => failures.push(m),
    });
    expect(code, failures.join('\n')).toBe(0);
  }
}

/** A pod event our controllers caused: a deletion, or a change outside status (the fake kubelet writes status only). */
function writesByUs(events: readonly WatchEvent[]): string[] {
  const last = new Map<string, KubeObject>();
  const out: string[] = [];
  for (const e of events) {
    const o = e.object as KubeObject & { spec?: unknown; metadata: { name: string; labels?: unknown; annotations?: unknown; finalizers?: unknown; ownerReferences?: unknown } };
    const before = last.get(o.metadata.name) as typeof o | undefined;
    last.set(o.metadata.name, o);
    if (e.type === 'DELETED') out.push(`DELETED ${o.metadata.name}`);
    if (e.type !== 'MODIFIED' || !before) continue;
    const shape = (p: typeof o) => JSON.stringify([p.metadata.labels, p.metadata.annotations, p.metadata.finalizers, p.metadata.ownerReferences, p.spec]);
    if (shape(before) !== shape(o)) out.push(`MODIFIED ${o.metadata.name}: ${shape(before)} -> ${shape(o)}`);
  }
  return out;
}

async function clusterSide(): Promise<KubeObject[]> {
  const features = FEATURES.filter((f) => ['cloneset', 'statefulset', 'daemonset', 'sidecarset'].includes(f.name));
  const endpoints = webhookEndpoints(features);
  const scoped = { namespaceSelector: { matchLabels: { [`e2e.kruise-serverless.io/${NAME}`]: 'yes' } } };
  const overrides = Object.fromEntries(endpoints.filter((e) => e.path.endsWith('-pod') || e.path === POD_STATUS_OBSERVER).map((e) => [e.path, scoped]));
  return renderClusterSide({
    baseUrl: env.worker.url, clusterId: env.clusterId, secret: env.webhookSecret, caBundle: caPem(), endpoints, overrides,
    crds: readCrdManifests(join(REPO_ROOT, 'infra', 'crds')), nameLabelKept: await serverKeepsNameLabel(env.kube),
  });
}

async function replaceCrd(crd: KubeObject): Promise<void> {
  await env.kube.delete({ apiVersion: CRD_API, kind: 'CustomResourceDefinition', metadata: { name: crd.metadata!.name } }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  await eventually(`CRD ${crd.metadata!.name} deleted`, async () => env.kube.get(CRD_API, 'CustomResourceDefinition', crd.metadata!.name!).then(() => undefined, (e: unknown) => (isNotFound(e) ? true : undefined)), 60_000, 200);
  await env.kube.create(crd);
  await eventually(`${crd.metadata!.name} established`, async () => {
    const live = await env.kube.get<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>(CRD_API, 'CustomResourceDefinition', crd.metadata!.name!);
    return live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
  }, 60_000, 200);
}

beforeAll(async () => {
  env = await startEdgeEnv(NAME, []);
  await earlierFilesGone(env.kube);
  provisioner = startProvisioner(env.kube, env.ns);
  for (const plural of PLURALS) await replaceCrd(openKruiseCrd(plural));

  // The workloads, as OpenKruise left them.
  const steady = (rev: string, replicas: number) => ({ observedGeneration: 1, replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas, updatedReadyReplicas: replicas, currentRevision: rev, updateRevision: rev, collisionCount: 0 });
  for (const v of [WEB, DB]) {
    const cs = (await createWorkload(v[0], { ...steady(v[0].revision!.name, 2), expectedUpdatedReplicas: 2, labelSelector: `app=${v[0].input.object.metadata.name}` })) as unknown as StoredCloneSet;
    for (const id of ['x7k2p', 'q9m4t']) {
      for (const pvc of claimsFor(cs, id)) await env.kube.create(pvc as unknown as KubeObject);
      await createSteadyPod(newPod(cs, id, { label: v[0].revision!.name, hash: v[0].podLabels!['pod-template-hash']!, template: revisionTemplate(v[0]) }, now));
    }
  }
  const set = (await createWorkload(STORE[0], { ...steady(STORE[0].revision!.name, 2), currentReplicas: 2, labelSelector: 'app=store' })) as unknown as StoredStatefulSet;
  for (const ordinal of [0, 1]) {
    await createSteadyPod(newStatefulSetPod(set, ordinal, { revision: STORE[0].revision!.name, template: revisionTemplate(STORE[0]), state: 'Normal', podIndexLabel: FEATURE_GATE_DEFAULTS.PodIndexLabel, now }));
  }
  const hash = AGENT[0].podLabels!['controller-revision-hash']!;
  // No collisionCount: OpenKruise leaves it unset until a hash collides (and ComputeHash hashes a set 0).
  const ds = (await createWorkload(AGENT[0], { observedGeneration: 1, currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, numberAvailable: 2, updatedNumberScheduled: 2, daemonSetHash: hash })) as unknown as StoredDaemonSet;
  for (const node of [`${NAME}-node-a`, `${NAME}-node-b`]) await createSteadyPod(newDaemonPod(ds, node, hash, `agent-${node.slice(-1)}0k3z`));

  const mesh = await env.kube.create<SidecarSet & KubeObject>({ ...MESH[0].input.object, metadata: { ...MESH[0].input.object.metadata, annotations: MESH[0].annotations } });
  for (const name of ['meshed-0', 'meshed-1']) {
    const plain = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: env.ns, labels: { mesh: 'on' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }], terminationGracePeriodSeconds: 5 } };
    const injected = injectSidecarSets(plain, [mesh], now, env.ns);
    if (!('pod' in injected)) throw new Error(String(injected.error));
    await createSteadyPod(injected.pod as unknown as WorkloadPod);
  }
  await env.waitReady([...uids.keys()]).catch(async (e: unknown) => {
    const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items.filter((p) => !isReady(p));
    throw new Error(`${String(e)}: ${pods.map((p) => `${p.metadata.name} ${p.spec?.nodeName ?? 'unscheduled'} ${JSON.stringify(p.status?.conditions)}`).join('\n')}`);
  });
}, 240_000);

afterAll(async () => {
  watchStop.abort();
  await provisioner?.stop();
  if (env) await deleteProvisionedVolumes(env.kube).catch(() => undefined);
  // Later files get our CRDs as global setup installed them, and no handback record.
  for (const crd of OUR_CRDS) await replaceCrd(crd).catch(() => undefined);
  if (env) await undoTakeover(env.kube);
  await env?.dispose();
}, 240_000);

describe('takeover of revisions OpenKruise 1.9 computed', () => {
  it('the cluster holds what OpenKruise leaves: v1beta1 stored, the Go-computed revision names on pods', async () => {
    for (const name of CRD_NAMES.filter((n) => !n.startsWith('clonesets'))) {
      expect((await env.kube.get<KubeObject & { status?: { storedVersions?: string[] } }>(CRD_API, 'CustomResourceDefinition', name)).status?.storedVersions).toEqual(['v1beta1']);
    }
    const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items;
    const labelled = (prefix: string) => pods.filter((p) => p.metadata.name.startsWith(prefix)).map((p) => p.metadata.labels);
    for (const [prefix, v] of [['web-', WEB], ['db-', DB], ['store-', STORE], ['agent-', AGENT]] as const) {
      const got = labelled(prefix);
      expect(got.length, prefix).toBe(2);
      for (const labels of got) expect(labels).toMatchObject(v[0].podLabels!);
    }
    expect(pods.every(isReady)).toBe(true);
  });

  it('takeover plans no pod write, and two resync periods modify or delete no pod', async () => {
    const { resourceVersion } = await env.kube.list('v1', 'Pod', { namespace: env.ns });
    const watching = env.kube.watch('v1', 'Pod', { namespace: env.ns, resourceVersion, timeoutSeconds: 600, signal: watchStop.signal }, (e) => {
      if (e.type !== 'BOOKMARK') podEvents.push(e);
    }).catch(() => undefined);

    const lines: string[] = [];
    await takeover(env.kube, { dryRun: false, force: false, clusterSide: await clusterSide(), reconcilers: reconcilers(), out: (l) => lines.push(l) });
    expect(lines.join('\n')).toContain('no pod write, no pod delete');

    await resyncOnce();
    await resyncOnce();
    // The watch has delivered everything up to a write made now.
    const marker = await env.kube.create<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'marker', namespace: env.ns } });
    await eventually('the pod watch caught up', async () => {
      const rv = Number(marker.metadata!.resourceVersion);
      const pods = (await env.kube.list('v1', 'Pod', { namespace: env.ns })).resourceVersion;
      return Number(pods) >= rv ? true : undefined;
    });
    expect(writesByUs(podEvents)).toEqual([]);
    const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items;
    for (const p of pods) expect(uids.get(p.metadata.name), p.metadata.name).toBe(p.metadata.uid);
    void watching;
  });

  it('an image change rolls as OpenKruise would, under the revision names OpenKruise computes for the changed spec', async () => {
    for (const v of [WEB, DB, STORE, AGENT]) {
      const o = inNs(v[1].input.object);
      await env.kube.patch(o, { spec: { template: o.spec.template } }, 'merge');
    }
    await env.kube.patch(MESH[1].input.object, { spec: { containers: MESH[1].input.object.spec.containers } }, 'merge');

    // CloneSet and Advanced StatefulSet update in place: same pods, the new revision label.
    for (const [prefix, v] of [['web-', WEB], ['db-', DB], ['store-', STORE]] as const) {
      await eventually(`${prefix} pods at ${v[1].revision!.name}`, async () => {
        await resyncOnce();
        const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items.filter((p) => p.metadata.name.startsWith(prefix));
        return pods.length === 2 && pods.every((p) => p.metadata.labels?.['controller-revision-hash'] === v[1].revision!.name && isReady(p)) ? pods : undefined;
      }, 120_000, 500).then((pods) => {
        for (const p of pods) expect(p.metadata.uid, `${p.metadata.name} updated in place`).toBe(uids.get(p.metadata.name));
        for (const p of pods) expect(p.metadata.labels).toMatchObject(v[1].podLabels!);
      });
      expect(await env.kube.get('apps/v1', 'ControllerRevision', v[1].revision!.name, env.ns)).toBeTruthy();
    }

    // Advanced DaemonSet (rollingUpdateType Standard): pods replaced, under OpenKruise's hash for the new template.
    const newHash = AGENT[1].podLabels!['controller-revision-hash']!;
    await eventually(`agent pods at ${newHash}`, async () => {
      await resyncOnce();
      const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items.filter((p) => p.metadata.name.startsWith('agent-') && !p.metadata.deletionTimestamp);
      return pods.length === 2 && pods.every((p) => p.metadata.labels?.['controller-revision-hash'] === newHash && isReady(p)) ? true : undefined;
    }, 60_000, 500).catch(async (e: unknown) => {
      const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items.filter((p) => p.metadata.name.startsWith('agent-'));
      const ds = await env.kube.get('apps.kruise.io/v1beta1', 'DaemonSet', 'agent', env.ns);
      throw new Error(`${String(e)}\n${pods.map((p) => `${p.metadata.name} ${p.spec?.nodeName ?? '-'} ${p.metadata.labels?.['controller-revision-hash']} del=${p.metadata.deletionTimestamp ?? ''} ready=${isReady(p)}`).join('\n')}\n${JSON.stringify((ds as { status?: unknown }).status)}`);
    });
    expect(await env.kube.get('apps/v1', 'ControllerRevision', AGENT[1].revision!.name, env.ns)).toBeTruthy();

    // SidecarSet: its hashes are OpenKruise's for the new spec, and the sidecar is updated in place.
    const mesh = await get<KubeObject & { metadata: { annotations?: Record<string, string> } }>(MESH[1].input.object);
    expect(mesh.metadata.annotations).toMatchObject(MESH[1].annotations!);
    await eventually('meshed pods run busybox:1.37 in place', async () => {
      await resyncOnce();
      const pods = (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns })).items.filter((p) => p.metadata.name.startsWith('meshed-'));
      return pods.every((p) => p.spec?.containers.find((c) => c.name === 'proxy')?.image === 'busybox:1.37') ? pods : undefined;
    }, 120_000, 500).then((pods) => {
      for (const p of pods) expect(p.metadata.uid).toBe(uids.get(p.metadata.name));
    });
    // The watch that saw nothing in the resync periods sees these updates.
    expect(writesByUs(podEvents).length).toBeGreaterThan(0);
  });
});
