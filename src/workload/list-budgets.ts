// The PodUnavailableBudgets a workload controller asks before disrupting pods (src/workload/disruption.ts).
import type { PodUnavailableBudget } from '../api/policy/podunavailablebudget.js';
import { isNotFound } from '../kube/errors.js';
import type { KubeObject } from '../kube/http.js';
import type { KubeReader } from '../reconcile/types.js';

/** All PUBs, in `namespace` when given; the PUB CRD may not be installed, which means no budgets. */
export async function listDisruptionBudgets(kube: KubeReader, namespace?: string): Promise<PodUnavailableBudget[]> {
  try {
    return (await kube.list<KubeObject>('policy.kruise.io/v1alpha1', 'PodUnavailableBudget', namespace ? { namespace } : {})).items as unknown as PodUnavailableBudget[];
  } catch (e) {
    if (isNotFound(e) || (e instanceof Error && /does not serve/.test(e.message))) return [];
    throw e;
  }
}
