// Pure: which scheduled run is due now, as the upstream CronJob controller decides it. Counting
// starts after the stored `status.lastScheduleTime` (or the creation time), never from the children
// that survive: a child a TTL or history limit deleted does not make its run due again
// (kruise#2213, #862, #1488). After downtime only the most recent missed time runs; more than
// MAX_MISSED missed times are reported, found without walking through them all.
import type { Schedule } from './schedule.js';

/** Upstream's threshold for the TooManyMissedTimes warning. */
export const MAX_MISSED = 100;

export type DueInput = {
  lastScheduleTime?: Date;
  created: Date;
  startingDeadlineSeconds?: number;
  now: Date;
};

export type Due = {
  /** The most recent scheduled time not yet run, if any (after the deadline check: see `tooLate`). */
  missed?: Date;
  /** How many scheduled times were missed, counted up to MAX_MISSED + 1. */
  missedCount: number;
  /** `missed` is older than startingDeadlineSeconds allows: it is not run. */
  tooLate: boolean;
  /** The next scheduled time after now (the wake-up), if the schedule has one. */
  next?: Date;
};

export function dueRun(schedule: Schedule, input: DueInput): Due {
  const { now, startingDeadlineSeconds: deadline } = input;
  let earliest = input.lastScheduleTime ?? input.created;
  if (deadline !== undefined) {
    const horizon = new Date(now.getTime() - deadline * 1000);
    if (horizon > earliest) earliest = horizon;
  }
  const next = schedule.next(now);
  const base = { missedCount: 0, tooLate: false, ...(next ? { next } : {}) };
  if (earliest > now) return base;
  let count = 0;
  for (let t = schedule.next(earliest); t && t <= now && count <= MAX_MISSED; t = schedule.next(t)) count++;
  if (count === 0) return base;
  const missed = schedule.latest(earliest, now);
  if (!missed) return base;
  const tooLate = deadline !== undefined && missed.getTime() + deadline * 1000 < now.getTime();
  return { ...base, missed, missedCount: count, tooLate };
}
