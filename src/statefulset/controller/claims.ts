// PVCs and persistentVolumeClaimRetentionPolicy (stateful_pod_control.go, stateful_set_utils.go
// claimOwnerMatchesSetAndPod / updateClaimOwnerRefForSetAndPod, OpenKruise's
// StatefulSetAutoDeletePVC gate, on by default). Owner references carry the policy, and the
// garbage collector does the deleting:
//   whenDeleted Delete → the PVC is owned by the StatefulSet (deleted with it);
//   whenScaled  Delete → a scaled-down pod's PVC is owned by that pod (deleted with it).
// Pure.
import type { KubeObject } from '../../kube/http.js';
import type { Pod } from '../../workload/pods.js';
import type { StoredStatefulSet } from '../types.js';
import { claimsFor, setOwnerRef } from './new-pod.js';
import type { OwnerRef, Pvc } from './observe.js';

type Policy = { whenDeleted: string; whenScaled: string };

export function retentionPolicy(set: StoredStatefulSet): Policy {
  const p = set.spec.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? 'Retain', whenScaled: p?.whenScaled ?? 'Retain' };
}

const podOwnerRef = (pod: Pod): OwnerRef => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid ?? '' });

/** The owners (by uid) a claim should have under the policy: the set's and/or the pod's. */
function wantedOwners(set: StoredStatefulSet, scaledDown: boolean): { set: boolean; pod: boolean } {
  const { whenDeleted, whenScaled } = retentionPolicy(set);
  const del = (v: string) => v === 'Delete';
  if (del(whenScaled) && scaledDown) return { set: false, pod: true };
  return { set: del(whenDeleted), pod: false };
}

/**
 * The claim with its owner references fixed for the policy, or undefined when they already match.
 * `scaledDown`: the pod's ordinal is out of range. The pod must exist (its uid) for a pod ref.
 */
export function claimWithPolicyOwners(set: StoredStatefulSet, claim: Pvc, pod: Pod, scaledDown: boolean): Pvc | undefined {
  const want = wantedOwners(set, scaledDown);
  const refs = claim.metadata.ownerReferences ?? [];
  const setUid = set.metadata.uid ?? '';
  const podUid = pod.metadata.uid ?? '';
  const hasSet = refs.some((r) => r.uid === setUid);
  const hasPod = refs.some((r) => r.uid === podUid);
  if (hasSet === want.set && hasPod === want.pod) return undefined;
  if (want.pod && !podUid) return undefined;
  let next = refs.filter((r) => (r.uid !== setUid || want.set) && (r.uid !== podUid || want.pod));
  if (want.set && !hasSet) next = [...next, setOwnerRef(set, false)];
  if (want.pod && !hasPod) next = [...next, podOwnerRef(pod)];
  const metadata = { ...claim.metadata, ownerReferences: next };
  if (!next.length) delete (metadata as { ownerReferences?: OwnerRef[] }).ownerReferences;
  return { ...claim, metadata } as Pvc;
}

/** The claims of `ordinal` to create (those not in `existing`), owned as the policy says. */
export function missingClaims(set: StoredStatefulSet, ordinal: number, existing: ReadonlyMap<string, Pvc>): Pvc[] {
  const owners = wantedOwners(set, false);
  return claimsFor(set, ordinal)
    .filter((c) => !existing.has(`${c.metadata.namespace}/${c.metadata.name}`))
    .map((c) => (owners.set ? ({ ...c, metadata: { ...c.metadata, ownerReferences: [setOwnerRef(set, false)] } } as Pvc) : c));
}

/** The observed claims of `ordinal`. */
export function existingClaims(set: StoredStatefulSet, ordinal: number, existing: ReadonlyMap<string, Pvc>): Pvc[] {
  return claimsFor(set, ordinal).flatMap((c) => existing.get(`${c.metadata.namespace}/${c.metadata.name}`) ?? []);
}

/**
 * PodClaimIsStale: with whenScaled Delete, a claim still owned by an earlier pod of the same name
 * (a different uid) is about to be garbage collected; the pod waits rather than mount it.
 */
export function hasStaleClaim(set: StoredStatefulSet, podName: string, podUid: string | undefined, claims: readonly Pvc[]): boolean {
  if (retentionPolicy(set).whenScaled === 'Retain') return false;
  return claims.some((c) => (c.metadata.ownerReferences ?? []).some((r) => r.name === podName && r.kind === 'Pod' && r.uid !== (podUid ?? '')));
}

export const pvcObject = (p: Pvc): KubeObject => p as unknown as KubeObject;
