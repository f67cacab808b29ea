// What the WorkloadSpread reconciler reads: the WorkloadSpreads in scope, each one's target
// workload and its pods (a Deployment's through its ReplicaSets), counted per subset and version
// (subsets.ts), and the edge's ledger for each (read only; the runtime lends the edge's ledgers).
// The pure resync is applied to the ledger as read, giving what status will show; decide plans
// the same resync as a ledger write, which the edge applies to its then-current state (keeping
// what the webhooks recorded meanwhile). Without ledgers the state is rebuilt from the cluster
// status, which gives OpenKruise's status-only behaviour.
import type { LedgerRef, Ledgers } from '../../edge-state/ledger.js';
import { isNotFound } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { timesToMs } from '../choose.js';
import { isSchedulable } from '../subset-state.js';
import { WORKLOADSPREAD_LEDGER, type WorkloadSpreadLedger } from '../ledger.js';
import { resyncLedger, type ResyncRequest, type SubsetEntries } from '../ledger-resync.js';
import { isSelectedByFilter, controllerOf } from '../owner.js';
import { POD_TEMPLATE_HASH_LABEL, VERSION_IGNORED, WS_API_VERSION, WS_KIND, type Pod, type WorkloadSpread } from '../types.js';
import { workloadReplicas } from '../workloads.js';
import type { Node } from '../../workload/nodes.js';
import { adoptExistingPods, type Adoption } from './adopt.js';
import { parseMatchedWorkloadSpread } from '../inject.js';
import { countSubsets, type SubsetCounts } from './subsets.js';

export type SpreadObserved = {
  ws: WorkloadSpread;
  /** Whether the target exists and is a kind the controller reads pods of. */
  supported: boolean;
  pods: Pod[];
  workloadReplicas: number;
  /** Version key of the workload's current template (deletion cost ordering). */
  latestVersion?: string;
  counts: SubsetCounts;
  ledger: WorkloadSpreadLedger;
  /** The ledger as the edge held it before this run's resync (entries admitted since the last status). */
  held?: WorkloadSpreadLedger;
  /** The resync to send to the edge, when the run has ledgers. */
  resync?: { ref: LedgerRef; request: ResyncRequest };
  /**
   * Subsets the pod webhook already treats as unschedulable (the ledger as held, or for StatefulSet
   * ordinals and runs without ledgers the status): an unschedulable pod is deleted only once its
   * subset is among them, or the workload's replacement would be placed in the same subset.
   */
  markedUnschedulable: string[];
  /** Pods that existed before the WorkloadSpread, put into a subset this run (annotation to patch). */
  adoptions: Adoption[];
};
export type WorkloadSpreadObserved = { now: number; spreads: SpreadObserved[] };

export type ObserveOptions = {
  /** Overrides the ledgers the runtime lends (tests). */
  ledgers?: Ledgers;
  now?: () => number;
  /** How long an Adaptive subset stays Schedulable=False (default OpenKruise's 5 minutes). */
  recoverAfterMs?: number;
};

type Workload = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown>; metadata?: KubeObject['metadata'] & { uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> } };

const uidOf = (o: { metadata?: { uid?: unknown } }) => String(o.metadata?.uid ?? '');
const ownedBy = (o: unknown, uids: ReadonlySet<string>) => {
  const owner = controllerOf(o as Parameters<typeof controllerOf>[0]) as { uid?: string } | undefined;
  return owner?.uid !== undefined && uids.has(owner.uid);
};

async function getTarget(kube: KubeReader, ws: WorkloadSpread): Promise<Workload | undefined> {
  const ref = ws.spec.targetRef;
  try {
    return await kube.get<Workload>(ref.apiVersion, ref.kind, ref.name, ws.metadata?.namespace);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

const KNOWN = new Set(['apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', 'batch/Job', 'apps.kruise.io/CloneSet', 'apps.kruise.io/StatefulSet']);

/** The target's pods and the version key of its current template. */
async function podsOf(kube: KubeReader, target: Workload, namespace: string): Promise<{ pods: Pod[]; latestVersion?: string }> {
  const all = (await kube.list<KubeObject>('v1', 'Pod', { namespace })).items as unknown as Pod[];
  if (target.kind !== 'Deployment') {
    const latest = target.kind === 'ReplicaSet' ? target.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] : target.kind === 'CloneSet' ? VERSION_IGNORED : undefined;
    return { pods: all.filter((p) => ownedBy(p, new Set([uidOf(target)]))), ...(latest ? { latestVersion: latest } : {}) };
  }
  const sets = (await kube.list<Workload>('apps/v1', 'ReplicaSet', { namespace })).items.filter((rs) => ownedBy(rs, new Set([uidOf(target)])));
  const revision = (rs: Workload) => Number(rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
  const newest = [...sets].sort((a, b) => revision(b) - revision(a))[0];
  const latest = newest?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL];
  return { pods: all.filter((p) => ownedBy(p, new Set(sets.map(uidOf)))), ...(latest ? { latestVersion: latest } : {}) };
}

/** The webhook entries the cluster status holds, for a ledger that has none. */
export function entriesFromStatus(ws: WorkloadSpread): Record<string, SubsetEntries> {
  return Object.fromEntries(
    Object.entries(ws.status?.versionedSubsetStatuses ?? {}).map(([version, subsets]) => [
      version,
      Object.fromEntries(subsets.map((s) => [s.name, { creatingPods: timesToMs(s.creatingPods as Record<string, unknown>), deletingPods: timesToMs(s.deletingPods as Record<string, unknown>) }])),
    ]),
  );
}

const ledgerRef = (ws: WorkloadSpread): LedgerRef => ({ kind: WORKLOADSPREAD_LEDGER, namespace: ws.metadata?.namespace ?? '', name: ws.metadata?.name ?? '' });

async function readHeld(ws: WorkloadSpread, ledgers: Ledgers | undefined): Promise<WorkloadSpreadLedger | undefined> {
  const held = ledgers ? await ledgers.apply<WorkloadSpreadLedger | null>(ledgerRef(ws), 'read', {}) : undefined;
  return held && held.uid === String(ws.metadata?.uid ?? '') ? held : undefined;
}

/** Subset names marked Schedulable=False where the webhook looks (see SpreadObserved.markedUnschedulable). */
export function markedUnschedulable(ws: WorkloadSpread, held: WorkloadSpreadLedger | undefined, fromLedger: boolean): string[] {
  const statuses = fromLedger ? Object.values(held?.versions ?? {}).flat() : (ws.status?.subsetStatuses ?? []);
  return [...new Set(statuses.filter((s) => !isSchedulable(s)).map((s) => s.name))];
}

/** The nodes, listed only when some scheduled pod is not placed by `ws` yet (it may be adopted). */
async function nodesOfStrays(kube: KubeReader, ws: WorkloadSpread, pods: readonly Pod[]): Promise<Map<string, Node>> {
  const stray = pods.some((p) => p.spec?.nodeName && parseMatchedWorkloadSpread(p)?.name !== ws.metadata?.name);
  if (!stray) return new Map();
  const nodes = (await kube.list<KubeObject>('v1', 'Node')).items as unknown as Node[];
  return new Map(nodes.map((n) => [n.metadata.name, n]));
}

async function observeOne(kube: KubeReader, ws: WorkloadSpread, now: number, opts: ObserveOptions): Promise<SpreadObserved> {
  const namespace = ws.metadata?.namespace ?? '';
  const ref = ws.spec.targetRef;
  const target = await getTarget(kube, ws);
  const group = (ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '') ?? '';
  const supported = target !== undefined && KNOWN.has(`${group}/${ref.kind}`);
  const { pods: owned, latestVersion } = supported ? await podsOf(kube, target, namespace) : { pods: [] as Pod[] };
  const selected = owned.filter((p) => isSelectedByFilter(ws.spec.targetFilter, p.metadata?.labels));
  const replicas = workloadReplicas(target, ws.spec.targetFilter, { workloads: [] });
  const { pods, adoptions } = adoptExistingPods(ws, selected, replicas, await nodesOfStrays(kube, ws, selected));
  const counts = countSubsets(ws, pods, replicas, now, opts.recoverAfterMs);
  const req: ResyncRequest = {
    uid: String(ws.metadata?.uid ?? ''),
    ...(ws.metadata?.generation === undefined ? {} : { generation: ws.metadata.generation }),
    workloadReplicas: { value: replicas, observedAt: now },
    versions: counts.versions,
    initial: counts.initial,
    pods: counts.pods,
    adopt: entriesFromStatus(ws),
  };
  const held = await readHeld(ws, opts.ledgers);
  // The ledger as the edge holds it with this observation's resync applied (pure, local).
  const ledger = resyncLedger(held, req, now);
  const fromLedger = opts.ledgers !== undefined && ref.kind !== 'StatefulSet';
  return {
    ws, supported, pods, workloadReplicas: replicas, ...(latestVersion ? { latestVersion } : {}), counts, ledger, ...(held ? { held } : {}),
    markedUnschedulable: markedUnschedulable(ws, held, fromLedger), adoptions,
    ...(opts.ledgers ? { resync: { ref: ledgerRef(ws), request: req } } : {}),
  };
}

const inScope = (scope: Scope, ws: WorkloadSpread) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === ws.metadata?.name && (o.namespace === undefined || o.namespace === ws.metadata?.namespace));

export async function observeWorkloadSpreads(kube: KubeReader, scope: Scope, opts: ObserveOptions = {}): Promise<WorkloadSpreadObserved> {
  const now = (opts.now ?? Date.now)();
  const all = (await kube.list<KubeObject>(WS_API_VERSION, WS_KIND)).items as unknown as WorkloadSpread[];
  const live = all.filter((ws) => inScope(scope, ws) && ws.spec?.targetRef && !ws.metadata?.deletionTimestamp);
  return { now, spreads: await Promise.all(live.map((ws) => observeOne(kube, ws, now, opts))) };
}

