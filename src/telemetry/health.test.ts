import { describe, expect, it } from 'vitest';
import { Health, readiness } from './health.js';

const NOW = 1_000_000;

describe('readiness (/readyz)', () => {
  it('nothing required: ready, with the state ages read so far', () => {
    const h = new Health();
    h.stateRead('pods', 1500);
    expect(h.report(NOW)).toEqual({ ready: true, reasons: [], state: { pods: { ageSeconds: 1.5 } } });
  });

  it('a loop that never ticked, or ticked too long ago, is not ready', () => {
    expect(readiness({ pushedAt: {}, stateAgeMs: {} }, NOW, { maxTickAgeMs: 60_000 })).toMatchObject({ ready: false, reasons: ['the reconcile loop has not ticked yet'], loop: { lastTickAgeSeconds: null } });
    expect(readiness({ lastTickAt: NOW - 90_000, pushedAt: {}, stateAgeMs: {} }, NOW, { maxTickAgeMs: 60_000 })).toMatchObject({ ready: false, reasons: ['the reconcile loop last ticked 90 s ago (limit 60 s)'], loop: { lastTickAgeSeconds: 90 } });
    expect(readiness({ lastTickAt: NOW - 30_000, pushedAt: {}, stateAgeMs: {} }, NOW, { maxTickAgeMs: 60_000 })).toMatchObject({ ready: true, loop: { lastTickAgeSeconds: 30 } });
  });

  it('every collection the loop pushes must have been pushed, recently', () => {
    const r = readiness({ lastTickAt: NOW, pushedAt: { sets: NOW - 10_000, pods: NOW - 200_000 }, stateAgeMs: {} }, NOW, { maxTickAgeMs: 60_000, pushed: { collections: ['sets', 'pods', 'ns'], maxPushAgeMs: 180_000 } });
    expect(r.ready).toBe(false);
    expect(r.reasons).toEqual(['collection "pods" was last pushed 200 s ago (limit 180 s)', 'collection "ns" has not been pushed yet']);
    expect(r.pushes).toEqual({ sets: { ageSeconds: 10 }, pods: { ageSeconds: 200 }, ns: { ageSeconds: null } });
  });

  it('a state read older than the limit (or of unknown age) makes it unready', () => {
    const r = readiness({ pushedAt: {}, stateAgeMs: { sets: 200_000, pods: Infinity, ns: 10 } }, NOW, { maxStateAgeMs: 180_000 });
    expect(r.reasons).toEqual(['the last read of state "pods" was of unknown age (limit 180 s)', 'the last read of state "sets" was 200 s old (limit 180 s)']);
    expect(r.state).toEqual({ ns: { ageSeconds: 0.01 }, pods: { ageSeconds: -1 }, sets: { ageSeconds: 200 } });
  });

  it('requirements add up (the server and the loop in one process)', () => {
    const h = new Health();
    h.require({ maxStateAgeMs: 180_000 });
    h.require({ maxTickAgeMs: 60_000 });
    expect(h.report(NOW).reasons).toEqual(['the reconcile loop has not ticked yet']);
    h.tick(NOW);
    expect(h.report(NOW).ready).toBe(true);
  });
});
