// Pure: an AdvancedCronJob's schedule as times. The grammar is robfig's, checked first
// (schedule-syntax.ts); croner computes the times of five-field schedules, in the zone, across
// DST. `@every` is not cron: its times are plain arithmetic, as robfig's ConstantDelaySchedule.
import { Cron } from 'croner';
import { readSchedule } from './schedule-syntax.js';

export { parseGoDuration, timeZoneProblem } from './schedule-syntax.js';

export type Schedule = {
  /** The first scheduled time strictly after `after`, if any. */
  next(after: Date): Date | undefined;
  /** The last scheduled time at or before `at`, if any after `after` (the most recent missed run). */
  latest(after: Date, at: Date): Date | undefined;
};

export type ParsedSchedule = { ok: true; schedule: Schedule; timeZone?: string } | { ok: false; error: string };

/** Parses `schedule` in `timeZone` (unset: the process's local zone, as OpenKruise's manager). */
export function parseSchedule(schedule: string, timeZone?: string): ParsedSchedule {
  const read = readSchedule(schedule, timeZone);
  if (!read.ok) return read;
  const zone = read.timeZone ? { timeZone: read.timeZone } : {};
  if (read.kind === 'every') return { ok: true, ...zone, schedule: everySchedule(read.delayMs) };
  let cron: Cron;
  try {
    cron = new Cron(read.fields.join(' '), { paused: true, mode: '5-part', sloppyRanges: true, domAndDow: read.domAndDow, ...(read.timeZone ? { timezone: read.timeZone } : {}) });
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  return {
    ok: true,
    ...zone,
    schedule: {
      next: (after) => cron.nextRun(after) ?? undefined,
      latest: (after, at) => {
        // previousRuns looks strictly before its reference, to the second: the next second includes `at`.
        const ref = new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000);
        const prev = cron.previousRuns(2, ref).find((t) => t <= at);
        return prev && prev > after ? prev : undefined;
      },
    },
  };
}

/** Each next time is the previous one's second plus the delay. */
function everySchedule(delay: number): Schedule {
  const floorSecond = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;
  return {
    next: (after) => new Date(floorSecond(after) + delay),
    latest: (after, at) => {
      const first = floorSecond(after) + delay;
      if (first > at.getTime()) return undefined;
      return new Date(first + Math.floor((at.getTime() - first) / delay) * delay);
    },
  };
}
