// OpenKruise's truncatePodsToDelete (cloneset_controller.go): after each sync, names in
// `spec.scaleStrategy.podsToDelete` of pods the CloneSet no longer has (deleted, or being deleted)
// are dropped. Written as a JSON patch that first tests the list as read, so a name a user adds
// meanwhile is never lost (OpenKruise's Update carries the resourceVersion for the same reason).
// Pure.
import type { Write } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import { cloneSetRef, type StoredCloneSet } from '../types.js';

const PATH = '/spec/scaleStrategy/podsToDelete';

/** The write dropping names of pods not in `pods` (the CloneSet's active pods); undefined when every name is live. */
export function truncatePodsToDelete(cs: StoredCloneSet, pods: readonly Pod[]): Write | undefined {
  const listed = cs.spec?.scaleStrategy?.podsToDelete ?? [];
  if (listed.length === 0) return undefined;
  const live = new Set(pods.map((p) => p.metadata.name));
  const kept = listed.filter((name) => live.has(name));
  if (kept.length === listed.length) return undefined;
  const gone = listed.filter((name) => !live.has(name));
  return {
    op: 'patch',
    target: cloneSetRef(cs),
    patchType: 'json',
    // Go's nil slice is omitted (omitempty): an emptied list goes.
    patch: [{ op: 'test', path: PATH, value: listed }, kept.length ? { op: 'replace', path: PATH, value: kept } : { op: 'remove', path: PATH }],
    reason: `CloneSet ${cs.metadata.name}: podsToDelete names pods that no longer exist (${gone.join(', ')})`,
  };
}
