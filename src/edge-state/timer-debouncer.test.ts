import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeEvent } from './contracts.js';
import { TimerDebouncer } from './timer-debouncer.js';

const ev = (name: string): ChangeEvent => ({ clusterId: 'c1', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'ns', name, reason: 'pod-status' });

describe('TimerDebouncer', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it('answers the first event at once and publishes the held one itself when the window closes', async () => {
    const published: string[] = [];
    const d = new TimerDebouncer({ publish: async (e) => void published.push(...e.map((x) => `${Date.now()} ${x.name}`)) }, { windowMs: 400 });
    expect(await d.offer('c1', [ev('a')])).toEqual([ev('a')]);
    vi.advanceTimersByTime(100);
    expect(await d.offer('c1', [ev('a')])).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(await d.offer('c1', [ev('a')])).toEqual([]);
    expect(published).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(published).toEqual(['400 a']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(published).toEqual(['400 a']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports a failed publish', async () => {
    const errors: unknown[] = [];
    const d = new TimerDebouncer({ publish: async () => { throw new Error('bus down'); } }, { windowMs: 400, onError: (e) => errors.push(e) });
    await d.offer('c1', [ev('a')]);
    await d.offer('c1', [ev('a')]);
    await vi.advanceTimersByTimeAsync(400);
    expect(errors.map(String)).toEqual(['Error: bus down']);
  });
});
