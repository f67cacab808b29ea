// What the UnitedDeployment controller reads: the UnitedDeployments in scope, the subset workloads
// (those with a subset label, in their namespaces), their pods (those with a subset label), and the
// ControllerRevisions. Fresh LISTs every run, no expectations in memory.
//
// Workloads of a kind no UnitedDeployment in scope uses now (left by a change of template kind)
// are listed, to be deleted, only when it matters: a full run, or a UnitedDeployment whose spec
// changed since its status was written. A rollout's many runs then make three LISTs fewer each.
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { SUBSET_NAME_LABEL, TEMPLATE_KINDS, UD_API_VERSION, UD_KIND, templateFieldOf, type TemplateField, type UnitedDeploymentLike, type Workload } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type UnitedDeploymentObserved = {
  uds: UnitedDeploymentLike[];
  /** Subset workloads of every kind, by the uid of their controller. */
  workloadsByOwner: Map<string, Workload[]>;
  pods: Pod[];
  revisions: ControllerRevision[];
};

const inScope = (scope: Scope, ud: UnitedDeploymentLike) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === ud.metadata.name && (o.namespace ?? '') === ud.metadata.namespace);

export async function observeUnitedDeployments(kube: KubeReader, scope: Scope): Promise<UnitedDeploymentObserved> {
  const all = (await kube.list<KubeObject>(UD_API_VERSION, UD_KIND)).items as unknown as UnitedDeploymentLike[];
  const uds = all.filter((ud) => inScope(scope, ud) && !ud.metadata.deletionTimestamp);
  if (!uds.length) return { uds, workloadsByOwner: new Map(), pods: [], revisions: [] };
  const namespaces = [...new Set(uds.map((ud) => ud.metadata.namespace))];
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]! } : {};
  const labelled = { ...namespace, labelSelector: SUBSET_NAME_LABEL };
  const changed = scope.kind === 'all' || uds.some((ud) => ud.status?.observedGeneration !== ud.metadata.generation);
  const used = new Set(uds.map((ud) => templateFieldOf(ud.spec)));
  const kinds = (Object.keys(TEMPLATE_KINDS) as TemplateField[]).filter((f) => changed || used.has(f)).map((f) => TEMPLATE_KINDS[f]);
  const [workloads, pods, revisions] = await Promise.all([
    Promise.all(kinds.map((k) => kube.list<KubeObject>(k.apiVersion, k.kind, labelled).then((l) => l.items.map((w) => ({ ...w, apiVersion: k.apiVersion, kind: k.kind }))))),
    kube.list<KubeObject>('v1', 'Pod', labelled),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
  ]);
  return {
    uds,
    workloadsByOwner: byController(workloads.flat() as unknown as Workload[], UD_KIND),
    pods: pods.items as unknown as Pod[],
    revisions: revisions.items as unknown as ControllerRevision[],
  };
}
