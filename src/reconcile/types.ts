// The reconciler contract: observe (LISTs, no writes) → decide (pure: observed state → Plan)
// → act (the runtime applies the plan). Level-triggered: decide never asks what changed, it
// compares desired with observed. Every write says why, carries a precondition where the API
// allows, and uses deterministic names, so a killed or doubled run converges.
import type { KubeObject } from '../kube/http.js';
import type { LedgerRef, Ledgers } from '../edge-state/ledger.js';

/** Reads a reconciler may make. Implemented over the API server by KubeHttp (LIST-based). */
export interface KubeReader {
  /** `readYourWrites`: at least as new as the client's own writes, from the API server's watch cache when it can (src/kube/own-writes-floor.ts); otherwise from etcd. */
  list<T extends KubeObject>(apiVersion: string, kind: string, opts?: { namespace?: string; labelSelector?: string; fieldSelector?: string; readYourWrites?: boolean }): Promise<{ items: T[]; resourceVersion: string }>;
  get<T extends KubeObject>(apiVersion: string, kind: string, name: string, namespace?: string): Promise<T>;
}

/** Which objects an invocation covers: everything (a full resync), or named objects (a trigger). */
export type Scope = { kind: 'all' } | { kind: 'objects'; objects: { namespace?: string; name: string }[] };

/** Identifies the object a write targets. */
export type ObjectRef = { apiVersion: string; kind: string; name: string; namespace?: string };

/**
 * One API write, with the reason it is needed (shown in dry-run plans and Events).
 * - create: fails with AlreadyExists if the (deterministic) name is taken → the next run decides afresh.
 * - update: full replace; `object.metadata.resourceVersion` is the precondition.
 * - patch: merge/json/strategic patch; a json patch may start with a `test` op as precondition.
 * - delete: with optional uid/resourceVersion preconditions and propagation policy; NotFound means already done.
 */
export type Write = (
  | { op: 'create'; object: KubeObject }
  | { op: 'update'; object: KubeObject }
  | {
      op: 'patch';
      target: ObjectRef;
      patch: unknown;
      patchType: 'merge' | 'json' | 'strategic';
      /** A subresource of the target other than status (which goes through StatusWrite), e.g. `ephemeralcontainers`. */
      subresource?: string;
    }
  | {
      op: 'delete';
      target: ObjectRef;
      preconditions?: { uid?: string; resourceVersion?: string };
      /** Unset: the resource's default (Orphan for batch/v1 Jobs, whose pods would then outlive them). */
      propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
    }
) & {
  reason: string;
  slowStart?: SlowStart;
  /** The Event that narrates this write: recorded with the plan's Events, only if the write is applied. */
  event?: EventNote;
  /**
   * The Event told if the API server refuses this write (a conflict is no failure): its message
   * is this one's followed by the server's error message, as Go prints the error (e.g. OpenKruise's
   * `FailedCreate` "Error creating: <err>").
   */
  failureEvent?: EventNote;
};

/**
 * Writes sent in slow-start batches (OpenKruise's slowStartBatch): the units of one `group` go in
 * batches of 1, 2, 4, … units; a unit's writes go in plan order and stop at its first failure;
 * after a batch with a failed unit the rest of the group is not sent (a quota or admission error
 * costs one call, not hundreds). E.g. a pod's PVCs then the pod, one unit per pod.
 */
export type SlowStart = { group: string; unit: string };

/** A status update through the status subresource (merge patch of `status`). */
export type StatusWrite = {
  target: ObjectRef;
  /** The new status; the runtime sets observedGeneration when `observedGeneration` is given. */
  status: Record<string, unknown>;
  /** The object's resourceVersion when observed: the write is skipped on conflict. */
  resourceVersion?: string;
  /**
   * Labels and annotations to set (or, null, remove: merge-patch semantics) in the same write. The
   * pods/status subresource accepts them (only spec and owner references are kept from the stored
   * pod), which saves a pod write.
   */
  metadata?: { labels?: Record<string, string | null>; annotations?: Record<string, string | null> };
  /**
   * An update of the same object to apply right after this write succeeds, preconditioned on the
   * resourceVersion this write produced: nobody wrote in between, so it is as safe as a fresh read.
   * `then.object` is the object as it must be after both writes: the PUT replaces labels and
   * annotations too, so it carries `metadata`'s; its status is ignored (the main resource's is kept).
   */
  then?: Extract<Write, { op: 'update' }>;
  /**
   * Only if every write of the plan was applied: a status that records what the writes did (a
   * CronJob's lastScheduleTime once its child exists) must not be written when one failed or lost
   * a race. Skipped, it counts as a conflict: the next run decides afresh.
   */
  afterWrites?: boolean;
  /**
   * Only after every status write without this flag was applied: e.g. a pod taken out of service
   * in the room that pods put back in service by this same run make, so that maxUnavailable holds
   * even if one of those writes fails or the run dies in between. Skipped, it counts as a conflict.
   */
  afterStatus?: boolean;
  reason: string;
};

/** A Kubernetes Event to record about an object (OpenKruise's reasons and messages where it has them). */
export type EventNote = {
  regarding: ObjectRef & { uid?: string };
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
};

/**
 * An operation on an edge ledger (src/edge-state/ledger.ts), e.g. resyncing a budget with what the
 * reconciler observed. Applied before the API writes, in plan order, so that a status showing an
 * allowance never runs ahead of the edge that enforces it; a run without ledgers (no edge
 * configured) skips them and says so.
 */
export type LedgerWrite = { ref: LedgerRef; op: string; request: unknown; reason: string };

export type Plan = {
  writes: Write[];
  status: StatusWrite[];
  events: EventNote[];
  ledgers?: LedgerWrite[];
  /** Ask to be invoked again after this long (e.g. to retry or expire something). */
  requeueAfterMs?: number;
  /**
   * A time the objects' own specs name, as a delay (a CronJob's next scheduled run). Unlike
   * requeueAfterMs it is never left to a scheduled resync: on Lambda it is sent however far off
   * (src/aws/requeue.ts), and a wake-up of this kind is passed on only by a run that wrote
   * something, so duplicates sent by several runs end at their due time instead of multiplying.
   */
  scheduledAfterMs?: number;
};

export const emptyPlan = (): Plan => ({ writes: [], status: [], events: [] });

/** What the runtime lends observe besides the API server. */
export type ObserveContext = {
  /** The edge's ledgers (reads only: writes go in the plan), when the run has an edge. */
  ledgers?: Ledgers;
  /** The API server's version (GET /version), for a request whose shape changed between releases. */
  serverVersion?: () => Promise<ServerVersion>;
};

/** What GET /version answers, in part: minor versions read like "20" or "20+" (vendor builds). */
export type ServerVersion = { major?: string; minor?: string; gitVersion?: string };

export type Trigger = {
  apiVersion: string;
  kind: string;
  /** The reconciled objects a change to this one concerns; none means no run. Absent: a full run. */
  objectsOf?: (changed: KubeObject) => { namespace?: string; name: string }[];
};

export interface Reconciler<O = unknown> {
  /** The kind reconciled (for leases, logs, triggers), e.g. 'ResourceDistribution'. */
  kind: string;
  /** The apiVersion of that kind, e.g. 'apps.kruise.io/v1alpha1'. */
  apiVersion: string;
  /** LISTs what decide needs. No writes. */
  observe(kube: KubeReader, scope: Scope, ctx?: ObserveContext): Promise<O>;
  /** Pure: observed state and the time → the plan. */
  decide(observed: O, now: Date): Plan;
  /**
   * Other kinds whose changes call for a run: a full one (e.g. Namespaces for ResourceDistribution),
   * or, with `objectsOf`, one for just the objects a changed one names (a pod → its PUB).
   */
  triggers?: Trigger[];
}

/** What one invocation did, for logs, metrics and tests. */
export type RunReport = {
  reconciler: string;
  /** false when another holder had the lease, or in dry-run. */
  acted: boolean;
  dryRun: boolean;
  plan: Plan;
  applied: number;
  /** Writes skipped because a precondition failed (the next run decides afresh). */
  conflicts: number;
  failed: { write: string; error: string }[];
  apiCalls: number;
  durationMs: number;
  /**
   * The versions this run's writes produced (see own-writes.ts), given only when every write of
   * the plan went through: after a conflict, a failure or a stop, their change events must run it.
   */
  wrote?: string[];
};
