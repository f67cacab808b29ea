// One webhook call: parse the review, run the endpoint's matching handlers in order, turn their
// verdicts into one AdmissionReview. The framework decides what happens when state is missing or
// stale, when a handler throws or is slow, and never answers with a 5xx or throws: the API
// server treats those as call failures, which for failurePolicy Fail blocks every pod creation.
import { deepFreeze } from '../kube/frozen.js';
import { jsonPatch } from './patch.js';
import { ANSWER_MARGIN_MS, attemptUntilSettled } from './attempt-until-settled.js';
import { admissionReview, type AdmissionReviewResponse, type Outcome } from './respond.js';
import { parseReview, type ParsedReview } from './review.js';
import type { AdmissionInput, HandlerMatch, RegisteredHandler, StateNeeds, Verdict, WebhookEndpoint } from './types.js';
import { snapshotAge, type ClusterState, type Snapshot } from '../edge-state/contracts.js';
import { recordAdmission, recordStateRead } from '../telemetry/record.js';
import { admissionRecord } from './admission-telemetry.js';

export type AdmitOptions = {
  clusterId: string;
  state: ClusterState;
  /** When the request arrived (ms since epoch): handlers' clock and the staleness reference. */
  now: number;
  /** Time allowed for all handlers and state reads of this request, in ms. */
  budgetMs: number;
};

/** What was admitted, so the caller can publish a change event (absent for unparseable reviews). */
export type Admitted = {
  apiVersion: string;
  group: string;
  kind: string;
  /** The resource and its group (for a subresource, what it belongs to). */
  resource: { group: string; resource: string };
  subResource?: string;
  /** The object as admitted (after this endpoint's mutations), and the existing one. */
  object?: unknown;
  oldObject?: unknown;
  name: string;
  namespace: string;
  operation: AdmissionInput['operation'];
  dryRun: boolean;
  allowed: boolean;
  /**
   * A PUT, not a patch. Clients send the resourceVersion they read with it, so should another
   * write commit first, the API server refuses it with a conflict instead of applying it again to
   * the newer object (as it does a patch). A PUT sent without a resourceVersion is applied again
   * too, but the review cannot tell it apart (the API server fills the version in), and it is rare.
   */
  conditional?: true;
};

/** Why a handler did not answer from current state: its state was stale or missing, or it (or its state read) timed out or failed. */
export type FallbackReason = 'stale' | 'missing' | 'timeout' | 'error';

/** One fallback a request took, for the edge's counters. */
export type FallbackTaken = { feature: string; reason: FallbackReason };

/** An AdmissionReview (HTTP 200), or an error for a body that is not one (HTTP 400 or 413). */
export type AdmitResult =
  | { status: 200; body: AdmissionReviewResponse; admitted?: Admitted; fallbacks?: FallbackTaken[] }
  | { status: 400 | 413; body: { error: string }; admitted?: undefined; fallbacks?: undefined };

/** Longest thrown-error message passed on to the user. */
const MAX_ERROR_MESSAGE = 512;

export async function admit(endpoint: WebhookEndpoint, body: string, opts: AdmitOptions): Promise<AdmitResult> {
  const started = performance.now();
  const result = await decideReview(endpoint, body, opts);
  recordAdmission(admissionRecord(endpoint.path, opts.clusterId, result, performance.now() - started));
  return result;
}

async function decideReview(endpoint: WebhookEndpoint, body: string, opts: AdmitOptions): Promise<AdmitResult> {
  let parsed: ParsedReview;
  try {
    parsed = parseReview(body, opts.clusterId);
  } catch (e) {
    return { status: 400, body: { error: `could not read the review: ${errorMessage(e)}` } };
  }
  if (!parsed.ok) {
    if (parsed.uid === undefined) return { status: parsed.tooLarge ? 413 : 400, body: { error: parsed.message } };
    return { status: 200, body: admissionReview(parsed.apiVersion, parsed.uid, { allowed: false, code: 400, message: parsed.message }) };
  }
  const { apiVersion, input } = parsed;
  const taken: FallbackTaken[] = [];
  try {
    const outcome = await decide(endpoint, input, opts, taken);
    const fallbacks = taken.length ? { fallbacks: taken } : {};
    return { status: 200, body: admissionReview(apiVersion, input.uid, outcome), admitted: admittedOf(input, outcome.allowed), ...fallbacks };
  } catch (e) {
    // A bug, or an object the runtime cannot freeze or diff (nested deeper than the stack allows).
    return { status: 200, body: admissionReview(apiVersion, input.uid, internalError(endpoint, `${endpoint.name}: admission failed: ${errorMessage(e)}`)) };
  }
}

function admittedOf(input: AdmissionInput, allowed: boolean): Admitted {
  const gv = input.kind.group ? `${input.kind.group}/${input.kind.version}` : input.kind.version;
  const obj = (input.object ?? input.oldObject) as { metadata?: { name?: string } } | undefined;
  return {
    apiVersion: gv,
    group: input.kind.group,
    kind: input.kind.kind,
    resource: { group: input.resource.group, resource: input.resource.resource },
    ...(input.subResource ? { subResource: input.subResource } : {}),
    ...(input.object === undefined ? {} : { object: input.object }),
    ...(input.oldObject === undefined ? {} : { oldObject: input.oldObject }),
    name: input.name ?? obj?.metadata?.name ?? '',
    namespace: input.namespace,
    operation: input.operation,
    dryRun: input.dryRun,
    allowed,
    ...(isConditionalPut(input) ? { conditional: true as const } : {}),
  };
}

/** An UPDATE sent as a PUT: its options are UpdateOptions (a patch's are PatchOptions). */
function isConditionalPut(input: AdmissionInput): boolean {
  return input.operation === 'UPDATE' && (input.options as { kind?: unknown } | undefined)?.kind === 'UpdateOptions';
}

/** Whether a handler registered with `match` sees this request. */
export function handlerMatches(match: HandlerMatch, input: AdmissionInput): boolean {
  const fits = (want: string | undefined, got: string) => !want || want === got;
  return (
    fits(match.group, input.kind.group) &&
    fits(match.version, input.kind.version) &&
    fits(match.kind, input.kind.kind) &&
    fits(match.resource, input.resource.resource) &&
    (match.subResource === undefined || match.subResource === (input.subResource ?? '')) &&
    (!match.operations?.length || match.operations.includes(input.operation))
  );
}

async function decide(endpoint: WebhookEndpoint, input: AdmissionInput, opts: AdmitOptions, taken: FallbackTaken[]): Promise<Outcome> {
  const handlers = endpoint.handlers.filter((h) => handlerMatches(h.match, input));
  if (handlers.length === 0) return { allowed: true };

  fillNamespace(input);
  // Handlers share one read-only request instead of each getting a deep copy (a third of the
  // framework's time on a pod with sidecars): a handler that writes to it throws, and its failure
  // goes through the fallbacks below, so neither the diff baseline nor the next handler can be
  // changed behind the framework's back.
  deepFreeze(input);
  const deadline = Date.now() + opts.budgetMs;
  const state = memoized(opts.state);
  // Each handler's declared needs (and what it says it reads) are read before long anyway. Asking
  // for all of them now, in one tick, lets a holder that answers per call (the Worker's cluster
  // object: one round trip, about 0.2 ms of CPU, per call) answer them together instead of once
  // per handler. A failed read surfaces where its handler's gate (or the handler) awaits it.
  for (const name of new Set(handlers.flatMap((h) => [...(h.needs?.collections ?? []), ...(h.reads ?? [])]))) void state.collection(name).catch(() => undefined);
  const ctx = { now: opts.now, deadline };
  const mutating = endpoint.type === 'mutating' && isObject(input.object);
  const baseline = input.object;
  let current = baseline;
  const warnings: string[] = [];

  for (const h of handlers) {
    if (h.needs) {
      const fallback = await checkState(endpoint, h, h.needs, state, opts, deadline - Date.now());
      if (fallback) taken.push({ feature: h.feature, reason: fallback.reason });
      if (fallback && 'deny' in fallback) return { ...fallback.deny, warnings };
      if (fallback && 'skip' in fallback) {
        warnings.push(fallback.skip);
        continue;
      }
      if (fallback) warnings.push(fallback.lastKnown);
    }
    const view = current === baseline ? input : Object.freeze({ ...input, object: current });
    const run = await within(() => h.handle(view, state, ctx), deadline - Date.now());
    const verdict = run.ok ? checkVerdict(run.value, mutating) : undefined;
    if (verdict === undefined || typeof verdict === 'string') {
      const why = run.ok ? `returned an invalid verdict: ${verdict}` : run.timedOut ? undefined : `failed: ${errorMessage(run.error)}`;
      taken.push({ feature: h.feature, reason: why === undefined ? 'timeout' : 'error' });
      const fallback = handlerFailure(endpoint, h, opts.budgetMs, why);
      if ('deny' in fallback) return { ...fallback.deny, warnings };
      warnings.push(fallback.skip);
      continue;
    }
    if (verdict.warnings) warnings.push(...verdict.warnings);
    if (!verdict.allowed) {
      const { code, message, reason } = verdict;
      return { allowed: false, code, message, ...(reason ? { reason } : {}), warnings };
    }
    // Frozen too, for the handlers after it; subtrees it shares with the request already are.
    if (mutating && verdict.object !== undefined) current = deepFreeze(verdict.object);
  }

  const ops = mutating && current !== baseline ? jsonPatch(baseline as object, current as object) : [];
  return { allowed: true, patch: ops, warnings };
}

/**
 * OpenKruise decodes the object and fills an empty metadata.namespace from the request before its
 * handlers run (../shared/SEMANTICS.md §1.2). The filled object is also the diff baseline, so the fill
 * alone never becomes a patch operation.
 */
function fillNamespace(input: AdmissionInput): void {
  if (!input.namespace || !isObject(input.object)) return;
  const metadata = input.object.metadata;
  if (isObject(metadata) && !metadata.namespace) metadata.namespace = input.namespace;
}

type Denial = Extract<Outcome, { allowed: false }>;
/** What happens instead of a handler's verdict: the request is refused, or the handler skipped. */
type Fallback = { deny: Denial } | { skip: string };
/** A state check's finding: a fallback, or stale state answered from with this warning. */
type StateFallback = (Fallback | { lastKnown: string }) & { reason: FallbackReason };

/** Whether the state a handler needs is there and fresh enough (undefined); if not, its fallback. */
async function checkState(
  endpoint: WebhookEndpoint,
  h: RegisteredHandler,
  needs: StateNeeds,
  state: MemoizedState,
  opts: AdmitOptions,
  remainingMs: number,
): Promise<StateFallback | undefined> {
  const read = await within(() => Promise.all(needs.collections.map((name) => state.collection(name))), remainingMs);
  if (!read.ok && read.timedOut) return { reason: 'timeout', ...handlerFailure(endpoint, h, opts.budgetMs, undefined, 'reading its state') };
  if (!read.ok) {
    const problem = `state ${needs.collections.map((c) => `"${c}"`).join(', ')} could not be read: ${errorMessage(read.error)}`;
    return { reason: 'error', ...withoutState(h, needs, problem) };
  }
  let snaps = read.value;
  // Refusing for want of state waits first, within the request's time, for the first sync (a new
  // or restarted edge is pushed within seconds); skipping a handler does not wait.
  if (snaps.some((s) => !s) && !toleratesNoAnswer(needs)) snaps = await awaitFirstSync(needs.collections, snaps, state, Date.now() + remainingMs - HANDLER_RESERVE_MS);
  const missing = needs.collections.find((_, i) => !snaps[i]);
  if (missing !== undefined) return { reason: 'missing', ...withoutState(h, needs, `state collection "${missing}" is missing (never synced for this cluster)`) };
  const stale = needs.collections.flatMap((name, i) => staleness(name, snaps[i]!, opts.now, needs.maxStalenessMs) ?? []);
  if (stale.length === 0) return undefined;
  if (needs.fallback === 'last-known') return { reason: 'stale', lastKnown: `${h.feature}: answered from the last known state: ${stale.join('; ')}` };
  return { reason: 'stale', ...withoutState(h, needs, stale.join('; ')) };
}

/** Left to a handler after waiting for its state: the rest of the budget is the wait's. */
const HANDLER_RESERVE_MS = 250;

/** The snapshots, read again until none is missing or `until` (ms since epoch) comes. */
async function awaitFirstSync(names: readonly string[], held: readonly (Snapshot | undefined)[], state: MemoizedState, until: number): Promise<(Snapshot | undefined)[]> {
  let snaps = [...held];
  try {
    // attemptUntilSettled keeps its own margin for the answer; the rest of the reserve is the handler's.
    await attemptUntilSettled(async () => {
      snaps = await Promise.all(names.map((name, k) => snaps[k] ?? state.reread(name)));
      return snaps;
    }, (s) => s.every(Boolean), until + ANSWER_MARGIN_MS);
  } catch {
    // A failed read ends the wait; what was read before it stands.
  }
  return snaps;
}

/** The fallback for a handler that has no usable state: skipped with a warning, or refused (503). */
function withoutState(h: RegisteredHandler, needs: StateNeeds, problem: string): Fallback {
  if (toleratesNoAnswer(needs)) return { skip: `${h.feature}: skipped: ${problem}` };
  const message = `${h.feature}: ${problem}; the request cannot be checked until the cluster's state is synced, retry shortly`;
  return { deny: { allowed: false, code: 503, message } };
}

/** Whether a handler without state, or one that failed, is skipped rather than the request refused. */
function toleratesNoAnswer(needs: StateNeeds | undefined): boolean {
  return needs?.fallback === 'allow' || (needs?.fallback === 'last-known' && (needs.withoutState ?? 'allow') === 'allow');
}

/** "state collection "x" is stale (…)" when the snapshot is older than the limit. */
function staleness(name: string, snap: Snapshot, now: number, maxStalenessMs: number): string | undefined {
  const age = snapshotAge(snap, now);
  if (age <= maxStalenessMs) return undefined;
  const shown = Number.isFinite(age) ? `${formatMs(age)} old` : 'of unknown age';
  return `state collection "${name}" is stale (${shown}, limit ${formatMs(maxStalenessMs)})`;
}

/**
 * A handler that threw or misbehaved (`why`), or ran out of time (`why` undefined). Tolerated with
 * a warning when its needs tolerate no answer (allow; last-known unless withoutState deny) or
 * the endpoint ignores failures; else a denial: 500 for an error, 504 for the budget.
 */
function handlerFailure(endpoint: WebhookEndpoint, h: RegisteredHandler, budgetMs: number, why: string | undefined, doing = 'answering'): Fallback {
  const problem = why ?? `exceeded the request's time budget (${formatMs(budgetMs)}) while ${doing}`;
  if (toleratesNoAnswer(h.needs) || endpoint.failurePolicy === 'Ignore') return { skip: `${h.feature}: skipped: ${problem}` };
  return { deny: { allowed: false, code: why === undefined ? 504 : 500, message: `${h.feature}: ${problem}` } };
}

function internalError(endpoint: WebhookEndpoint, message: string): Outcome {
  if (endpoint.failurePolicy === 'Ignore') return { allowed: true, warnings: [`${message}; admitted unchanged (failurePolicy Ignore)`] };
  return { allowed: false, code: 500, message };
}

/** The verdict if it is well-formed, else what is wrong with it (handlers are code too). */
function checkVerdict(v: unknown, mutating: boolean): Verdict | string {
  if (!isObject(v) || typeof v.allowed !== 'boolean') return 'not a verdict';
  const warnings = v.warnings;
  if (warnings !== undefined && !(Array.isArray(warnings) && warnings.every((w) => typeof w === 'string'))) {
    return 'warnings must be strings';
  }
  if (v.allowed) {
    if (mutating && v.object !== undefined && !isObject(v.object)) return 'object must be an object';
    return v as Verdict;
  }
  if (typeof v.code !== 'number' || !Number.isInteger(v.code) || v.code < 400 || v.code > 599) return `code ${String(v.code)} is not a 4xx/5xx status`;
  if (typeof v.message !== 'string') return 'a denial needs a message';
  if (v.reason !== undefined && typeof v.reason !== 'string') return 'reason must be a string';
  return v as Verdict;
}

type Raced<T> = { ok: true; value: T } | { ok: false; timedOut: true } | { ok: false; timedOut: false; error: unknown };

/**
 * Runs `work` against a time limit. Synchronous results need no timer; a promise is raced
 * against one. Work that loses the race keeps running, on the read-only request, and is ignored.
 */
async function within<T>(work: () => T | Promise<T>, ms: number): Promise<Raced<T>> {
  if (ms <= 0) return { ok: false, timedOut: true };
  let result: T | Promise<T>;
  try {
    result = work();
  } catch (error) {
    return { ok: false, timedOut: false, error };
  }
  if (!isThenable(result)) return { ok: true, value: result };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Raced<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, timedOut: true }), ms);
  });
  const settled = Promise.resolve(result).then(
    (value): Raced<T> => ({ ok: true, value }),
    (error): Raced<T> => ({ ok: false, timedOut: false, error }),
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One read per collection per request: the gate and the handler see the same snapshot. Ledgers pass through. */
type MemoizedState = ClusterState & {
  /** Reads a collection again; what the request's handlers see from then on. */
  reread(name: string): Promise<Snapshot | undefined>;
};

function memoized(state: ClusterState): MemoizedState {
  const reads = new Map<string, Promise<Snapshot | undefined>>();
  const read = (name: string) => {
    const p = Promise.resolve().then(() => state.collection(name));
    p.then((snap) => snap && recordStateRead(name, snapshotAge(snap, Date.now())), () => undefined);
    reads.set(name, p);
    return p;
  };
  return {
    ...(state.ledgers ? { ledgers: state.ledgers } : {}),
    collection<T>(name: string, opts?: { reread?: boolean }): Promise<Snapshot<T> | undefined> {
      return ((opts?.reread ? undefined : reads.get(name)) ?? read(name)) as Promise<Snapshot<T> | undefined>;
    },
    reread: read,
  };
}

function isThenable<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A thrown value's message, never its stack. */
function errorMessage(e: unknown): string {
  let text: string;
  try {
    text = e instanceof Error ? e.message : typeof e === 'string' ? e : `non-Error value thrown (${typeof e})`;
  } catch {
    text = 'unreadable error';
  }
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE)}…` : text;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Number((ms / 1000).toFixed(1))}s`;
}
