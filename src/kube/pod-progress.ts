// Pure: what changed between two versions of a pod that a workload controller waits on (a pod
// scheduled, started, ready, restarted, updated in place). Everything else the kubelet writes
// (probe timestamps, IPs, messages, lastTransitionTime alone) is noise to a controller, and a
// status write that changes only that must not wake one.
import { asObj, type Obj } from './projection.js';

/** The conditions whose status a controller reads (Kubernetes' and OpenKruise's readiness gates). */
export const WATCHED_CONDITIONS = ['Ready', 'ContainersReady', 'InPlaceUpdateReady', 'KruisePodReady'] as const;
const CONTAINER_FIELDS = ['ready', 'imageID', 'restartCount', 'started'] as const;

/**
 * The watched fields that differ, as paths (`status.phase`, `conditions[Ready]`,
 * `containers[main].ready`); empty when nothing a controller waits on changed.
 */
export function podProgressChanges(oldPod: unknown, newPod: unknown): string[] {
  const before = asObj(oldPod);
  const after = asObj(newPod);
  const changes: string[] = [];
  if (asObj(before.spec).nodeName !== asObj(after.spec).nodeName) changes.push('spec.nodeName');
  const was = asObj(before.status);
  const is = asObj(after.status);
  if (was.phase !== is.phase) changes.push('status.phase');
  const conditionsBefore = byKey(was.conditions, 'type');
  const conditionsAfter = byKey(is.conditions, 'type');
  for (const type of WATCHED_CONDITIONS) {
    if (conditionsBefore.get(type)?.status !== conditionsAfter.get(type)?.status) changes.push(`conditions[${type}]`);
  }
  const containersBefore = byKey(was.containerStatuses, 'name');
  const containersAfter = byKey(is.containerStatuses, 'name');
  for (const name of new Set([...containersBefore.keys(), ...containersAfter.keys()])) {
    const b = containersBefore.get(name);
    const a = containersAfter.get(name);
    if (!b || !a) {
      changes.push(`containers[${name}]`);
      continue;
    }
    for (const field of CONTAINER_FIELDS) if (b[field] !== a[field]) changes.push(`containers[${name}].${field}`);
  }
  return changes;
}

function byKey(list: unknown, key: string): Map<string, Obj> {
  const out = new Map<string, Obj>();
  for (const item of Array.isArray(list) ? list : []) {
    const o = asObj(item);
    const k = o[key];
    if (typeof k === 'string') out.set(k, o);
  }
  return out;
}
