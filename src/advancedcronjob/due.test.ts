import { describe, expect, it } from 'vitest';
import { dueRun, MAX_MISSED } from './due.js';
import { parseSchedule, type Schedule } from './schedule.js';

const sched = (s: string, zone?: string): Schedule => {
  const p = parseSchedule(s, zone);
  if (!p.ok) throw new Error(p.error);
  return p.schedule;
};
const at = (s: string) => new Date(s);
const iso = (d?: Date) => d?.toISOString();

describe('dueRun', () => {
  it.each([
    ['nothing due yet after creation', { created: at('2026-03-07T12:00:10Z'), now: at('2026-03-07T12:00:50Z') }, undefined, 0, '2026-03-07T12:01:00.000Z'],
    ['due exactly at the minute', { created: at('2026-03-07T12:00:10Z'), now: at('2026-03-07T12:01:00Z') }, '2026-03-07T12:01:00.000Z', 1, '2026-03-07T12:02:00.000Z'],
    ['created on the minute: that minute is not due', { created: at('2026-03-07T12:01:00Z'), now: at('2026-03-07T12:01:00.400Z') }, undefined, 0, '2026-03-07T12:02:00.000Z'],
    ['already run at lastScheduleTime', { lastScheduleTime: at('2026-03-07T12:01:00Z'), created: at('2026-03-01T00:00:00Z'), now: at('2026-03-07T12:01:20Z') }, undefined, 0, '2026-03-07T12:02:00.000Z'],
    ['downtime: only the latest of 5 missed', { lastScheduleTime: at('2026-03-07T12:01:00Z'), created: at('2026-03-01T00:00:00Z'), now: at('2026-03-07T12:06:30Z') }, '2026-03-07T12:06:00.000Z', 5, '2026-03-07T12:07:00.000Z'],
    ['startingDeadlineSeconds bounds the look-back', { lastScheduleTime: at('2026-03-07T12:01:00Z'), created: at('2026-03-01T00:00:00Z'), startingDeadlineSeconds: 20, now: at('2026-03-07T12:06:30Z') }, undefined, 0, '2026-03-07T12:07:00.000Z'],
    ['within startingDeadlineSeconds', { lastScheduleTime: at('2026-03-07T12:01:00Z'), created: at('2026-03-01T00:00:00Z'), startingDeadlineSeconds: 40, now: at('2026-03-07T12:06:30Z') }, '2026-03-07T12:06:00.000Z', 1, '2026-03-07T12:07:00.000Z'],
  ])('%s', (_n, input, missed, count, next) => {
    const d = dueRun(sched('*/1 * * * *'), input);
    expect(iso(d.missed)).toBe(missed);
    expect(d.missedCount).toBe(count);
    expect(d.tooLate).toBe(false);
    expect(iso(d.next)).toBe(next);
  });

  it('years of downtime: the latest missed run, the count stops at 101, no walk through millions', () => {
    const inner = sched('* * * * *');
    let calls = 0;
    const counted: Schedule = { next: (t) => (calls++, inner.next(t)), latest: (a, b) => (calls++, inner.latest(a, b)) };
    const d = dueRun(counted, { lastScheduleTime: at('2016-01-01T00:00:00Z'), created: at('2016-01-01T00:00:00Z'), now: at('2026-03-07T12:06:30Z') });
    expect(iso(d.missed)).toBe('2026-03-07T12:06:00.000Z');
    expect(d.missedCount).toBe(MAX_MISSED + 1);
    expect(calls).toBeLessThan(MAX_MISSED + 5);
  });

  it('time zones: 09:00 Shanghai is 01:00 UTC', () => {
    const d = dueRun(sched('0 9 * * *', 'Asia/Shanghai'), { created: at('2026-03-06T00:00:00Z'), now: at('2026-03-07T01:00:00.300Z') });
    expect(iso(d.missed)).toBe('2026-03-07T01:00:00.000Z');
    expect(iso(d.next)).toBe('2026-03-08T01:00:00.000Z');
  });

  it('DST: a daily 02:30 New York run on the spring-forward day is due at 03:30 EDT, and the next day at 02:30 EST+1', () => {
    const s = sched('30 2 * * *', 'America/New_York');
    const d = dueRun(s, { lastScheduleTime: at('2026-03-07T07:30:00Z'), created: at('2026-03-01T00:00:00Z'), now: at('2026-03-08T07:30:01Z') });
    expect(iso(d.missed)).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(d.next)).toBe('2026-03-09T06:30:00.000Z');
  });

  it('a schedule that never fires has no next time and nothing due', () => {
    const d = dueRun(sched('0 0 31 2 *'), { created: at('2026-03-01T00:00:00Z'), now: at('2026-03-07T12:00:00Z') });
    expect(d).toEqual({ missedCount: 0, tooLate: false });
  });
});
