// getDaemonPods: the pods an Advanced DaemonSet claims (workload/pod-claims.ts): its own that its
// selector still matches, and the orphans it matches, which it adopts. A native DaemonSet deleted
// with propagationPolicy Orphan and re-created as an Advanced one leaves such orphans; adopted
// with their `controller-revision-hash`, they are not replaced when the revision is the one they
// came from (revisions.ts reuses the native revision holding the same template). Pure.
import type { Pod } from '../../workload/pods.js';
import { claimPods, type PodClaims } from '../../workload/pod-claims.js';
import { controllerReference } from '../../kube/owner-reference.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, type StoredDaemonSet as DaemonSet } from '../types.js';

export function claimDaemonPods(ds: DaemonSet, owned: readonly Pod[], orphans: readonly Pod[]): PodClaims {
  const ref = controllerReference(ds.apiVersion ?? DAEMONSET_API_VERSION, DAEMONSET_KIND, ds.metadata);
  return claimPods(ds, owned, orphans, ref, `DaemonSet ${ds.metadata.name}`);
}
