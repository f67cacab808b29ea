// The workloadspread scenario's cluster: per hot WorkloadSpread a Deployment, its ReplicaSet and
// the WorkloadSpread itself (subsets zone-a and zone-b with room for every admission a round can
// send, so each decision spends room and writes the ledger, then zone-c unlimited), plus one
// 10 / 30 / rest WorkloadSpread to check a concurrent burst is split exactly. Pod reviews are the
// runtime scenario's 10 KB pod, unnamed and owned by the ReplicaSet, as the ReplicaSet controller
// sends them.
import type { Lister } from '../../../src/edge-state/contracts.js';
import { podAdmissionReview } from '../../harness/pod-review.js';

export const WS_NAMESPACE = 'shop';
const HASH = '5d8f7c9b4';

type Obj = Record<string, unknown> & { metadata: { name: string; namespace: string; uid: string } };
export type SpreadCluster = { objects: Map<string, Obj[]>; list: Lister };

const subset = (zone: string, maxReplicas?: number) => ({
  name: zone,
  requiredNodeSelectorTerm: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }] },
  ...(maxReplicas === undefined ? {} : { maxReplicas }),
});

function workload(name: string, limits: (number | undefined)[]): Obj[] {
  const meta = (n: string, extra: Record<string, unknown> = {}) => ({ name: n, namespace: WS_NAMESPACE, uid: `${n}-uid`, ...extra });
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(name, { generation: 1 }), spec: { replicas: 1000, selector: { matchLabels: { app: name } } } };
  const rs = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: meta(`${name}-${HASH}`, { labels: { app: name, 'pod-template-hash': HASH }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: `${name}-uid`, controller: true }] }),
    spec: { replicas: 1000 },
  };
  const ws = {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: meta(name, { generation: 1 }),
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, subsets: limits.map((l, i) => subset(`zone-${'abc'[i]}`, l)) },
    status: {},
  };
  return [deployment, rs, ws] as Obj[];
}

/** `hot` WorkloadSpreads that never fill within `room` admissions, and "exact" (10 / 30 / rest). */
export function buildSpreadCluster(hot: string[], room: number): SpreadCluster {
  const all = [...hot.flatMap((n) => workload(n, [room, room, undefined])), ...workload('exact', [10, 30, undefined])];
  const objects = new Map<string, Obj[]>();
  for (const o of all) {
    const key = `${o.apiVersion as string}/${o.kind as string}`;
    objects.set(key, [...(objects.get(key) ?? []), o]);
  }
  const list: Lister = async (apiVersion, kind) => ({ items: objects.get(`${apiVersion}/${kind}`) ?? [], resourceVersion: '1' });
  return { objects, list };
}

/** `count` pod CREATE reviews for pods of the WorkloadSpread `name`'s Deployment, differing in uid. */
export function spreadPodReviews(name: string, count: number): { uids: string[]; bodies: string[] } {
  const uids = Array.from({ length: count }, (_, i) => `3e5b7d21-${name.padEnd(8, '0').slice(0, 8)}-${String(i).padStart(12, '0')}`);
  const bodies = uids.map((uid) => {
    const review = podAdmissionReview(uid, WS_NAMESPACE) as { request: { object: { metadata: Record<string, unknown> } } };
    review.request.object.metadata = {
      generateName: `${name}-${HASH}-`, namespace: WS_NAMESPACE, labels: { app: name, 'pod-template-hash': HASH },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-${HASH}`, uid: `${name}-${HASH}-uid`, controller: true, blockOwnerDeletion: true }],
    };
    return JSON.stringify(review);
  });
  return { uids, bodies };
}

/** The subset a mutate-pod answer placed the pod in (from the JSON Patch's annotation), or ''. */
export function placedSubset(answerText: string): string {
  const answer = JSON.parse(answerText) as { response?: { patch?: string } };
  const patch = Buffer.from(answer.response?.patch ?? '', 'base64').toString('utf8');
  return /subset\\":\\"([^\\"]+)/.exec(patch)?.[1] ?? '';
}
