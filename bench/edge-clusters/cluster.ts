// One of the many clusters an edge serves: what its reconcilers would push (a few SidecarSets with
// their revisions, two PodUnavailableBudgets, a WorkloadSpread with its Deployment, some hundred
// pods, namespaces and the kruise-configuration ConfigMap), the churn between two pushes (pods
// replaced, as a rollout or a scale does), the PUB ledgers' resync the controller applies, and the
// admissions the API server would send: pod CREATEs and evictions. Objects carry the cluster's
// index in their uids and images, so no two clusters hold the same state.
import type { Lister, ListOptions } from '../../src/edge-state/contracts.js';
import type { PubResyncRequest } from '../../src/pub/index.js';
import { DEFAULT_KRUISE_NAMESPACE, KRUISE_CONFIGURATION } from '../../src/kube/kruise-configuration.js';
import { revisionData } from '../../src/sidecarset/controller/revisions.js';
import { defaultSidecarSet, withHashAnnotations } from '../../src/sidecarset/defaults.js';
import { SIDECARSET_NAME_LABEL, type SidecarSet } from '../../src/sidecarset/types.js';
import { controllerRevisionName, hashControllerRevision, revisionDataJson } from '../../src/workload/revisions.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION } from '../../src/workloadspread/types.js';
import { podAdmissionReview } from '../harness/pod-review.js';

export const NAMESPACE = 'shop';
const HASH = { web: '5d8f7c9b4', api: '7b6c5d4e3' } as const;
/** Each budget lets this many pods go per resync; every further eviction is refused. */
export const PUB_ALLOWANCE = 5;
/** Pods replaced per churning workload and push (a rolling update's step). */
export const CHURN = 3;

type Json = Record<string, unknown>;
type Meta = { name: string; namespace?: string; uid: string; resourceVersion: string } & Json;
type Obj = Json & { apiVersion: string; kind: string; metadata: Meta };

/** Pods per workload of one cluster (the rest of `pods` are unprotected, unspread pods). */
export type PodShape = { web: number; api: number; worker: number; other: number };
export function podShape(pods: number): PodShape {
  const web = Math.round(pods * 0.5);
  const api = Math.round(pods * 0.2);
  const worker = Math.round(pods * 0.15);
  return { web, api, worker, other: Math.max(0, pods - web - api - worker) };
}

export class EdgeCluster {
  readonly id: string;
  private version = 1;
  /** Next pod number per workload: churn replaces the oldest pods by new ones. */
  private readonly next: Record<keyof PodShape, number>;
  private readonly pods: Record<keyof PodShape, number[]>;
  private readonly fixed: Map<string, Obj[]>;

  private constructor(readonly index: number, fixed: Obj[], readonly shape: PodShape) {
    this.id = `edge-${String(index).padStart(3, '0')}`;
    this.fixed = new Map();
    for (const o of fixed) this.fixed.set(o.kind, [...(this.fixed.get(o.kind) ?? []), o]);
    const range = (n: number) => Array.from({ length: n }, (_, i) => i);
    this.pods = { web: range(shape.web), api: range(shape.api), worker: range(shape.worker), other: range(shape.other) };
    this.next = { web: shape.web, api: shape.api, worker: shape.worker, other: shape.other };
  }

  static async build(index: number, pods: number): Promise<EdgeCluster> {
    return new EdgeCluster(index, await fixedObjects(index), podShape(pods));
  }

  private uid = (name: string) => clusterUid(this.index, name);

  /**
   * Between two pushes: CHURN pods of each workload replaced by new ones, but for `api`, whose
   * pods the evictions name (a drain in progress: its pods stay until evicted).
   */
  churn(): void {
    this.version++;
    for (const w of ['web', 'worker', 'other'] as const) {
      const list = this.pods[w];
      if (list.length === 0) continue;
      list.splice(0, Math.min(CHURN, list.length));
      for (let i = 0; i < CHURN; i++) list.push(this.next[w]++);
    }
  }

  /**
   * Lists the cluster as the pushing reconciler would (kinds the bench has none of: empty), with
   * the options the collections use: a namespace, equality and existence label selectors, and
   * `metadata.name=` field selectors (the pods' phase selectors select every pod here).
   */
  readonly list: Lister = async (_apiVersion, kind, opts = {}) => {
    const all = kind === 'Pod' ? this.podObjects() : (this.fixed.get(kind) ?? []);
    return { resourceVersion: String(this.version), items: all.filter((o) => selected(o, opts)) };
  };

  private podObjects(): Obj[] {
    const pod = (name: string, labels: Record<string, string>, annotations: Record<string, string>, owner?: Json): Obj => ({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name, namespace: NAMESPACE, uid: this.uid(name), resourceVersion: String(this.version), labels, annotations, ...(owner ? { ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }] } : {}) },
      spec: { nodeName: `node-${name.length % 7}`, containers: [{ name: 'app', image: `registry.example.com/c${this.index}/${labels.app}:v1` }] },
      status: { phase: 'Running' },
    });
    const rs = (app: 'web' | 'api') => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-${HASH[app]}`, uid: this.uid(`${app}-${HASH[app]}`) });
    return [
      ...this.pods.web.map((n) => pod(`web-${HASH.web}-p${n}`, { app: 'web', tier: 'backend', 'pod-template-hash': HASH.web },
        { [MATCHED_WORKLOADSPREAD_ANNOTATION]: JSON.stringify({ Name: 'web', Subset: n % 2 ? 'zone-b' : 'zone-a' }) }, rs('web'))),
      ...this.pods.api.map((n) => pod(apiPod(n), { app: 'api', tier: 'backend', 'pod-template-hash': HASH.api }, { 'kruise.io/related-pub': 'api' }, rs('api'))),
      ...this.pods.worker.map((n) => pod(`worker-${n}`, { app: 'worker', 'controller-revision-hash': 'worker-6f5d' }, { 'kruise.io/related-pub': 'worker' },
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'worker', uid: this.uid('worker') })),
      ...this.pods.other.map((n) => pod(`misc-${n}`, { app: 'misc' }, {})),
    ];
  }

  /** The PUB controller's resync of both budgets: every pod it lists available, PUB_ALLOWANCE may go. */
  pubResyncs(): { pub: string; req: PubResyncRequest }[] {
    const pods = { api: this.pods.api.map(apiPod), worker: this.pods.worker.map((n) => `worker-${n}`) };
    return (['api', 'worker'] as const).map((pub) => ({
      pub,
      req: {
        pub, uid: this.uid(`pub-${pub}`), generation: 1, desiredAvailable: Math.max(0, pods[pub].length - PUB_ALLOWANCE), totalReplicas: pods[pub].length,
        protectOperations: ['UPDATE', 'DELETE', 'EVICT'], pods: Object.fromEntries(pods[pub].map((p) => [p, 'available' as const])), observedAt: Date.now(),
      },
    }));
  }

  /**
   * Pod CREATE reviews: `web` pods (the WorkloadSpread's, named as a StatefulSet-like recreate
   * would: the same names come back, so the spread's ledger stays bounded) and `api` pods
   * (generateName), both matched by the mesh and log SidecarSets; alternating.
   */
  podReviews(count: number): Review[] {
    return Array.from({ length: count }, (_, i) => {
      const app = i % 2 ? 'api' : 'web';
      const uid = `${this.uid('create')}-${String(i).padStart(8, '0')}`;
      const review = podAdmissionReview(uid, NAMESPACE) as { request: { object: { metadata: Json } } };
      review.request.object.metadata = {
        ...(app === 'web' ? { name: `web-${HASH.web}-r${(i >> 1) % 100}` } : { generateName: `api-${HASH.api}-` }),
        namespace: NAMESPACE, labels: { app, tier: 'backend', 'pod-template-hash': HASH[app] },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-${HASH[app]}`, uid: this.uid(`${app}-${HASH[app]}`), controller: true, blockOwnerDeletion: true }],
      };
      return { uid, kind: 'create' as const, body: JSON.stringify(review) };
    });
  }

  /** Eviction reviews (pods/eviction CREATE to validate-pod) cycling over the `api` PUB's first pods. */
  evictionReviews(count: number): Review[] {
    return Array.from({ length: count }, (_, i) => {
      const pod = apiPod(i % Math.max(1, this.shape.api));
      const uid = `${this.uid('evict')}-${String(i).padStart(8, '0')}`;
      const body = JSON.stringify({
        apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
        request: {
          uid, kind: { group: 'policy', version: 'v1beta1', kind: 'Eviction' }, resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'eviction',
          requestKind: { group: 'policy', version: 'v1beta1', kind: 'Eviction' }, requestResource: { group: '', version: 'v1', resource: 'pods' }, requestSubResource: 'eviction',
          name: pod, namespace: NAMESPACE, operation: 'CREATE', userInfo: { username: 'system:serviceaccount:kube-system:drain' }, dryRun: false,
          object: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: pod, namespace: NAMESPACE } },
          options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
        },
      });
      return { uid, kind: 'evict' as const, body };
    });
  }
}

/** Unique per cluster and object. */
const clusterUid = (cluster: number, name: string) => `c${String(cluster).padStart(3, '0')}-${name}`;

function selected(o: Obj, opts: ListOptions): boolean {
  if (opts.namespace !== undefined && o.metadata.namespace !== opts.namespace) return false;
  const labels = (o.metadata.labels ?? {}) as Record<string, string>;
  for (const term of opts.labelSelector?.split(',') ?? []) {
    const [key, value] = term.split('=');
    if (value === undefined ? !(key! in labels) : labels[key!] !== value) return false;
  }
  for (const term of opts.fieldSelector?.split(',') ?? []) {
    if (term.startsWith('metadata.name=') && o.metadata.name !== term.slice('metadata.name='.length)) return false;
  }
  return true;
}

export type Review = { uid: string; kind: 'create' | 'evict'; body: string };

/** Pods the API server has created for `api` (the PUB's), by number; churn retires the oldest. */
const apiPod = (n: number) => `api-${HASH.api}-p${n}`;

function sidecarSet(cluster: number, name: string, v: number, placement: Partial<SidecarSet['spec']>): SidecarSet {
  const role = name.split('-')[0]!;
  return defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name, uid: clusterUid(cluster, `ss-${name}`), resourceVersion: String(100 + v), generation: 1, labels: { 'platform.example.com/owner': `team-${v}` } },
    spec: {
      ...placement,
      containers: [{
        name: `${name}-c`, image: `registry.example.com/c${cluster}/${role}:1.${v}.0`, args: [`--config=/etc/${role}/config.yaml`],
        env: [{ name: 'CLUSTER_NAME', value: `cluster-${cluster}` }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
        volumeMounts: [{ name: `${name}-config`, mountPath: `/etc/${role}`, readOnly: true }],
      }],
      volumes: [{ name: `${name}-config`, configMap: { name: `${name}-config` } }],
      updateStrategy: { type: 'RollingUpdate', maxUnavailable: '10%' },
    },
  } as SidecarSet);
}

function revisionOf(set: SidecarSet): Obj {
  const data = revisionData(set);
  const name = set.metadata?.name ?? '';
  const hash = hashControllerRevision(revisionDataJson(data), 0);
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: { name: controllerRevisionName(name, hash), namespace: DEFAULT_KRUISE_NAMESPACE, uid: `${set.metadata?.uid}-rev`, resourceVersion: '1', labels: { [SIDECARSET_NAME_LABEL]: name, 'controller.kubernetes.io/hash': hash } },
    data, revision: 1,
  };
}

/** Everything but the pods: objects no push changes during the bench. */
async function fixedObjects(c: number): Promise<Obj[]> {
  const uid = (name: string) => clusterUid(c, name);
  const meta = (name: string, extra: Json = {}): Meta => ({ name, namespace: NAMESPACE, uid: uid(name), resourceVersion: '1', generation: 1, ...extra });
  const sets = await Promise.all([
    sidecarSet(c, 'mesh-proxy', 1, { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }),
    sidecarSet(c, 'log-agent', 2, { namespace: NAMESPACE, selector: { matchLabels: { tier: 'backend' } } }),
    sidecarSet(c, 'batch-metrics', 3, { selector: { matchLabels: { app: 'batch' } } }),
    sidecarSet(c, 'dns-cache', 4, { selector: { matchLabels: { app: 'web' } }, injectionStrategy: { paused: true } }),
  ].map(withHashAnnotations));
  const subset = (zone: string, maxReplicas?: number) => ({
    name: zone, requiredNodeSelectorTerm: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }] },
    ...(maxReplicas === undefined ? {} : { maxReplicas }),
  });
  const deployment = (app: 'web' | 'api') => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(app), spec: { replicas: 100, selector: { matchLabels: { app } } } });
  const replicaSet = (app: 'web' | 'api') => ({
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: meta(`${app}-${HASH[app]}`, { labels: { app, 'pod-template-hash': HASH[app] }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: uid(app), controller: true }] }),
    spec: { replicas: 100 },
  });
  const pub = (name: string) => ({
    apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: meta(name, { uid: uid(`pub-${name}`) }),
    spec: { selector: { matchLabels: { app: name } }, maxUnavailable: PUB_ALLOWANCE },
  });
  const namespaces = [NAMESPACE, 'kube-system', DEFAULT_KRUISE_NAMESPACE, ...Array.from({ length: 7 }, (_, i) => `team-${i}`)].map((name, i) => ({
    apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: uid(`ns-${name}`), resourceVersion: String(10 + i), labels: { 'kubernetes.io/metadata.name': name } }, status: { phase: 'Active' },
  }));
  return [
    ...(sets as unknown as Obj[]),
    ...sets.map(revisionOf),
    deployment('web'), deployment('api'), replicaSet('web'), replicaSet('api'),
    {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: meta('web'),
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [subset('zone-a', 100_000), subset('zone-b')] }, status: {},
    },
    pub('api'), pub('worker'),
    ...namespaces,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: KRUISE_CONFIGURATION, namespace: DEFAULT_KRUISE_NAMESPACE, uid: uid('kruise-configuration'), resourceVersion: '7' }, data: {} },
  ] as Obj[];
}
