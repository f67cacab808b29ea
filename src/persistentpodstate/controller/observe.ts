// What the PersistentPodState controller reads: the PersistentPodStates and StatefulSets (apps/v1
// and Advanced, v1beta1) in scope, and for each PersistentPodState its workload's pods (a LIST by
// the workload's selector, kept if the workload controls them) and every Node (their labels).
// A scoped run names objects by name: a PersistentPodState, or a workload (its own PersistentPodState,
// auto-generated or not, is then in scope). Fresh LISTs every run.
import type { KubeObject } from '../../kube/http.js';
import { formatLabelSelector, type LabelSelector } from '../../kube/selectors.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { PPS_API_VERSION, PPS_KIND, groupOf, sameTarget, type StoredPersistentPodState } from '../types.js';
import type { StatefulSetLike } from './generate.js';

export const WORKLOAD_KINDS = [
  { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
] as const;

export type PersistentPodStateObserved = {
  states: StoredPersistentPodState[];
  workloads: StatefulSetLike[];
  /** The pods of each state's workload, by the state's namespace/name. */
  podsByState: Map<string, Pod[]>;
  nodes: Map<string, Node>;
};

export const stateKey = (p: { metadata: { namespace: string; name: string } }) => `${p.metadata.namespace}/${p.metadata.name}`;

const named = (scope: Scope, namespace: string, ...names: (string | undefined)[]) =>
  scope.kind === 'all' || scope.objects.some((o) => (o.namespace ?? '') === namespace && names.includes(o.name));

export function targetOf(pps: StoredPersistentPodState, workloads: readonly StatefulSetLike[]): StatefulSetLike | undefined {
  return workloads.find((w) => w.metadata.namespace === pps.metadata.namespace && sameTarget({ apiVersion: w.apiVersion, kind: w.kind, name: w.metadata.name }, pps.spec?.targetRef));
}

export async function observePersistentPodStates(kube: KubeReader, scope: Scope): Promise<PersistentPodStateObserved> {
  const [ppsList, ...stsLists] = await Promise.all([
    kube.list<KubeObject>(PPS_API_VERSION, PPS_KIND),
    ...WORKLOAD_KINDS.map((k) => kube.list<KubeObject>(k.apiVersion, k.kind).then((l) => l.items.map((i) => ({ ...i, apiVersion: k.apiVersion, kind: k.kind })))),
  ]);
  const allWorkloads = stsLists.flat() as unknown as StatefulSetLike[];
  const states = (ppsList.items as unknown as StoredPersistentPodState[]).filter((p) => !p.metadata.deletionTimestamp && named(scope, p.metadata.namespace, p.metadata.name, p.spec?.targetRef?.name));
  const workloads = allWorkloads.filter((w) => named(scope, w.metadata.namespace, w.metadata.name));
  const targets = states.map((p) => [p, targetOf(p, allWorkloads)] as const);
  for (const [, w] of targets) if (w && !workloads.includes(w)) workloads.push(w);
  const withPods = targets.filter(([, w]) => w && !w.metadata.deletionTimestamp);
  const [nodeList, ...podLists] = await Promise.all([
    withPods.length ? kube.list<KubeObject>('v1', 'Node') : Promise.resolve({ items: [] as KubeObject[], resourceVersion: '' }),
    ...withPods.map(([p, w]) => {
      const text = formatLabelSelector(w!.spec?.selector as LabelSelector | undefined);
      return kube.list<KubeObject>('v1', 'Pod', { namespace: p.metadata.namespace, ...(text === '<none>' || text === '' ? {} : { labelSelector: text }) });
    }),
  ]);
  const podsByState = new Map<string, Pod[]>();
  withPods.forEach(([p, w], i) => {
    const owned = (podLists[i]!.items as unknown as Pod[]).filter((pod) =>
      ((pod.metadata.ownerReferences ?? []) as { uid?: string; controller?: boolean; apiVersion?: string }[]).some((o) => o.controller && o.uid === w!.metadata.uid && groupOf(o.apiVersion) === groupOf(w!.apiVersion)));
    podsByState.set(stateKey(p), owned);
  });
  const nodes = new Map((nodeList.items as unknown as Node[]).map((n) => [n.metadata.name, n]));
  return { states: (await Promise.resolve(states)), workloads, podsByState, nodes };
}
