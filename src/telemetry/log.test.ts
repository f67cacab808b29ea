import { describe, expect, it } from 'vitest';
import { jsonLogger, logLine, parseLogLevel, type LogLevel } from './log.js';

const collect = (level?: LogLevel) => {
  const lines: { level: LogLevel; line: string }[] = [];
  const log = jsonLogger({ ...(level ? { level } : {}), write: (l, line) => void lines.push({ level: l, line }), now: () => Date.UTC(2026, 10, 28, 12) });
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l.line) as Record<string, unknown>) };
};

describe('the JSON logger', () => {
  it('writes one JSON object per line: level, ISO time, msg, then the fields', () => {
    const { log, lines } = collect();
    log.info('pushed', { collections: 3, ms: 42 });
    expect(lines).toEqual([{ level: 'info', line: '{"level":"info","time":"2026-11-28T12:00:00.000Z","msg":"pushed","collections":3,"ms":42}' }]);
  });

  it('drops lines below its level (info by default)', () => {
    const def = collect();
    def.log.debug('noise');
    def.log.warn('careful');
    expect(def.parsed().map((l) => l.level)).toEqual(['warn']);
    const errorsOnly = collect('error');
    errorsOnly.log.warn('careful');
    errorsOnly.log.error('broken');
    expect(errorsOnly.parsed().map((l) => l.msg)).toEqual(['broken']);
    expect(errorsOnly.log.enabled('warn')).toBe(false);
    const all = collect('debug');
    all.log.debug('detail');
    expect(all.parsed()).toHaveLength(1);
  });

  it('fields cannot overwrite level, time or msg; errors are written as their message; a cycle keeps the line', () => {
    expect(JSON.parse(logLine('warn', 0, 'x', { level: 'error', msg: 'y', error: new Error('boom') }))).toEqual({ level: 'warn', time: '1970-01-01T00:00:00.000Z', msg: 'x', error: 'boom' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(JSON.parse(logLine('info', 0, 'x', { cyclic }))).toEqual({ level: 'info', time: '1970-01-01T00:00:00.000Z', msg: 'x', fieldsError: 'fields could not be serialized' });
  });

  it('KS_LOG_LEVEL: the four levels in any case, unset or empty is info, anything else a clear error', () => {
    expect(parseLogLevel(undefined)).toBe('info');
    expect(parseLogLevel('')).toBe('info');
    expect(parseLogLevel('DEBUG')).toBe('debug');
    expect(parseLogLevel(' warn ')).toBe('warn');
    expect(() => parseLogLevel('verbose')).toThrow('KS_LOG_LEVEL "verbose": expected one of debug, info, warn, error');
  });
});
