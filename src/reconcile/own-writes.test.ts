import { describe, expect, it } from 'vitest';
import { OwnWrites, ownWriteVerdict, versionKey } from './own-writes.js';

describe('own writes', () => {
  it('keys an object by namespace, name and version', () => {
    expect(versionKey({ metadata: { namespace: 'ns', name: 'web-0', resourceVersion: '42' } })).toBe('ns/web-0@42');
    expect(versionKey({ metadata: { name: 'node-1', resourceVersion: '7' } })).toBe('/node-1@7');
    expect(versionKey({ metadata: { name: 'web-0' } })).toBeUndefined();
  });

  it('remembers when the run that made a write reported it, for two minutes', () => {
    let t = 1_000;
    const own = new OwnWrites(() => t);
    own.add(['ns/a@1']);
    t = 2_000;
    expect(own.reportedAt('ns/a@1')).toBe(1_000);
    expect(own.reportedAt('ns/a@2')).toBeUndefined();
    t = 1_000 + 120_000;
    expect(own.reportedAt('ns/a@1')).toBeUndefined();
  });

  it('runs for anyone else\'s change, drops an observed own write, defers an unobserved one', () => {
    let t = 1_000;
    const own = new OwnWrites(() => t);
    own.add(['ns/a@1', 'ns/a@2']);
    t = 1_500;
    expect(ownWriteVerdict(null, own, 0)).toBe('run');
    expect(ownWriteVerdict(new Set(['ns/a@3']), own, 0)).toBe('run');
    expect(ownWriteVerdict(new Set(['ns/a@1', 'ns/a@3']), own, 0)).toBe('run');
    // The run that made them started before they were reported: nobody has observed them yet.
    expect(ownWriteVerdict(new Set(['ns/a@1', 'ns/a@2']), own, 900)).toBe('defer');
    // A run started after the report: its LIST saw them.
    expect(ownWriteVerdict(new Set(['ns/a@1', 'ns/a@2']), own, 1_200)).toBe('covered');
    expect(ownWriteVerdict(new Set(['ns/a@1']), own, 1_000)).toBe('covered');
  });
});
