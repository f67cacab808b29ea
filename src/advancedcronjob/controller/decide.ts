// Pure: the AdvancedCronJobs observed and the time → the plan. Per AdvancedCronJob, as
// OpenKruise's reconcileJob/reconcileBroadcastJob and the upstream CronJob controller: prune
// finished children beyond the history limits; unless paused, find the most recent scheduled time
// not yet run (from the stored status.lastScheduleTime, see due.ts); apply the concurrency policy;
// create `<name>-<unix seconds>`; record lastScheduleTime once the child exists; wake up at the
// next scheduled time.
import { emptyPlan, type EventNote, type Plan, type Write } from '../../reconcile/types.js';
import { dueRun, MAX_MISSED } from '../due.js';
import { parseSchedule } from '../schedule.js';
import { ACJ_API_VERSION, ACJ_KIND, childApiVersion, childKindOf, type AdvancedCronJobLike, type Child, type ChildKind } from '../types.js';
import { activeRef, beyondLimit, childName, finishedAs, newChild, rfc3339 } from './children.js';

export type AdvancedCronJobObserved = {
  cronJobs: AdvancedCronJobLike[];
  /** Children (Jobs and BroadcastJobs) by the uid of the AdvancedCronJob that controls them, with their kind. */
  children: Map<string, { kind: ChildKind; child: Child }[]>;
};

/** A create that fails is tried again this soon, not only at the next scheduled time. */
export const CREATE_RETRY_MS = 10_000;

export function decideAdvancedCronJobs(o: AdvancedCronJobObserved, now: Date): Plan {
  const plan = emptyPlan();
  let next: number | undefined;
  let retry: number | undefined;
  for (const acj of o.cronJobs) {
    const after = decideOne(acj, o.children.get(acj.metadata.uid ?? '') ?? [], now, plan);
    if (after.next !== undefined) next = Math.min(next ?? Infinity, after.next);
    if (after.retry !== undefined) retry = Math.min(retry ?? Infinity, after.retry);
  }
  // The next scheduled time is named by the spec (never left to a resync); a create's retry is not.
  if (next !== undefined) plan.scheduledAfterMs = next;
  if (retry !== undefined) plan.requeueAfterMs = retry;
  return plan;
}

// Written in the version read: a v1alpha1 status write would drop (prune) v1beta1's imageListPullJobTemplate.
const ref = (acj: AdvancedCronJobLike) => ({ apiVersion: acj.apiVersion ?? ACJ_API_VERSION, kind: ACJ_KIND, name: acj.metadata.name ?? '', namespace: acj.metadata.namespace });
const word = (kind: ChildKind) => kind.toLowerCase();

function note(acj: AdvancedCronJobLike, type: EventNote['type'], reason: string, message: string): EventNote {
  return { regarding: { ...ref(acj), ...(acj.metadata.uid ? { uid: acj.metadata.uid } : {}) }, type, reason, message };
}

function deleteChild(acj: AdvancedCronJobLike, kind: ChildKind, child: Child, reason: string): Write {
  const name = child.metadata.name ?? '';
  return {
    op: 'delete',
    target: { apiVersion: childApiVersion(kind), kind, name, namespace: child.metadata.namespace },
    ...(child.metadata.uid ? { preconditions: { uid: child.metadata.uid } } : {}),
    propagationPolicy: 'Background',
    reason,
    event: note(acj, 'Normal', 'SuccessfulDelete', `Deleted ${word(kind)} ${name}`),
  };
}

type Status = { type: ChildKind; active: Record<string, string>[]; lastScheduleTime?: string };

function sameStatus(acj: AdvancedCronJobLike, s: Status): boolean {
  const old = acj.status ?? {};
  const key = (refs: readonly { name?: string; uid?: string }[] | undefined) => (refs ?? []).map((r) => `${r.name}/${r.uid ?? ''}`).join(',');
  const when = (t: string | undefined) => (t === undefined ? undefined : Date.parse(t));
  return old.type === s.type && key(old.active) === key(s.active) && when(old.lastScheduleTime) === when(s.lastScheduleTime);
}

function writeStatus(acj: AdvancedCronJobLike, s: Status, plan: Plan, reason: string, afterWrites = false): void {
  if (!afterWrites && sameStatus(acj, s)) return;
  plan.status.push({
    target: ref(acj),
    status: { type: s.type, active: s.active.length ? s.active : null, lastScheduleTime: s.lastScheduleTime ?? null },
    ...(acj.metadata.resourceVersion ? { resourceVersion: acj.metadata.resourceVersion } : {}),
    ...(afterWrites ? { afterWrites } : {}),
    reason,
  });
}

/** The plan for one AdvancedCronJob; returns when to run again (ms): its next scheduled time, and a retry after a create. */
function decideOne(acj: AdvancedCronJobLike, all: readonly { kind: ChildKind; child: Child }[], now: Date, plan: Plan): { next?: number; retry?: number } {
  const spec = acj.spec;
  const kind = childKindOf(spec);
  const children = all.filter((c) => c.kind === kind).map((c) => c.child);
  const live = children.filter((c) => !c.metadata.deletionTimestamp);
  const active = live.filter((c) => finishedAs(c, kind) === undefined);
  const succeeded = live.filter((c) => finishedAs(c, kind) === 'Complete');
  const failed = live.filter((c) => finishedAs(c, kind) === 'Failed');
  const status: Status = { type: kind, active: active.map((c) => activeRef(c, kind)), ...(acj.status?.lastScheduleTime ? { lastScheduleTime: acj.status.lastScheduleTime } : {}) };

  for (const c of beyondLimit(succeeded, spec.successfulJobsHistoryLimit)) plan.writes.push(deleteChild(acj, kind, c, `beyond successfulJobsHistoryLimit ${spec.successfulJobsHistoryLimit}`));
  for (const c of beyondLimit(failed, spec.failedJobsHistoryLimit)) plan.writes.push(deleteChild(acj, kind, c, `beyond failedJobsHistoryLimit ${spec.failedJobsHistoryLimit}`));

  if (spec.paused) {
    writeStatus(acj, status, plan, 'paused: children observed');
    return {};
  }
  const parsed = parseSchedule(spec.schedule ?? '', spec.timeZone ?? undefined);
  if (!parsed.ok) {
    const zoneProblem = parsed.error.startsWith('provided bad location');
    plan.events.push(zoneProblem
      ? note(acj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(spec.timeZone ?? '')}: ${parsed.error}`)
      : note(acj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule ?? '')} : ${parsed.error}`));
    writeStatus(acj, status, plan, 'children observed (the schedule is invalid)');
    return {};
  }
  const lastScheduleTime = acj.status?.lastScheduleTime ? new Date(acj.status.lastScheduleTime) : undefined;
  const created = new Date(acj.metadata.creationTimestamp ?? now.toISOString());
  const deadline = spec.startingDeadlineSeconds ?? undefined;
  const due = dueRun(parsed.schedule, { ...(lastScheduleTime ? { lastScheduleTime } : {}), created, ...(deadline !== undefined ? { startingDeadlineSeconds: deadline } : {}), now });
  const next = due.next ? { next: Math.max(0, due.next.getTime() - now.getTime()) } : {};
  if (due.missedCount > MAX_MISSED) {
    plan.events.push(note(acj, 'Warning', 'TooManyMissedTimes', `too many missed start times: >${MAX_MISSED}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`));
  }
  const missed = due.missed;
  if (!missed || due.tooLate) {
    if (missed) plan.events.push(note(acj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc3339(missed)}`));
    writeStatus(acj, status, plan, 'children observed');
    return next;
  }
  const name = childName(acj.metadata.name ?? '', missed);
  if (children.some((c) => c.metadata.name === name)) {
    // Created by a run whose status write did not land: record it, never create it again.
    writeStatus(acj, { ...status, lastScheduleTime: rfc3339(missed) }, plan, `${name} exists: record its scheduled time`);
    return next;
  }
  if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    plan.events.push(note(acj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid'));
    writeStatus(acj, status, plan, 'children observed (Forbid: a run is active)');
    return next;
  }
  let stillActive = status.active;
  if (spec.concurrencyPolicy === 'Replace') {
    for (const c of active) plan.writes.push(deleteChild(acj, kind, c, `concurrencyPolicy Replace: ${name} replaces it`));
    stillActive = [];
  }
  const child = newChild(acj, kind, missed);
  plan.writes.push({
    op: 'create',
    object: child,
    reason: `scheduled at ${rfc3339(missed)}`,
    event: note(acj, 'Normal', 'SuccessfulCreate', `Created ${word(kind)} ${name}`),
  });
  writeStatus(acj, { ...status, active: [...stillActive, activeRef(child as Child, kind)], lastScheduleTime: rfc3339(missed) }, plan, `${name} created`, true);
  return { ...next, retry: CREATE_RETRY_MS };
}
