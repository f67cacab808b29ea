// What the SidecarSet reconciler reads, in a fixed number of LISTs however many sets and pods:
// the SidecarSets, every Pod (all namespaces: a set's pods are found by its selector, namespace
// scope and the pods' injected-list annotation, which no server-side selector can express for all
// sets at once), the SidecarSets' ControllerRevisions in the Kruise namespace (by the
// `kruise.io/sidecarset-name` label), the Namespaces (labels, for namespaceSelector), and the
// PodUnavailableBudgets (none when their CRD is not installed). Nothing when no set is in scope.
import type { PodUnavailableBudget } from '../../api/policy/podunavailablebudget.js';
import { listDisruptionBudgets } from '../../workload/list-budgets.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { SIDECARSET_NAME_LABEL, type SidecarSet } from '../types.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';

export const SIDECARSET_API_VERSION = 'apps.kruise.io/v1alpha1';
export const SIDECARSET_KIND = 'SidecarSet';
export const DEFAULT_KRUISE_NAMESPACE = 'kruise-system';

export type NamespaceFacts = { name: string; labels: Record<string, string> };

export type SidecarSetObserved = {
  /** The namespace revisions live in (OpenKruise's POD_NAMESPACE). */
  kruiseNamespace: string;
  /** The sets in scope. */
  sets: SidecarSet[];
  pods: Pod[];
  revisions: ControllerRevision[];
  namespaces: NamespaceFacts[];
  budgets: PodUnavailableBudget[];
};

export type ObserveOptions = { kruiseNamespace?: string };

function inScope(scope: Scope, name: string): boolean {
  return scope.kind === 'all' || scope.objects.some((o) => o.name === name);
}

export async function observeSidecarSets(kube: KubeReader, scope: Scope, opts: ObserveOptions = {}): Promise<SidecarSetObserved> {
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  const all = (await kube.list<KubeObject>(SIDECARSET_API_VERSION, SIDECARSET_KIND)).items as unknown as SidecarSet[];
  const sets = all.filter((s) => inScope(scope, s.metadata?.name ?? ''));
  if (sets.length === 0) return { kruiseNamespace, sets, pods: [], revisions: [], namespaces: [], budgets: [] };

  const names = sets.map((s) => s.metadata?.name ?? '').sort();
  const labelSelector = scope.kind === 'all' ? SIDECARSET_NAME_LABEL : `${SIDECARSET_NAME_LABEL} in (${names.join(',')})`;
  const [pods, revisions, namespaces, budgets] = await Promise.all([
    kube.list<KubeObject>('v1', 'Pod'),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', { namespace: kruiseNamespace, labelSelector }),
    kube.list<KubeObject & { metadata?: { name?: string; labels?: Record<string, string> } }>('v1', 'Namespace'),
    listDisruptionBudgets(kube),
  ]);
  return {
    kruiseNamespace,
    sets,
    pods: pods.items as unknown as Pod[],
    revisions: revisions.items as unknown as ControllerRevision[],
    namespaces: namespaces.items.map((ns) => ({ name: ns.metadata?.name ?? '', labels: ns.metadata?.labels ?? {} })),
    budgets,
  };
}
