// The PersistentPodState webhooks: on mutate-pod (CREATE), a recreated StatefulSet pod gets its
// recorded topology back (./affinity.ts); on validate-kruise, the object is validated (400 with
// OpenKruise's messages). Both read the PersistentPodStates the edge holds.
import { allow, deny, type AdmissionHandler, type HandlerMatch, type StateNeeds } from '../admission/types.js';
import type { ClusterState } from '../edge-state/contracts.js';
import { isRecord } from '../kube/validation.js';
import { persistentPodStateFor, steeredPod, type PodLike } from './affinity.js';
import { PPS_COLLECTION } from './collections.js';
import { PPS_GROUP, PPS_KIND, type StoredPersistentPodState, type PersistentPodStateLike } from './types.js';
import { validatePersistentPodState } from './validate.js';

export const POD_CREATE_MATCH: HandlerMatch = { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['CREATE'] };
export const PPS_MATCH: HandlerMatch = { group: PPS_GROUP, kind: PPS_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

/** A pod is admitted unsteered if the state is missing (as OpenKruise does when its LIST fails). */
export const POD_NEEDS: StateNeeds = { collections: [PPS_COLLECTION], maxStalenessMs: 5 * 60_000, fallback: 'last-known', withoutState: 'allow' };
export const PPS_NEEDS: StateNeeds = { collections: [PPS_COLLECTION], maxStalenessMs: 5 * 60_000, fallback: 'last-known', withoutState: 'deny' };

async function statesOf(state: ClusterState): Promise<StoredPersistentPodState[]> {
  const snap = await state.collection<StoredPersistentPodState>(PPS_COLLECTION);
  return (snap?.items ?? []).filter((p) => isRecord(p) && isRecord(p.metadata));
}

export const steerPodHandler: AdmissionHandler = async (req, state) => {
  const pod = req.object;
  if (!isRecord(pod)) return allow();
  const pps = persistentPodStateFor(pod as PodLike, req.namespace, await statesOf(state));
  const steered = pps ? steeredPod(pod as PodLike, pps) : undefined;
  return steered ? allow(steered) : allow();
};

export const validatePersistentPodStateHandler: AdmissionHandler = async (req, state) => {
  const obj = req.object;
  if (!isRecord(obj)) return deny(400, 'the admission request carries no PersistentPodState');
  const withNs = { ...(obj as PersistentPodStateLike), metadata: { ...((obj as PersistentPodStateLike).metadata ?? {}), namespace: req.namespace } };
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) ? (req.oldObject as PersistentPodStateLike) : undefined;
  const err = validatePersistentPodState(withNs, old, await statesOf(state));
  return err ? deny(400, err) : allow();
};
