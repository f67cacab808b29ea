// The pod validating webhook's PUB part (../shared/SEMANTICS.md §4.4, §6): DELETE, in-place UPDATE and
// `pods/eviction` CREATE of a protected pod are decided by the PUB's ledger (check.ts). Rules 1–4
// come from the admitted pod and the pushed PUBs; an Eviction carries no pod, so its annotations
// come from the pushed pods and its readiness from the ledger.
//
// Denial codes: DELETE and UPDATE answer 403 as OpenKruise does; evictions answer 429
// (TooManyRequests), which `kubectl drain` and other eviction clients retry, as they do for a
// PodDisruptionBudget. A budget the edge cannot vouch for (never synced, stale, authority
// unreachable) refuses: 503 for DELETE/UPDATE, 429 for evictions. Refusals are recorded in the
// ledger; the controller turns them into `PubPreventPodDeletion` Events (the edge cannot write to
// the API server).
//
// A budget is right at first sight: a ledger the controller has not resynced yet is seeded from
// the status the PUB records (recorded.ts), and a PUB that records none yet (created a moment
// ago) is waited for, within the request's time budget, until its first sync (src/admission/attempt-until-settled.ts).
import { allow, deny, type AdmissionHandler, type AdmissionInput, type HandlerContext, type Verdict } from '../admission/types.js';
import { snapshotAge, type ClusterState, type Snapshot } from '../edge-state/contracts.js';
import { isRecord } from '../kube/validation.js';
import { isResizeOnly } from './resize.js';
import type { Pod } from '../workload/pods.js';
import { PUB_STALE_AFTER_MS, type PubCheckRequest, type PubCheckResult } from './check.js';
import { PODS_COLLECTION, PUBS_COLLECTION } from './collections.js';
import { pubLedgerRef } from './ledger.js';
import { attemptUntilSettled } from '../admission/attempt-until-settled.js';
import { isPodAvailableForBudget } from './pod-state.js';
import { recordedBudget } from './recorded.js';
import { hasUnavailableLabel, NO_PROTECT_ANNOTATION, RELATED_PUB_ANNOTATION, type PodUnavailableBudget, type PubOperation } from './types.js';

type Named = { metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> } };
type Eviction = Named & { deleteOptions?: { dryRun?: string[] } };

const refuse = (op: PubOperation, budgetDenial: boolean, message: string): Verdict =>
  op === 'EVICT' ? deny(429, message, 'TooManyRequests') : budgetDenial ? deny(403, message) : deny(503, message);

// Since the edge last knew it current: a push, or a later write-through or observer write.
const ageOf = (snap: Snapshot | undefined, now: number): number => (snap ? snapshotAge(snap, now) : Infinity);
const fresh = (snap: Snapshot | undefined, now: number): boolean => ageOf(snap, now) <= PUB_STALE_AFTER_MS;

/**
 * The PUB a pod names, as the edge knows it. Rule 4: it is known gone only when the pushed PUBs
 * are fresh and lack it.
 */
async function lookupPub(state: ClusterState, namespace: string, name: string, now: number): Promise<{ gone: true } | { gone: false; pub?: PodUnavailableBudget }> {
  const pubs = await state.collection<PodUnavailableBudget>(PUBS_COLLECTION);
  const pub = pubs?.items.find((p) => p.metadata?.namespace === namespace && p.metadata?.name === name);
  if (!pub && pubs && fresh(pubs, now)) return { gone: true };
  return { gone: false, ...(pub ? { pub } : {}) };
}

/** What the check asks of the ledger about this PUB: its incarnation and the budget its status records. */
function knownPub(pub: PodUnavailableBudget | undefined): Pick<PubCheckRequest, 'uid' | 'recorded'> {
  const recorded = recordedBudget(pub);
  const uid = pub?.metadata?.uid;
  return { ...(uid ? { uid } : {}), ...(recorded ? { recorded } : {}) };
}

/** Rules 5–9 in the PUB's ledger; a budget not known yet is asked again until the deadline. */
async function checkInLedger(state: ClusterState, namespace: string, req: PubCheckRequest, deadline: number | undefined): Promise<Verdict> {
  const ledgers = state.ledgers;
  if (!ledgers) return refuse(req.operation, false, `podunavailablebudget "${req.pub}": this deployment keeps no budget authority; refusing to disrupt protected pod "${req.pod}"`);
  let result: PubCheckResult;
  try {
    const check = () => ledgers.apply<PubCheckResult>(pubLedgerRef(namespace, req.pub), 'check', req);
    result = await attemptUntilSettled(check, (r) => r.allowed || r.why !== 'unknown-budget', deadline);
  } catch (e) {
    return refuse(req.operation, false, `podunavailablebudget "${req.pub}": its budget authority failed: ${e instanceof Error ? e.message : String(e)}; retry shortly`);
  }
  if (result.allowed) return allow();
  return refuse(req.operation, result.why === 'exhausted' || result.why === 'too-many-pending', result.message);
}

/** Rules 1–4 on the admitted pod, then the ledger. */
async function checkPod(pod: Pod, op: Exclude<PubOperation, 'EVICT'>, dryRun: boolean, state: ClusterState, ctx: HandlerContext): Promise<Verdict> {
  const pub = pod.metadata.annotations?.[RELATED_PUB_ANNOTATION];
  if (!pub) return allow();
  if (pod.metadata.annotations?.[NO_PROTECT_ANNOTATION] === 'true') return allow();
  if (!isPodAvailableForBudget(pod)) return allow();
  const found = await lookupPub(state, pod.metadata.namespace, pub, ctx.now);
  if (found.gone) return allow();
  return checkInLedger(state, pod.metadata.namespace, { pub, pod: pod.metadata.name, operation: op, dryRun, ...knownPub(found.pub) }, ctx.deadline);
}

/** §4.4 UPDATE: the whole spec changed, or an unavailable-pod label was added. */
export function isUnavailableChange(oldPod: Pod, newPod: Pod): boolean {
  if (JSON.stringify(oldPod.spec) !== JSON.stringify(newPod.spec)) return true;
  return !hasUnavailableLabel(oldPod.metadata.labels) && hasUnavailableLabel(newPod.metadata.labels);
}

async function checkEviction(req: AdmissionInput, state: ClusterState, ctx: HandlerContext): Promise<Verdict> {
  const now = ctx.now;
  const eviction = (isRecord(req.object) ? req.object : {}) as Eviction;
  const name = eviction.metadata?.name || req.name || '';
  const namespace = req.namespace;
  const dryRun = req.dryRun || (eviction.deleteOptions?.dryRun?.length ?? 0) > 0;
  const read = (reread: boolean) => Promise.all([state.collection<PodUnavailableBudget>(PUBS_COLLECTION, { reread }), state.collection<Named>(PODS_COLLECTION, { reread })]);
  // Pods never synced (a new or restarted edge, pushed again within seconds): waited for within the request's time.
  let [pubs, pods] = await read(false);
  if (!pods) [pubs, pods] = await attemptUntilSettled(() => read(true), ([, p]) => p !== undefined, ctx.deadline);
  if (pubs && fresh(pubs, now) && !pubs.items.some((p) => p.metadata?.namespace === namespace)) return allow();
  if (!pods || !fresh(pods, now)) {
    const age = pods ? `${Math.round(ageOf(pods, now) / 1000)}s old` : 'never synced';
    // The stale list may still say which PUB protected the pod: name it, so the message says whose budget is unknown.
    const last = pods?.items.find((p) => p.metadata?.namespace === namespace && p.metadata?.name === name)?.metadata?.annotations?.[RELATED_PUB_ANNOTATION];
    const who = last ? `podunavailablebudget "${last}"` : 'podunavailablebudget';
    return refuse('EVICT', false, `${who}: the pods known at the edge are ${age} (limit ${PUB_STALE_AFTER_MS / 1000}s); cannot tell whether pod "${name}" is protected; retry shortly`);
  }
  const pod = pods.items.find((p) => p.metadata?.namespace === namespace && p.metadata?.name === name);
  if (!pod) return refuse('EVICT', false, `podunavailablebudget: pod "${name}" is not known at the edge yet (created after the last state sync, or absent); retry shortly`);
  const pub = pod.metadata?.annotations?.[RELATED_PUB_ANNOTATION];
  if (!pub || pod.metadata?.annotations?.[NO_PROTECT_ANNOTATION] === 'true') return allow();
  const found = await lookupPub(state, namespace, pub, now);
  if (found.gone) return allow();
  return checkInLedger(state, namespace, { pub, pod: name, operation: 'EVICT', dryRun, podFromLedger: true, ...knownPub(found.pub) }, ctx.deadline);
}

export const checkPodDisruptionHandler: AdmissionHandler = async (req, state, ctx) => {
  if (req.operation === 'CREATE') return req.subResource === 'eviction' ? checkEviction(req, state, ctx) : allow();
  if (req.subResource) return allow();
  if (req.operation === 'DELETE') {
    // §6: a DELETE without oldObject is allowed.
    return isRecord(req.oldObject) ? checkPod(req.oldObject as Pod, 'DELETE', req.dryRun, state, ctx) : allow();
  }
  if (req.operation === 'UPDATE' && isRecord(req.oldObject) && isRecord(req.object)) {
    const [oldPod, newPod] = [req.oldObject as Pod, req.object as Pod];
    if (!newPod.metadata.annotations?.[RELATED_PUB_ANNOTATION] || !isUnavailableChange(oldPod, newPod)) return allow();
    return checkPod(oldPod, isResizeOnly(oldPod, newPod) ? 'RESIZE' : 'UPDATE', req.dryRun, state, ctx);
  }
  return allow();
};
