import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src/edge-state/contracts.js';
import { HeldEvents, parseDebounceBody } from './held-events.js';
import type { DurableObjectStorage } from './platform.js';

const ev = (name: string): ChangeEvent => ({ clusterId: 'c1', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'ns', name, reason: 'pod-status' });

/** Storage in memory, counting writes, with the one alarm a Durable Object has. */
function storage() {
  const data = new Map<string, unknown>();
  const s = {
    alarm: null as number | null,
    puts: 0,
    get: async <T>(k: string) => structuredClone(data.get(k)) as T | undefined,
    put: async (entries: Record<string, unknown>) => {
      s.puts++;
      for (const [k, v] of Object.entries(entries)) data.set(k, structuredClone(v));
    },
    delete: async (keys: string[]) => keys.filter((k) => data.delete(k)).length,
    list: async () => new Map(),
    deleteAll: async () => data.clear(),
    getAlarm: async () => s.alarm,
    setAlarm: async (t: number) => void (s.alarm = t),
    deleteAlarm: async () => void (s.alarm = null),
  };
  return s satisfies DurableObjectStorage;
}

describe('HeldEvents (the cluster object debouncing)', () => {
  it('holds in-window events in storage with an alarm; the alarm publishes them, also after a restart', async () => {
    let now = 0;
    const published: ChangeEvent[] = [];
    const store = storage();
    const sink = { publish: async (e: readonly ChangeEvent[]) => void published.push(...e) };
    const held = new HeldEvents(store, sink, () => now);
    await held.load();
    expect(await held.offer([ev('a')])).toEqual([ev('a')]);
    expect(store.puts).toBe(0); // an empty window is not stored
    now = 100;
    expect(await held.offer([ev('a')])).toEqual([]);
    now = 200;
    expect(await held.offer([ev('a')])).toEqual([]);
    expect(store.puts).toBe(1); // the same held window is stored once
    expect(store.alarm).toBe(400);

    // Evicted before the alarm: a new instance loads what is held and the alarm publishes it.
    const again = new HeldEvents(store, sink, () => now);
    await again.load();
    now = 400;
    store.alarm = null; // the platform consumes the alarm as it fires
    await again.alarm();
    expect(published).toEqual([ev('a')]);
    // The held event opened a new window, with nothing in it: no alarm.
    expect(store.alarm).toBeNull();
    expect(await store.get('debounce')).toEqual({});
  });

  it('keeps what is held when publishing fails, for the retried alarm', async () => {
    let now = 0;
    let fail = true;
    const published: ChangeEvent[] = [];
    const store = storage();
    const held = new HeldEvents(store, { publish: async (e) => { if (fail) throw new Error('bus down'); published.push(...e); } }, () => now);
    await held.load();
    await held.offer([ev('a')]);
    await held.offer([ev('a')]);
    now = 400;
    await expect(held.alarm()).rejects.toThrow('bus down');
    fail = false;
    now = 900;
    await held.alarm();
    expect(published).toEqual([ev('a')]);
  });

  it('checks the events it is sent', () => {
    expect(parseDebounceBody([ev('a')])).toEqual([ev('a')]);
    expect(parseDebounceBody({})).toBe('expected an array of change events');
    expect(parseDebounceBody([{ ...ev('a'), name: '' }])).toMatch(/^\[0\]: detail: name must be a non-empty string/);
  });
});
