// The WorkloadSpread pod webhooks (../shared/SEMANTICS.md §3.3, §3.4): on pod CREATE, place the pod in a
// subset and inject it; on pod DELETE, record the deletion so the subset's room comes back.
// Subset counts are decided by the WorkloadSpread's ledger (ledger.ts), one serialized authority
// per WorkloadSpread, so concurrent creations never overfill a subset.
//
// Fallback: when what a decision needs is missing (no ledger in this deployment, a collection
// never pushed, an owner not pushed yet, the ledger unreachable) the pod is admitted without a
// subset and with a warning naming the reason: spreading is lost for that pod until the workload
// replaces it, but pod creation never fails for a missing cache. The controller's next run
// counts such pods (they are in no subset) and corrects the ledger.
import { allow, deny, type AdmissionHandler, type AdmissionInput } from '../admission/types.js';
import { type ClusterState } from '../edge-state/contracts.js';
import { injectSubset, parseMatchedWorkloadSpread } from './inject.js';
import { WORKLOADSPREAD_LEDGER, type CreateRequest, type CreateResult, type DeleteRequest, type DeleteResult } from './ledger.js';
import { controllerOf, matchWorkloadSpread } from './owner.js';
import { isSingleUnlimited, isStatefulSetTarget, recordedAccounts, seedAccounts, subsetByOrdinal } from './choose.js';
import { readWhitelist, readWorkloads, readWorkloadSpreads } from './state-view.js';
import { WORKLOADSPREAD_PODS_COLLECTION } from './collections.js';
import { DEFAULT_KRUISE_NAMESPACE } from '../kube/kruise-configuration.js';
import { type Pod, type WorkloadSpread } from './types.js';
import { isHandledKind, podVersion } from './workloads.js';

export type WorkloadSpreadWebhookOptions = {
  /** Where kruise-configuration lives (OpenKruise: POD_NAMESPACE). Default kruise-system. */
  kruiseNamespace?: string;
  /**
   * Dry-run pod requests: 'skip' does nothing, as OpenKruise (§3.3 step 1, §3.4); 'preview' places
   * and injects the pod as a real request would, without recording anything in the ledger.
   */
  dryRun?: 'skip' | 'preview';
  /** Keys for pods without a name yet (default crypto.randomUUID). */
  newKey?: () => string;
};

/** Succeeded, Failed and terminating pods are left alone (kubecontroller.IsPodActive). */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

const podLabel = (pod: Pod, namespace: string) => `pod ${namespace}/${pod.metadata?.name || `${pod.metadata?.generateName ?? ''}*`}`;

function fallback(pod: Pod, namespace: string, why: string) {
  return allow<Pod>(undefined, [`workloadspread: ${podLabel(pod, namespace)} placed in no subset: ${why}`]);
}

function ledgerRef(ws: WorkloadSpread) {
  return { kind: WORKLOADSPREAD_LEDGER, namespace: ws.metadata?.namespace ?? '', name: ws.metadata?.name ?? '' };
}

/** What a ledger request carries of the WorkloadSpread's status (ledger.ts `Seed`). */
function accountsFrom(ws: WorkloadSpread, version: string) {
  const recorded = recordedAccounts(ws, version);
  // Both are the status's accounts for the version when another writer recorded them: map it once.
  return recorded ? { seed: recorded.accounts, recorded } : { seed: seedAccounts(ws, version) };
}

type Choice = { subset?: string; generatedKey?: string } | { fallback: string };

async function chooseSubset(ws: WorkloadSpread, pod: Pod, req: AdmissionInput<Pod>, state: ClusterState, seedInput: Omit<CreateRequest, 'pod' | 'generatedKey'>, newKey: () => string): Promise<Choice> {
  if (isSingleUnlimited(ws)) return { subset: ws.spec.subsets[0]!.name };
  if (isStatefulSetTarget(ws)) return { subset: subsetByOrdinal(ws, pod.metadata?.name) };
  if (!state.ledgers) return { fallback: 'this deployment has no subset ledger' };
  const name = pod.metadata?.name ?? '';
  const create: CreateRequest = { ...seedInput, pod: name, generatedKey: name ? '' : newKey(), dryRun: req.dryRun };
  try {
    const result = await state.ledgers.apply<CreateResult>(ledgerRef(ws), 'create', create);
    return { ...(result.subset ? { subset: result.subset } : {}), ...(result.generatedKey ? { generatedKey: result.generatedKey } : {}) };
  } catch (e) {
    return { fallback: `the subset ledger of workloadspread ${ws.metadata?.name} failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Pod CREATE on mutate-pod: match, choose a subset, inject. */
export function makePlacePodHandler(opts: WorkloadSpreadWebhookOptions = {}): AdmissionHandler<Pod> {
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  const newKey = opts.newKey ?? (() => crypto.randomUUID());
  return async (req, state) => {
    const pod = req.object;
    if (typeof pod !== 'object' || pod === null || req.subResource) return allow();
    if (req.dryRun && (opts.dryRun ?? 'skip') === 'skip') return allow();
    const owner = controllerOf(pod);
    if (!isPodActive(pod) || !owner) return allow();
    const whitelist = await readWhitelist(state, kruiseNamespace);
    if (!isHandledKind(owner.apiVersion, owner.kind, whitelist)) return allow();

    const namespace = pod.metadata?.namespace || req.namespace;
    const spreads = await readWorkloadSpreads(state, namespace);
    if (!spreads) return fallback(pod, namespace, 'no WorkloadSpreads were pushed to the edge yet');
    if (spreads.length === 0) return allow();
    const workloads = await readWorkloads(state, namespace);
    const match = matchWorkloadSpread(pod, spreads, { lookup: workloads.lookup, whitelist });
    if (match.kind === 'none') return allow();
    // OpenKruise answers the owner lookup's NotFound error as is (admission.Errored, 500).
    if (match.kind === 'owner-not-found') return deny(500, match.message);
    if (match.kind === 'unknown') return fallback(pod, namespace, match.reason);

    const ws = match.ws;
    const version = podVersion(pod);
    const seedInput = { uid: ws.metadata?.uid ?? '', version, ...accountsFrom(ws, version), workloadReplicas: workloads.replicasOf(ws, whitelist) };
    const choice = await chooseSubset(ws, pod, req, state, seedInput, newKey);
    if ('fallback' in choice) return fallback(pod, namespace, choice.fallback);
    if (!choice.subset) return allow();
    const injected = injectSubset(pod, ws, choice.subset, choice.generatedKey);
    // OpenKruise fails the whole request on an injection error (§3.3 step 4, §6).
    return injected.ok ? allow(injected.pod) : deny(500, `workloadspread ${ws.metadata?.name}: ${injected.error}`);
  };
}

/** Records a deletion in the pod's subset (§3.4); answers the warnings, if any. Never denies. */
async function recordDeletion(pod: Pod, namespace: string, dryRun: boolean, state: ClusterState, opts: WorkloadSpreadWebhookOptions): Promise<string[]> {
  if (dryRun && (opts.dryRun ?? 'skip') === 'skip') return [];
  const matched = parseMatchedWorkloadSpread(pod);
  if (!matched || !isPodActive(pod) || !controllerOf(pod)) return [];
  const spreads = await readWorkloadSpreads(state, namespace);
  const ws = spreads?.find((w) => w.metadata?.name === matched.name);
  if (!ws || isSingleUnlimited(ws) || isStatefulSetTarget(ws)) return [];
  if (!state.ledgers) return [`workloadspread: deletion of ${podLabel(pod, namespace)} not recorded: this deployment has no subset ledger`];
  const whitelist = await readWhitelist(state, opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE);
  const workloads = await readWorkloads(state, namespace);
  const version = podVersion(pod);
  const request: DeleteRequest = {
    uid: ws.metadata?.uid ?? '', version, ...accountsFrom(ws, version), workloadReplicas: workloads.replicasOf(ws, whitelist),
    pod: pod.metadata?.name ?? '', subset: matched.subset, key: matched.uid ?? pod.metadata?.name ?? '', dryRun,
  };
  try {
    await state.ledgers.apply<DeleteResult>(ledgerRef(ws), 'delete', request);
    return [];
  } catch (e) {
    return [`workloadspread: deletion of ${podLabel(pod, namespace)} not recorded: ${e instanceof Error ? e.message : String(e)}`];
  }
}

/** Pod DELETE on validate-pod: record the deletion in the pod's subset (§3.4). Bookkeeping only. */
export function makeRecordDeletionHandler(opts: WorkloadSpreadWebhookOptions = {}): AdmissionHandler<Pod> {
  return async (req, state) => {
    const pod = req.oldObject;
    if (typeof pod !== 'object' || pod === null || req.subResource) return allow();
    return allow(undefined, await recordDeletion(pod, pod.metadata?.namespace || req.namespace, req.dryRun, state, opts));
  };
}

type Eviction = { metadata?: { name?: string; namespace?: string }; deleteOptions?: { dryRun?: string[] } };

/**
 * pods/eviction CREATE on validate-pod: an Eviction names a pod but carries none, so the pod's
 * subset comes from the pushed pods (active-pods, src/kube/active-pods.ts). A pod created after the last push is
 * not recorded; its room comes back at the controller's next resync instead. As in OpenKruise
 * (§6), this runs before the PUB check, which may still refuse the eviction: the room is then
 * given back early, until the deletingPods entry expires or the next resync.
 */
export function makeRecordEvictionHandler(opts: WorkloadSpreadWebhookOptions = {}): AdmissionHandler<Eviction> {
  return async (req, state) => {
    const eviction = typeof req.object === 'object' && req.object !== null ? req.object : {};
    const name = eviction.metadata?.name || req.name || '';
    const namespace = eviction.metadata?.namespace || req.namespace;
    const spreads = await readWorkloadSpreads(state, namespace);
    if (!spreads?.length) return allow();
    const pods = await state.collection<Pod>(WORKLOADSPREAD_PODS_COLLECTION);
    const pod = pods?.items.find((p) => p.metadata?.name === name && p.metadata?.namespace === namespace);
    if (!pod) return allow(undefined, [`workloadspread: eviction of ${namespace}/${name} not recorded: the pod is not in the pushed state yet (its room comes back at the next resync)`]);
    const dryRun = req.dryRun || (eviction.deleteOptions?.dryRun?.length ?? 0) > 0;
    return allow(undefined, await recordDeletion(pod, namespace, dryRun, state, opts));
  };
}
