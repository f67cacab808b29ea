// Structured logs: one JSON object per line, {"level","time","msg",...fields}, at or above a
// level (KS_LOG_LEVEL: debug|info|warn|error, default info). Lines go to a writer the platform
// gives (console on Workers and Lambda, whose log collectors read it; stderr on Node).
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Whether a line at `level` would be written. */
  enabled(level: LogLevel): boolean;
}

export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/** KS_LOG_LEVEL's value (unset or empty: info); anything else is a configuration error. */
export function parseLogLevel(text: string | undefined): LogLevel {
  const value = (text ?? '').trim().toLowerCase();
  if (!value) return DEFAULT_LOG_LEVEL;
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new Error(`KS_LOG_LEVEL "${text}": expected one of ${LOG_LEVELS.join(', ')}`);
}

export type LineWriter = (level: LogLevel, line: string) => void;

/** console.log for debug and info, console.error for warn and error. */
export const consoleWriter: LineWriter = (level, line) => (level === 'warn' || level === 'error' ? console.error(line) : console.log(line));

export function jsonLogger(opts: { level?: LogLevel; write?: LineWriter; now?: () => number } = {}): Logger {
  const threshold = LOG_LEVELS.indexOf(opts.level ?? DEFAULT_LOG_LEVEL);
  const write = opts.write ?? consoleWriter;
  const now = opts.now ?? Date.now;
  const enabled = (level: LogLevel) => LOG_LEVELS.indexOf(level) >= threshold;
  const at = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (!enabled(level)) return;
    write(level, logLine(level, now(), msg, fields));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), enabled };
}

/** One line; fields never override level, time or msg. Values JSON cannot hold are written as text. */
export function logLine(level: LogLevel, time: number, msg: string, fields: LogFields = {}): string {
  const { level: _l, time: _t, msg: _m, ...rest } = fields;
  const record = { level, time: new Date(time).toISOString(), msg, ...rest };
  try {
    return JSON.stringify(record, (_k, v: unknown) => (v instanceof Error ? v.message : typeof v === 'bigint' ? String(v) : v));
  } catch {
    // A cycle: keep the line, lose the fields.
    return JSON.stringify({ level, time: record.time, msg, fieldsError: 'fields could not be serialized' });
  }
}

/** Writes nothing: the telemetry until a platform entry configures it (tests stay quiet). */
export const SILENT_LOGGER: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, enabled: () => false };
