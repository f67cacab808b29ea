// Applies a Plan: writes, then status writes and events. A failed precondition is counted, not
// retried — the next run observes and decides afresh — and never stops the other writes; only
// `shouldContinue` (e.g. "do we still hold the lease?") does. Nothing here throws for API errors.
import type { KubeHttp, KubeObject } from '../kube/http.js';
import { KubeApiError, isAlreadyExists, isConflict, isNamespaceTerminating, isNotFound } from '../kube/errors.js';
import { recordEvent } from './events.js';
import { versionKey } from './own-writes.js';
import { describeEvent, describeStatus, describeWrite } from './plan-format.js';
import type { EventNote, ObjectRef, Plan, StatusWrite, Write } from './types.js';

export type ApplyOptions = {
  /** Defaults to `component`. */
  fieldManager?: string;
  /** Asked before every API write; false (or a throw) stops the rest of the plan. */
  shouldContinue?: () => Promise<boolean> | boolean;
  now: () => Date;
  /** Event source, e.g. 'kruise-serverless'. */
  component: string;
};

export type ApplyResult = {
  applied: number;
  conflicts: number;
  failed: { write: string; error: string }[];
  /** Steps not attempted because `shouldContinue` said stop. */
  stopped: number;
  /** Slow-start writes not sent because an earlier batch of their group had a failure. */
  skipped: number;
  /** The versions the applied creates, updates, patches and status writes produced (versionKey). */
  written: string[];
};

type Outcome = 'applied' | 'conflict';
/** One API call, or a status write with its chained update (reported through `count`). */
type Step = { label: string; run: (count: (o: Outcome) => void) => Promise<Outcome | void> };

const asObject = (ref: ObjectRef): KubeObject => ({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } });

/**
 * A JSON patch whose `test` op fails is answered 422 with no field causes (kube-apiserver 1.20
 * says only "the server rejected our request"); schema rejections list their causes.
 */
function isFailedJsonPatch(e: unknown): boolean {
  if (!(e instanceof KubeApiError) || e.status !== 422) return false;
  const causes = (e.body as { details?: { causes?: unknown[] } } | undefined)?.details?.causes;
  return !causes?.length;
}

/**
 * The object a write targets changed, or was deleted, since it was observed: like a failed
 * precondition, the next run observes and decides afresh (a gone object has nothing left to change).
 */
export function isStaleTarget(e: unknown): boolean {
  return isConflict(e) || isNotFound(e);
}

async function outcome(call: Promise<unknown>, isPrecondition: (e: unknown) => boolean, isDone: (e: unknown) => boolean = () => false): Promise<Outcome> {
  try {
    await call;
    return 'applied';
  } catch (e) {
    if (isDone(e)) return 'applied';
    // Like a failed precondition: the namespace and all in it are going; the next run sees that.
    if (isPrecondition(e) || isNamespaceTerminating(e)) return 'conflict';
    throw e;
  }
}

/** Called with each object a write answered with. */
type Written = (o: unknown) => void;

async function applyWrite(kube: KubeHttp, w: Write, fieldManager: string, written: Written): Promise<Outcome> {
  const query = { fieldManager };
  switch (w.op) {
    case 'create':
      return outcome(kube.create(w.object, query).then(written), isAlreadyExists);
    case 'update': {
      const { apiVersion, kind, metadata } = w.object;
      if (!apiVersion || !kind || !metadata?.name) throw new Error('update needs apiVersion, kind and metadata.name');
      const path = await kube.pathFor(apiVersion, kind, metadata.namespace, metadata.name);
      return outcome(kube.request('PUT', path, { body: w.object, query }).then(written), isStaleTarget);
    }
    case 'patch':
      return outcome(kube.patch(asObject(w.target), w.patch, w.patchType, w.subresource, query).then(written),
        (e) => isStaleTarget(e) || (w.patchType === 'json' && isFailedJsonPatch(e)));
    case 'delete':
      return outcome(
        kube.delete(asObject(w.target), { ...(w.preconditions ? { preconditions: w.preconditions } : {}), ...(w.propagationPolicy ? { propagationPolicy: w.propagationPolicy } : {}) }),
        isConflict,
        isNotFound,
      );
  }
}

// A resourceVersion inside a merge patch is a precondition the API server checks (409 if stale),
// and unlike a JSON patch `test` op it keeps merge semantics and fails as a Conflict, not a bare 422.
function statusPatch(s: StatusWrite): Record<string, unknown> {
  const metadata = { ...(s.resourceVersion ? { resourceVersion: s.resourceVersion } : {}), ...(s.metadata ?? {}) };
  return Object.keys(metadata).length ? { metadata, status: s.status } : { status: s.status };
}

/** The status write, then its chained update (if any) on the resourceVersion the write produced. */
async function applyStatus(kube: KubeHttp, s: StatusWrite, fieldManager: string, count: (o: Outcome) => void, record: Written): Promise<void> {
  let answer: KubeObject | undefined;
  const first = await outcome(kube.patch<KubeObject>(asObject(s.target), statusPatch(s), 'merge', 'status', { fieldManager }).then((o) => (record(o), (answer = o))), isStaleTarget);
  count(first);
  if (first !== 'applied' || !s.then) return;
  const resourceVersion = answer?.metadata?.resourceVersion;
  const object = { ...s.then.object, metadata: { ...s.then.object.metadata, ...(resourceVersion ? { resourceVersion } : {}) } };
  count(await applyWrite(kube, { ...s.then, object }, fieldManager, record));
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** An API error as Go's StatusError prints it (the Status message); any other error's text. */
function apiErrorText(e: unknown): string {
  const status = e instanceof KubeApiError && typeof e.body === 'object' && e.body !== null ? (e.body as { message?: unknown }).message : undefined;
  return typeof status === 'string' && status !== '' ? status : message(e);
}

/** Writes to different objects are independent; this many go to the API server at once. */
export const WRITE_CONCURRENCY = 8;

const statusKey = (r: ObjectRef): string => `${r.apiVersion}/${r.kind}/${r.namespace ?? ''}/${r.name}`;

function targetKey(w: Write): string {
  if (w.op === 'create' || w.op === 'update') {
    const { apiVersion = '', kind = '', metadata } = w.object;
    return statusKey({ apiVersion, kind, name: metadata?.name ?? '', namespace: metadata?.namespace });
  }
  return statusKey(w.target);
}

/** Steps grouped by the object they touch, in plan order within each group. */
function groupByTarget<T>(items: T[], key: (t: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return [...groups.values()];
}

/** Calls in flight share one answer (the lease renewal behind shouldContinue must not race itself). */
function serialized(fn: () => Promise<boolean> | boolean): () => Promise<boolean> {
  let inFlight: Promise<boolean> | undefined;
  return () => {
    inFlight ??= Promise.resolve().then(fn).catch(() => false).finally(() => { inFlight = undefined; });
    return inFlight;
  };
}

async function pool<T>(items: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

export async function applyPlan(kube: KubeHttp, plan: Plan, opts: ApplyOptions): Promise<ApplyResult> {
  const fieldManager = opts.fieldManager ?? opts.component;
  const result: ApplyResult = { applied: 0, conflicts: 0, failed: [], stopped: 0, skipped: 0, written: [] };
  const record: Written = (o) => {
    const key = versionKey(o as KubeObject | undefined);
    if (key) result.written.push(key);
  };
  const shouldContinue = opts.shouldContinue ? serialized(opts.shouldContinue) : async () => true;
  let stop = false;
  /**
   * Steps in order; with `stopOnFailure`, a failure leaves the rest unsent (reported as failed).
   * `missed` counts the steps (and chained updates) of this call that were not applied.
   */
  const runSteps = async (group: Step[], stopOnFailure = false, missed = { n: 0 }) => {
    for (const [i, step] of group.entries()) {
      if (stop || !(await shouldContinue())) {
        stop = true;
        result.stopped += 1;
        missed.n += 1;
        continue;
      }
      const count = (o: Outcome) => (o === 'applied' ? (result.applied += 1) : ((result.conflicts += 1), (missed.n += 1)));
      try {
        const o = await step.run(count);
        if (o) count(o);
      } catch (e) {
        // Includes broken I/O (no response): recorded like any other failure, the run goes on.
        missed.n += 1;
        result.failed.push({ write: step.label, error: message(e) });
        if (stopOnFailure) {
          for (const rest of group.slice(i + 1)) result.failed.push({ write: rest.label, error: `not sent: ${step.label} failed before it` });
          return;
        }
      }
    }
  };
  // Writes first, then status and events (each concurrently across objects, in plan order per
  // object): status describes what the writes did, events narrate it.
  // Events that narrate writes, by the write's place in the plan: only those applied are told.
  const narrated: (EventNote | undefined)[] = [];
  const writeStep = (w: Write): Step => ({
    label: describeWrite(w),
    run: async () => {
      try {
        const o = await applyWrite(kube, w, fieldManager, record);
        if (o === 'applied' && w.event) narrated[plan.writes.indexOf(w)] = w.event;
        return o;
      } catch (e) {
        if (w.failureEvent) narrated[plan.writes.indexOf(w)] = { ...w.failureEvent, message: w.failureEvent.message + apiErrorText(e) };
        throw e;
      }
    },
  });
  const writeGroups = groupByTarget(plan.writes.filter((w) => !w.slowStart), targetKey).map((g) => g.map(writeStep));
  await pool(writeGroups, WRITE_CONCURRENCY, (g) => runSteps(g));
  for (const units of groupByTarget(plan.writes.filter((w) => w.slowStart), (w) => w.slowStart!.group)) {
    const failed = () => result.failed.length;
    const batches = groupByTarget(units, (w) => w.slowStart!.unit).map((u) => u.map(writeStep));
    for (let start = 0, size = 1; start < batches.length; start += size, size *= 2) {
      const before = failed();
      await pool(batches.slice(start, start + size), WRITE_CONCURRENCY, (u) => runSteps(u, true));
      if (failed() > before) {
        result.skipped += batches.slice(start + size).flat().length;
        break;
      }
    }
  }
  const writesDone = result.conflicts === 0 && result.failed.length === 0 && result.stopped === 0 && result.skipped === 0;
  const statusStep = (s: StatusWrite): Step => ({
    label: describeStatus(s),
    run: async (count) => (s.afterWrites && !writesDone ? 'conflict' : applyStatus(kube, s, fieldManager, count, record)),
  });
  const statusPass = (writes: StatusWrite[], missed?: { n: number }) =>
    pool(groupByTarget(writes, (s) => statusKey(s.target)).map((g) => g.map(statusStep)), WRITE_CONCURRENCY, (g) => runSteps(g, false, missed));
  // afterStatus writes spend the room that status writes to objects of their own kind free (pods
  // put back in service), so they wait for those alone: the workload's own status write, which
  // frees nothing, goes alongside them, and so do the events.
  const later = plan.status.filter((s) => s.afterStatus);
  const laterKinds = new Set(later.map((s) => s.target.kind));
  const first = plan.status.filter((s) => !s.afterStatus);
  const gating = first.filter((s) => laterKinds.has(s.target.kind));
  const alongside = statusPass(first.filter((s) => !laterKinds.has(s.target.kind)));
  const missed = { n: 0 };
  await statusPass(gating, missed);
  const gateHeld = writesDone && missed.n === 0 && !stop;
  if (!gateHeld) result.conflicts += later.length;
  const laterPass = gateHeld ? statusPass(later) : undefined;
  const events = [...narrated.filter((e): e is EventNote => e !== undefined), ...plan.events];
  await Promise.all([alongside, laterPass, runSteps(events.map((e) => ({
    label: describeEvent(e),
    run: async (): Promise<Outcome> => ((await recordEvent(kube, e, { component: opts.component, now: opts.now() })) === 'dropped' ? 'conflict' : 'applied'),
  })))]);
  return result;
}
