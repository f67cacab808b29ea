// The cluster the sidecarset scenario injects from: 1,000 defaulted SidecarSets (with their
// ControllerRevisions), 200 namespaces and the kruise-configuration ConfigMap, shaped so that the
// bench pod (bench/harness/pod-review.ts, namespace "payments") is matched by exactly 1, 10 or 100 sets
// depending on one label. The other 900 are bound to other namespaces (never candidates), bound
// to "payments" with other selectors, or cluster-wide with selectors, namespace selectors or a
// paused strategy that reject the pod, so the index and the matcher both do real work.
import type { Lister } from '../../../src/edge-state/live-state.js';
import { controllerRevisionName, hashControllerRevision, revisionDataJson } from '../../../src/workload/revisions.js';
import { revisionData } from '../../../src/sidecarset/controller/revisions.js';
import { defaultSidecarSet, withHashAnnotations } from '../../../src/sidecarset/defaults.js';
import { DEFAULT_KRUISE_NAMESPACE, KRUISE_CONFIGURATION } from '../../../src/kube/kruise-configuration.js';
import { PATCH_POD_METADATA_WHITELIST_KEY, SIDECARSET_NAME_LABEL, type SidecarContainer, type SidecarSet } from '../../../src/sidecarset/types.js';
import { ENV_IS_INJECTED, INJECTED_LIST_ANNOTATION } from '../../../src/workload/sidecar-update-state.js';
import { BENCH_NAMESPACE, podAdmissionReview } from '../../harness/pod-review.js';

export const SET_COUNT = 1_000;
export const MATCH_COUNTS = [1, 10, 100] as const;
export type MatchCount = (typeof MATCH_COUNTS)[number];
const POOL = 100;
const NAMESPACE_COUNT = 200;
/** The pod label that decides how many sets of the pool match: m1, m10 or m100. */
const MATCH_LABEL = 'bench.kruise.io/sidecars';
const tiersFrom = (j: number) => MATCH_COUNTS.filter((k) => j < k).map((k) => `m${k}`);

type Json = Record<string, unknown>;
type Spec = SidecarSet['spec'];
const ROLES = ['proxy', 'log-agent', 'metrics', 'vault-agent', 'dns-cache'] as const;

function sidecar(set: string, role: string, v: number, opts: { share: boolean; transfer: boolean; after: boolean }): SidecarContainer {
  return {
    name: `${set}-${role}`,
    image: `registry.example.com/platform/${role}:1.${v % 20}.${v % 7}`,
    args: [`--config=/etc/${role}/config.yaml`, '--log-format=json'],
    ports: [{ name: 'metrics', containerPort: 9100 + (v % 50) }],
    env: [
      { name: 'LOG_LEVEL', value: v % 3 ? 'info' : 'warn' },
      { name: 'CLUSTER_NAME', value: 'prod-eu-west-1' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    ],
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
    readinessProbe: { httpGet: { path: '/ready', port: 9100 + (v % 50) }, initialDelaySeconds: 2 },
    volumeMounts: [
      { name: `${set}-config`, mountPath: `/etc/${role}`, readOnly: true },
      { name: 'sidecar-ca', mountPath: '/etc/ssl/sidecar', readOnly: true },
    ],
    securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, runAsUser: 1337, capabilities: { drop: ['ALL'] } },
    ...(opts.after ? { podInjectPolicy: 'AfterAppContainer' } : {}),
    ...(opts.share ? { shareVolumePolicy: { type: 'enabled' } } : {}),
    ...(opts.transfer ? { transferEnv: [{ sourceContainerName: 'checkout-api', envNames: ['OTEL_SERVICE_NAME', 'APP_ENV'] }] } : {}),
  } as SidecarContainer;
}

/** An init sidecar: no probes, which the API server refuses on init containers (the apiserver scenario creates these pods). */
function initSidecar(set: string, v: number): SidecarContainer {
  const { readinessProbe: _probe, ...container } = sidecar(set, 'init', v, { share: false, transfer: false, after: false });
  return { ...container, args: ['--prepare'] } as SidecarContainer;
}

/** A set with 1–3 containers, sometimes an init container, its volumes and options varied by `v`. */
function sidecarSet(name: string, v: number, placement: Partial<Spec>): SidecarSet {
  const containers = Array.from({ length: 1 + (v % 3) }, (_, i) =>
    sidecar(name, ROLES[(v + i) % ROLES.length]!, v, { share: v % 4 === 1 && i === 0, transfer: v % 3 === 0 && i === 0, after: v % 5 === 4 }),
  );
  const spec = {
    ...placement,
    containers,
    ...(v % 5 === 0 ? { initContainers: [initSidecar(name, v)] } : {}),
    volumes: [
      { name: `${name}-config`, configMap: { name: `${name}-config` } },
      { name: 'sidecar-ca', secret: { secretName: 'sidecar-ca-bundle' } },
      ...(v % 2 ? [{ name: `${name}-buffer`, emptyDir: { sizeLimit: '128Mi' } }] : []),
    ],
    ...(v % 7 === 0 ? { patchPodMetadata: [{ annotations: { [`sidecar.example.com/${name}`]: 'injected' } }] } : {}),
    updateStrategy: { type: 'RollingUpdate', maxUnavailable: '10%' },
  } as Spec;
  return defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name, uid: `5ce0${String(v).padStart(4, '0')}-0000-4000-8000-000000000000`, resourceVersion: String(20_000 + v), generation: 1, labels: { 'platform.example.com/owner': `team-${v % 17}` } },
    spec,
  } as SidecarSet);
}

const matchSelector = (j: number): Spec['selector'] => ({
  matchLabels: { 'app.kubernetes.io/part-of': 'payments' },
  matchExpressions: [{ key: MATCH_LABEL, operator: 'In', values: tiersFrom(j) }],
});

/** Pool set j matches the pod for every count above j; placed four ways so each index path is used. */
function poolSet(j: number): SidecarSet {
  const placements: Partial<Spec>[] = [
    {}, // cluster-wide
    { namespace: BENCH_NAMESPACE },
    { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': BENCH_NAMESPACE } } },
    { namespaceSelector: { matchLabels: { team: 'payments-core' } } }, // cluster-wide in the index, namespace labels decide
  ];
  return sidecarSet(`pool-${j}`, j, { ...placements[j % 4], selector: matchSelector(j) });
}

/** Set i of the 900 others: never matches the bench pod. */
function otherSet(i: number): SidecarSet {
  const v = POOL + i;
  const name = `other-${i}`;
  const appSelector = { matchLabels: { app: `svc-${i}` } };
  if (i < 600) {
    // Bound to another namespace; half of them would otherwise match the pod's labels.
    const ns = `ns-${i % (NAMESPACE_COUNT - 1)}`;
    const selector = i % 2 ? matchSelector(0) : appSelector;
    return sidecarSet(name, v, i % 3 ? { namespace: ns, selector } : { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [ns] }] }, selector });
  }
  if (i < 700) return sidecarSet(name, v, { namespace: BENCH_NAMESPACE, selector: { matchLabels: { app: `batch-${i}`, tier: 'backend' } } });
  if (i < 780) return sidecarSet(name, v, { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [`svc-${i}`, `svc-${i + 1}`] }, { key: 'tier', operator: 'Exists' }] } });
  if (i < 840) return sidecarSet(name, v, { selector: { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['payments-core'] }] } });
  if (i < 880) return sidecarSet(name, v, { namespaceSelector: { matchLabels: { team: `team-${i % 17}` } }, selector: matchSelector(0) });
  return sidecarSet(name, v, { selector: matchSelector(0), injectionStrategy: { paused: true } });
}

/** A ControllerRevision of the set as it is now (as the controller stores it). */
function revisionOf(set: SidecarSet, revision: number): Json {
  const data = revisionData(set);
  const name = set.metadata?.name ?? '';
  const hash = hashControllerRevision(revisionDataJson(data), 0);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(name, hash),
      namespace: DEFAULT_KRUISE_NAMESPACE,
      resourceVersion: `${set.metadata?.resourceVersion ?? '0'}${revision}`,
      creationTimestamp: `2025-0${revision}-01T00:00:00Z`,
      labels: { ...set.metadata?.labels, [SIDECARSET_NAME_LABEL]: name, 'controller.kubernetes.io/hash': hash },
      annotations: { ...set.metadata?.annotations },
    },
    data,
    revision,
  };
}

/** Every 10th pool set pins its injection to an older revision (an older image). */
async function pinned(set: SidecarSet): Promise<{ set: SidecarSet; old: Json }> {
  const older = structuredClone(set);
  for (const c of older.spec.containers ?? []) c.image = c.image?.replace(/:1\./, ':0.');
  const old = revisionOf(await withHashAnnotations(older), 1);
  const revisionName = (old.metadata as { name: string }).name;
  return { set: { ...set, spec: { ...set.spec, injectionStrategy: { revision: { revisionName, policy: 'Always' } } } }, old };
}

function namespace(name: string, i: number): Json {
  const team = name === BENCH_NAMESPACE ? 'payments-core' : `team-${i % 17}`;
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i), labels: { 'kubernetes.io/metadata.name': name, team, env: i % 3 ? 'prod' : 'staging' } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

export type BenchCluster = {
  sets: SidecarSet[];
  revisions: Json[];
  namespaces: Json[];
  configMaps: Json[];
  /** Per match count: how many containers (init and regular) the pod should gain. */
  injectedContainers: Record<MatchCount, number>;
  /** Answers the LISTs pushCollection makes, from the objects above. */
  list: Lister;
};

export async function buildBenchCluster(): Promise<BenchCluster> {
  const sets: SidecarSet[] = [];
  const revisions: Json[] = [];
  for (let n = 0; n < SET_COUNT; n++) {
    let set = await withHashAnnotations(n < POOL ? poolSet(n) : otherSet(n - POOL));
    if (n < POOL && n % 10 === 5) {
      const pin = await pinned(set);
      set = pin.set;
      revisions.push(pin.old);
    }
    sets.push(set);
    revisions.push(revisionOf(set, 2));
  }
  const injected = (k: number) => sets.slice(0, k).reduce((n, s) => n + (s.spec.containers?.length ?? 0) + (s.spec.initContainers?.length ?? 0), 0);
  const namespaces = [BENCH_NAMESPACE, ...Array.from({ length: NAMESPACE_COUNT - 1 }, (_, i) => `ns-${i}`)].map(namespace);
  const whitelist = { rules: [{ allowedAnnotationKeyExprs: ['sidecar\\.example\\.com/.*'] }] };
  const configMaps = [{
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: KRUISE_CONFIGURATION, namespace: DEFAULT_KRUISE_NAMESPACE, resourceVersion: '777' },
    data: { [PATCH_POD_METADATA_WHITELIST_KEY]: JSON.stringify(whitelist) },
  }];
  const byKind: Record<string, Json[]> = { SidecarSet: sets as unknown as Json[], ControllerRevision: revisions, Namespace: namespaces, ConfigMap: configMaps };
  return {
    sets,
    revisions,
    namespaces,
    configMaps,
    injectedContainers: { 1: injected(1), 10: injected(10), 100: injected(100) },
    list: async (_apiVersion, kind) => ({ items: byKind[kind] ?? [], resourceVersion: '90000' }),
  };
}

/** `count` pod CREATE reviews labelled to be matched by `k` sets; they differ only in uid. */
export function matchedPodReviews(k: MatchCount, count: number): { uids: string[]; bodies: string[] } {
  const uids = Array.from({ length: count }, (_, i) => `7c1f0b9e-ss${String(k).padStart(3, '0')}-4a6d-9e2f-${String(i).padStart(12, '0')}`);
  const bodies = uids.map((uid) => {
    const review = podAdmissionReview(uid) as { request: { object: { metadata: { labels: Record<string, string> } } } };
    review.request.object.metadata.labels[MATCH_LABEL] = `m${k}`;
    return JSON.stringify(review);
  });
  return { uids, bodies };
}

type PodLike = { metadata?: { annotations?: Record<string, string> }; spec?: { containers?: { env?: { name: string; value?: string }[] }[]; initContainers?: { env?: { name: string; value?: string }[] }[] } };

/** Why an injected pod is not what `k` matching sets should make of the bench pod; undefined if it is. */
export function injectionProblem(pod: PodLike, k: MatchCount, cluster: BenchCluster): string | undefined {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const injected = all.filter((c) => c.env?.some((e) => e.name === ENV_IS_INJECTED && e.value === 'true')).length;
  const listed = (pod.metadata?.annotations?.[INJECTED_LIST_ANNOTATION] ?? '').split(',').filter(Boolean).length;
  if (injected !== cluster.injectedContainers[k]) return `${injected} injected containers, expected ${cluster.injectedContainers[k]}`;
  if (listed !== k) return `${INJECTED_LIST_ANNOTATION} names ${listed} sets, expected ${k}`;
  return undefined;
}
