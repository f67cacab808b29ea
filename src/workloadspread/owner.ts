// Which WorkloadSpread a pod being created belongs to (../shared/SEMANTICS.md §3.3 step 2): the first one,
// in list order, whose targetRef is the pod's controller or an ancestor of it (Deployment through
// its ReplicaSet, whitelisted custom workloads through their subresources), and whose targetFilter
// selects the pod. Pure: owner objects come from a lookup over pushed collections.
import { compileSelector, selectorMatches } from '../kube/selectors.js';
import { groupOf, type Pod, type WorkloadSpread, type WorkloadSpreadTargetFilter } from './types.js';
import { isHandledKind, type CustomWorkloadWhitelist } from './workloads.js';
import { inferredDeployment } from '../kube/deployment-owner.js';

export type OwnerRef = { apiVersion?: string; kind?: string; name?: string; controller?: boolean };
type Owned = { metadata?: { ownerReferences?: OwnerRef[] } };

/** An owner object by group, kind and name in the pod's namespace: found, known absent, or not knowable here. */
export type OwnerLookup = (group: string, kind: string, name: string) =>
  | { state: 'found'; object: Owned }
  | { state: 'absent' }
  | { state: 'unavailable'; reason: string };

export type OwnerMatch =
  | { kind: 'matched'; ws: WorkloadSpread }
  | { kind: 'none' }
  /**
   * An owner on the pod's chain does not exist (§3.3 step 2): OpenKruise fails the pod with the
   * API server's NotFound message, and so does the caller.
   */
  | { kind: 'owner-not-found'; message: string }
  /** The state could not tell (a kind the edge holds no collection of, one never pushed): the caller falls back. */
  | { kind: 'unknown'; reason: string };

type Step = 'equal' | 'different' | { unknown: string } | { notFound: string };

/** Resource names of the kinds the edge looks owners up in, for the API server's NotFound text. */
const RESOURCES: Readonly<Record<string, string>> = {
  'apps/ReplicaSet': 'replicasets', 'apps/Deployment': 'deployments', 'apps/StatefulSet': 'statefulsets', 'batch/Job': 'jobs',
  'apps.kruise.io/CloneSet': 'clonesets', 'apps.kruise.io/StatefulSet': 'statefulsets',
};

/** The API server's NotFound message for an object (`clonesets.apps.kruise.io "web" not found`). */
export function notFoundMessage(group: string, kind: string, name: string): string {
  const resource = RESOURCES[`${group}/${kind}`] ?? `${kind.toLowerCase()}s`;
  return `${group ? `${resource}.${group}` : resource} "${name}" not found`;
}

const MAX_DEPTH = 10;

export function controllerOf(obj: Owned | undefined): OwnerRef | undefined {
  return obj?.metadata?.ownerReferences?.find((r) => r.controller === true);
}

function referenceStep(target: WorkloadSpread['spec']['targetRef'], owner: OwnerRef | undefined, pod: Pod, ctx: MatchContext, depth: number): Step {
  if (!owner) return 'different';
  if (groupOf(owner.apiVersion) === groupOf(target.apiVersion) && owner.kind === target.kind && owner.name === target.name) return 'equal';
  if (!isHandledKind(owner.apiVersion, owner.kind, ctx.whitelist) || depth >= MAX_DEPTH) return 'different';
  const found = ctx.lookup(groupOf(owner.apiVersion), owner.kind ?? '', owner.name ?? '');
  if (found.state === 'found') return referenceStep(target, controllerOf(found.object), pod, ctx, depth + 1);
  const inferred = inferredDeployment(owner, pod.metadata?.labels);
  if (inferred) return referenceStep(target, inferred, pod, ctx, depth + 1);
  // OpenKruise fails the pod on NotFound (§8) and skips the WorkloadSpread on other errors. The
  // edge's workload collections take every admitted create at once (the observer), so a workload
  // they lack does not exist, as far as any webhook can know.
  return found.state === 'absent' ? { notFound: notFoundMessage(groupOf(owner.apiVersion), owner.kind ?? '', owner.name ?? '') } : { unknown: found.reason };
}

/** targetFilter: absent selects every pod; a filter without selector selects none (§8). */
export function isSelectedByFilter(filter: WorkloadSpreadTargetFilter | undefined, labels: Record<string, string> | undefined): boolean {
  if (!filter) return true;
  return selectorMatches(compileSelector(filter.selector as Parameters<typeof compileSelector>[0]), labels ?? {});
}

export type MatchContext = { lookup: OwnerLookup; whitelist: CustomWorkloadWhitelist };

/** The WorkloadSpread the pod belongs to, given the WorkloadSpreads of its namespace in list order. */
export function matchWorkloadSpread(pod: Pod, spreads: readonly WorkloadSpread[], ctx: MatchContext): OwnerMatch {
  const owner = controllerOf(pod as Owned);
  const unknown: string[] = [];
  for (const ws of spreads) {
    if (!ws.spec?.targetRef || ws.metadata?.deletionTimestamp) continue;
    const step = referenceStep(ws.spec.targetRef, owner, pod, ctx, 0);
    if (typeof step === 'object' && 'notFound' in step) return { kind: 'owner-not-found', message: step.notFound };
    if (typeof step === 'object') {
      unknown.push(`workloadspread ${ws.metadata?.name}: ${step.unknown}`);
      continue;
    }
    if (step === 'equal' && isSelectedByFilter(ws.spec.targetFilter, pod.metadata?.labels)) return { kind: 'matched', ws };
  }
  return unknown.length ? { kind: 'unknown', reason: unknown.join('; ') } : { kind: 'none' };
}
