import { describe, expect, it } from 'vitest';
import { parseGoDuration, parseSchedule, timeZoneProblem } from './schedule.js';

const nexts = (schedule: string, from: string, n = 3, zone?: string) => {
  const p = parseSchedule(schedule, zone);
  if (!p.ok) throw new Error(p.error);
  const out: string[] = [];
  let t = new Date(from);
  for (let i = 0; i < n; i++) {
    const next = p.schedule.next(t);
    if (!next) break;
    out.push(next.toISOString());
    t = next;
  }
  return out;
};

describe('parseSchedule: what robfig ParseStandard accepts', () => {
  it.each([
    ['every minute', '*/1 * * * *', '2026-03-07T12:00:30Z', ['2026-03-07T12:01:00.000Z', '2026-03-07T12:02:00.000Z', '2026-03-07T12:03:00.000Z']],
    ['@hourly', '@hourly', '2026-03-07T12:00:30Z', ['2026-03-07T13:00:00.000Z', '2026-03-07T14:00:00.000Z', '2026-03-07T15:00:00.000Z']],
    ['@weekly is Sunday midnight', '@weekly', '2026-03-07T12:00:00Z', ['2026-03-08T00:00:00.000Z', '2026-03-15T00:00:00.000Z', '2026-03-22T00:00:00.000Z']],
    ['@every 90s from the previous second', '@every 1m30s', '2026-03-07T12:00:00.700Z', ['2026-03-07T12:01:30.000Z', '2026-03-07T12:03:00.000Z', '2026-03-07T12:04:30.000Z']],
    ['N/step starts at N', '5/15 * * * *', '2026-03-07T12:00:00Z', ['2026-03-07T12:05:00.000Z', '2026-03-07T12:20:00.000Z', '2026-03-07T12:35:00.000Z']],
    ['names, any case', '0 0 * JAN,feb sun', '2026-12-30T00:00:00Z', ['2027-01-03T00:00:00.000Z', '2027-01-10T00:00:00.000Z', '2027-01-17T00:00:00.000Z']],
    ['dom and dow both set: either', '0 0 1 * MON', '2026-03-28T00:00:00Z', ['2026-03-30T00:00:00.000Z', '2026-04-01T00:00:00.000Z', '2026-04-06T00:00:00.000Z']],
    ['a starred day field: both (robfig starBit)', '0 0 */2 * MON', '2026-03-01T00:00:00Z', ['2026-03-09T00:00:00.000Z', '2026-03-23T00:00:00.000Z', '2026-04-13T00:00:00.000Z']],
    ['? is *', '0 0 ? * *', '2026-03-07T12:00:00Z', ['2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z', '2026-03-10T00:00:00.000Z']],
    ['never (Feb 31)', '0 0 31 2 *', '2026-03-07T12:00:00Z', []],
  ])('%s', (_n, schedule, from, want) => {
    expect(nexts(schedule, from)).toEqual(want);
  });

  it.each([
    ['six fields (seconds)', '* * * * * *', 'expected exactly 5 fields, found 6'],
    ['seven fields', '0 0 0 * * * 2030', 'expected exactly 5 fields, found 7'],
    ['empty', '', 'empty spec string'],
    ['weekday 7', '0 0 * * 7', 'end of range (7) above maximum (6)'],
    ['L', '0 0 L * *', 'failed to parse int from L'],
    ['W', '0 0 15W * *', 'failed to parse int from 15W'],
    ['#', '0 0 * * MON#1', 'failed to parse int from MON#1'],
    ['+ (AND modifier)', '0 0 * * +MON', 'failed to parse int from +MON'],
    ['minute 60', '60 * * * *', 'end of range (60) above maximum (59)'],
    ['reversed range', '5-3 * * * *', 'beginning of range (5) beyond end of range (3)'],
    ['step 0', '*/0 * * * *', 'step of range should be a positive number'],
    ['unknown descriptor', '@reboot', 'unrecognized descriptor: @reboot'],
    ['descriptors are lower case', '@HOURLY', 'unrecognized descriptor: @HOURLY'],
    ['bad @every', '@every soon', 'failed to parse duration'],
    ['bad TZ= prefix', 'TZ=Mars/Olympus * * * * *', 'provided bad location Mars/Olympus'],
  ])('refuses %s', (_n, schedule, message) => {
    const p = parseSchedule(schedule);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.error).toContain(message);
  });
});

describe('time zones', () => {
  it('reads the schedule in the zone', () => {
    expect(nexts('0 9 * * *', '2026-03-07T00:00:00Z', 1, 'Asia/Shanghai')).toEqual(['2026-03-07T01:00:00.000Z']);
  });
  it('TZ= and CRON_TZ= prefixes name the zone', () => {
    expect(nexts('TZ=Asia/Shanghai 0 9 * * *', '2026-03-07T00:00:00Z', 1)).toEqual(['2026-03-07T01:00:00.000Z']);
    expect(nexts('CRON_TZ=Asia/Shanghai 0 9 * * *', '2026-03-07T00:00:00Z', 1)).toEqual(['2026-03-07T01:00:00.000Z']);
  });
  it('DST spring forward (New York, 2026-03-08): 02:30 does not exist, the run is at 03:30 EDT', () => {
    expect(nexts('30 2 * * *', '2026-03-07T12:00:00Z', 3, 'America/New_York')).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z', '2026-03-10T06:30:00.000Z']);
  });
  it('DST fall back (New York, 2026-11-01): 01:30 happens twice, the run once (the first)', () => {
    expect(nexts('30 1 * * *', '2026-10-31T12:00:00Z', 3, 'America/New_York')).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z', '2026-11-03T06:30:00.000Z']);
  });
  it('hourly across DST keeps every real hour', () => {
    expect(nexts('0 * * * *', '2026-03-08T05:30:00Z', 3, 'America/New_York')).toEqual(['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z']);
  });
  it.each([
    ['Asia/Shanghai', undefined],
    ['UTC', undefined],
    ['', 'timeZone must be nil or non-empty string'],
    ['Local', 'timeZone must be an explicit time zone'],
    ['asia/shanghai', 'unknown time zone asia/shanghai'],
    ['Nowhere/City', 'unknown time zone Nowhere/City'],
  ])('zone %j', (zone, problem) => {
    if (problem === undefined) expect(timeZoneProblem(zone)).toBeUndefined();
    else expect(timeZoneProblem(zone)).toContain(problem);
  });
});

describe('latest: the most recent time at or before now', () => {
  it('includes a time equal to now, and nothing not after `after`', () => {
    const p = parseSchedule('*/1 * * * *');
    if (!p.ok) throw new Error(p.error);
    const now = new Date('2026-03-07T12:05:00Z');
    expect(p.schedule.latest(new Date('2026-03-07T12:00:00Z'), now)?.toISOString()).toBe('2026-03-07T12:05:00.000Z');
    expect(p.schedule.latest(new Date('2026-03-07T12:05:00Z'), now)).toBeUndefined();
  });
  it('@every: arithmetic, not a walk', () => {
    const p = parseSchedule('@every 1s');
    if (!p.ok) throw new Error(p.error);
    const t = p.schedule.latest(new Date('2000-01-01T00:00:00Z'), new Date('2026-03-07T12:05:00.500Z'));
    expect(t?.toISOString()).toBe('2026-03-07T12:05:00.000Z');
  });
});

it.each([
  ['1h30m', 5_400_000],
  ['90s', 90_000],
  ['1.5h', 5_400_000],
  ['500ms', 500],
  ['0', 0],
  ['1d', undefined],
  ['', undefined],
])('parseGoDuration(%j)', (text, ms) => {
  expect(parseGoDuration(text)).toBe(ms);
});
