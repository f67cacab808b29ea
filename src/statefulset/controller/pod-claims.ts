// getPodsForStatefulSet: the pods an Advanced StatefulSet claims (workload/pod-claims.ts): its own
// that its selector still matches, and the orphans its selector matches whose name makes them its
// members (`<set>-<ordinal>`, isMemberOf), which it adopts. An apps/v1 StatefulSet deleted with
// propagationPolicy Orphan and re-created as an Advanced one leaves such orphans. Their
// `controller-revision-hash` names the native revision: both controllers name a revision after
// the FNV-32a hash of the same data bytes and the collision count (history.NewControllerRevision),
// so the same template gives the same revision and the adopted pods are not updated. Pure.
import type { Pod } from '../../workload/pods.js';
import { claimPods, type PodClaims } from '../../workload/pod-claims.js';
import { controllerReference } from '../../kube/owner-reference.js';
import { parentAndOrdinal } from '../ordinals.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND, type StoredStatefulSet } from '../types.js';

export function claimStatefulSetPods(set: StoredStatefulSet, owned: readonly Pod[], orphans: readonly Pod[]): PodClaims {
  const members = orphans.filter((p) => parentAndOrdinal(p.metadata.name).parent === set.metadata.name);
  const ref = controllerReference(STATEFULSET_API_VERSION, STATEFULSET_KIND, set.metadata);
  return claimPods(set, owned, members, ref, `StatefulSet ${set.metadata.name}`);
}
