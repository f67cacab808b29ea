// The webhook's side of subset choice (../shared/SEMANTICS.md §3.3 step 3) that needs no ledger: a single
// unlimited subset, StatefulSet ordinals, and the accounts a version starts from when the ledger
// has none (the pushed status's, else spec's).
import { statusWrittenByUs } from '../kube/managed-fields.js';
import type { RecordedAccounts } from './ledger-recorded.js';
import { isSchedulable, type SubsetAccount } from './subset-state.js';
import type { WorkloadSpread, WorkloadSpreadSubsetStatus } from './types.js';

/** Exactly one subset and it has no maxReplicas: every pod goes there, nothing is counted. */
export function isSingleUnlimited(ws: WorkloadSpread): boolean {
  const subsets = ws.spec.subsets ?? [];
  return subsets.length === 1 && (subsets[0]!.maxReplicas === undefined || subsets[0]!.maxReplicas === null);
}

/** StatefulSet targets (apps or apps.kruise.io) are placed by ordinal and never counted. */
export function isStatefulSetTarget(ws: WorkloadSpread): boolean {
  return ws.spec.targetRef?.kind === 'StatefulSet';
}

/** The ordinal in a StatefulSet pod's name (`web-3` → 3), or −1. */
export function podOrdinal(name: string | undefined): number {
  const m = /^(.*)-([0-9]+)$/.exec(name ?? '');
  if (!m) return -1;
  const n = Number(m[2]);
  return n <= 2 ** 31 - 1 ? n : -1;
}

// intstr.IntValue of a string: strconv.Atoi, 0 when it is not a plain integer.
const goAtoi = (s: string): number => (/^[+-]?\d+$/.test(s) ? Number(s) : 0);

/**
 * Ordinal placement: subsets in spec order, skipping those marked unschedulable in
 * status.subsetStatuses, each covering the next maxReplicas ordinals (no limit: all the rest).
 */
export function subsetByOrdinal(ws: WorkloadSpread, podName: string | undefined): string | undefined {
  const ordinal = podOrdinal(podName);
  const statuses = ws.status?.subsetStatuses ?? [];
  let threshold = 0;
  for (const subset of ws.spec.subsets ?? []) {
    const status = statuses.find((s) => s.name === subset.name);
    if (status && !isSchedulable(status)) continue;
    const limit = subset.maxReplicas;
    threshold += typeof limit === 'number' ? limit : limit === undefined || limit === null ? 2 ** 31 - 1 : goAtoi(limit);
    if (ordinal < threshold) return subset.name;
  }
  return undefined;
}

const ms = (t: unknown): number => (t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN);

/** Status time maps as the ledger keeps them (ms); unparseable times are dropped. */
export function timesToMs(times: Record<string, unknown> | null | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(times ?? {}).map(([k, t]) => [k, ms(t)]).filter(([, t]) => Number.isFinite(t)));
}

function fromStatus(ws: WorkloadSpread, status: WorkloadSpreadSubsetStatus): SubsetAccount {
  const creatingPods = timesToMs(status.creatingPods as Record<string, unknown> | undefined);
  const deletingPods = timesToMs(status.deletingPods as Record<string, unknown> | undefined);
  const spec = (ws.spec.subsets ?? []).find((s) => s.name === status.name);
  // A subset gone from spec keeps the room its status showed.
  const maxReplicas = spec
    ? spec.maxReplicas ?? null
    : status.missingReplicas < 0
      ? null
      : status.missingReplicas + status.replicas + Object.keys(creatingPods).length - Object.keys(deletingPods).length;
  return { name: status.name, maxReplicas, replicas: status.replicas ?? 0, ...(status.conditions ? { conditions: status.conditions } : {}), creatingPods, deletingPods };
}

/** The accounts a version starts from: status.versionedSubsetStatuses[version] when present, else spec (§3.3). */
export function seedAccounts(ws: WorkloadSpread, version: string): SubsetAccount[] {
  const held = ws.status?.versionedSubsetStatuses?.[version];
  if (held?.length) return held.map((s) => fromStatus(ws, s));
  return (ws.spec.subsets ?? []).map((s) => ({ name: s.name, maxReplicas: s.maxReplicas ?? null, replicas: 0, creatingPods: {}, deletingPods: {} }));
}

/** The version's accounts when the status was last written by someone other than our controllers. */
export function recordedAccounts(ws: WorkloadSpread, version: string): RecordedAccounts | undefined {
  const held = ws.status?.versionedSubsetStatuses?.[version];
  const resourceVersion = ws.metadata?.resourceVersion;
  if (statusWrittenByUs(ws) || !held?.length || !resourceVersion) return undefined;
  return { resourceVersion, accounts: held.map((s) => fromStatus(ws, s)) };
}

/** Whether any subset limit is a percentage (only then do the target's replicas matter). */
export function usesPercent(ws: WorkloadSpread): boolean {
  return (ws.spec.subsets ?? []).some((s) => typeof s.maxReplicas === 'string');
}
