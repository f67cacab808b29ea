// Pure: an AdvancedCronJob's schedule read as OpenKruise reads it (robfig/cron's ParseStandard:
// five fields, or a descriptor such as `@hourly` or `@every 90m`, optionally prefixed with
// `TZ=<zone>` or `CRON_TZ=<zone>`). Only the grammar and the zone: the times are croner's
// (schedule.ts). Kept apart so the webhook, which runs in the Worker, checks a schedule without
// bundling croner.

export type ScheduleSyntax =
  | { ok: true; kind: 'cron'; fields: string[]; domAndDow: boolean; timeZone?: string }
  | { ok: true; kind: 'every'; delayMs: number; timeZone?: string }
  | { ok: false; error: string };

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

type Field = { name: string; min: number; max: number; names?: readonly string[] };
const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

/** Why an IANA zone name is refused (Go's time.LoadLocation is case-sensitive; "Local" is not a zone). */
export function timeZoneProblem(zone: string): string | undefined {
  if (zone === '') return 'timeZone must be nil or non-empty string';
  if (zone.toLowerCase() === 'local') return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone ${zone}`;
  }
  // Intl accepts any letter case; an alias (US/Eastern) may resolve to another name, which is fine.
  if (resolved !== zone && resolved.toLowerCase() === zone.toLowerCase()) return `unknown time zone ${zone}`;
  return undefined;
}

/**
 * Reads `schedule` (in `timeZone` unless it names its own) with robfig's grammar: croner accepts
 * more (seconds and year fields, `L`, `W`, `#`, `+`, weekday 7), which is refused here.
 */
export function readSchedule(schedule: string, timeZone?: string): ScheduleSyntax {
  if (schedule.length === 0) return { ok: false, error: 'empty spec string' };
  let spec = schedule;
  let zone = timeZone;
  const prefixed = /^(?:CRON_)?TZ=(\S*)\s*(.*)$/s.exec(spec);
  if (prefixed) {
    zone = prefixed[1]!;
    spec = prefixed[2]!.trim();
  }
  if (zone !== undefined) {
    const problem = timeZoneProblem(zone);
    if (problem) return { ok: false, error: `provided bad location ${zone}: ${problem}` };
  }
  const inZone = zone ? { timeZone: zone } : {};
  if (spec.startsWith('@every ')) {
    const text = spec.slice('@every '.length).trim();
    const ms = parseGoDuration(text);
    if (ms === undefined) return { ok: false, error: `failed to parse duration @every ${text}: time: invalid duration "${text}"` };
    // robfig: at least a second, in whole seconds.
    return { ok: true, kind: 'every', delayMs: Math.max(1000, ms - (ms % 1000)), ...inZone };
  }
  if (spec.startsWith('@')) {
    const pattern = DESCRIPTORS[spec];
    if (!pattern) return { ok: false, error: `unrecognized descriptor: ${spec}` };
    spec = pattern;
  }
  const fields = spec.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return { ok: false, error: `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]` };
  for (const [i, f] of fields.entries()) {
    const problem = fieldProblem(f, FIELDS[i]!);
    if (problem) return { ok: false, error: problem };
  }
  // robfig: when either day field starts with * or ?, both must match; otherwise either may.
  const starred = (f: string) => f.split(',').some((p) => p.startsWith('*') || p.startsWith('?'));
  return { ok: true, kind: 'cron', fields, domAndDow: starred(fields[2]!) || starred(fields[4]!), ...inZone };
}

function fieldProblem(field: string, spec: Field): string | undefined {
  for (const part of field.split(',')) {
    const [range, step, extra] = part.split('/');
    if (extra !== undefined) return `too many slashes: ${part}`;
    if (step !== undefined && !/^\d+$/.test(step)) return `failed to parse int from ${step}`;
    if (step !== undefined && Number(step) === 0) return `step of range should be a positive number: ${part}`;
    if (range === '*' || range === '?') continue;
    const bounds = (range ?? '').split('-');
    if (bounds.length > 2) return `too many hyphens: ${part}`;
    const values: number[] = [];
    for (const b of bounds) {
      const v = valueOf(b, spec);
      if (v === undefined) return `failed to parse int from ${b}`;
      values.push(v);
    }
    const [lo, hi = lo] = values as [number, number?];
    if (lo < spec.min) return `beginning of range (${lo}) below minimum (${spec.min}): ${part}`;
    if (hi > spec.max) return `end of range (${hi}) above maximum (${spec.max}): ${part}`;
    if (lo > hi) return `beginning of range (${lo}) beyond end of range (${hi}): ${part}`;
  }
  return undefined;
}

function valueOf(token: string, spec: Field): number | undefined {
  if (/^\d+$/.test(token)) return Number(token);
  const named = spec.names?.indexOf(token.toLowerCase()) ?? -1;
  if (named < 0) return undefined;
  return spec.min === 1 ? named + 1 : named;
}

const GO_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration, in milliseconds. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const m = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(text);
  if (!m) return undefined;
  let total = 0;
  for (const [, num, unit] of m[2]!.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(num) * GO_UNITS[unit!]!;
  return m[1] === '-' ? -total : total;
}
