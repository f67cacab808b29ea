import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from './contracts.js';
import { closeWindows, heldWindows, nextDue, offerEvents, type DebounceState } from './debounce.js';

const W = 400;
const ev = (name: string, reason = 'pod-status'): ChangeEvent => ({ clusterId: 'c1', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'ns', name, reason });

/** Runs a timeline of offers (events) and ticks (undefined), as a timer or alarm would call them; returns what went out when. */
function timeline(steps: [number, ChangeEvent[] | undefined][]): string[] {
  let state: DebounceState = {};
  const out: string[] = [];
  for (const [at, events] of steps) {
    const r = events ? offerEvents(state, events, at, W) : closeWindows(state, at, W);
    state = r.next;
    for (const e of r.send) out.push(`${at} ${e.name}${e.reason === 'pod-status' ? '' : ` (${e.reason})`}`);
  }
  return out;
}

describe('debounce decisions', () => {
  it.each([
    ['a lone event goes out at once', [[0, [ev('a')]], [400, undefined]], ['0 a']],
    ['events inside the window: one more, when it closes', [[0, [ev('a')]], [100, [ev('a')]], [200, [ev('a')]], [400, undefined], [800, undefined]], ['0 a', '400 a']],
    ['the trailing event is the latest one', [[0, [ev('a')]], [100, [ev('a', 'first')]], [300, [ev('a', 'last')]], [400, undefined]], ['0 a', '400 a (last)']],
    ['a steady stream: one event per window', [[0, [ev('a')]], [150, [ev('a')]], [300, [ev('a')]], [400, undefined], [450, [ev('a')]], [600, [ev('a')]], [800, undefined], [1200, undefined]], ['0 a', '400 a', '800 a']],
    ['after a quiet window, the next event goes out at once', [[0, [ev('a')]], [400, undefined], [900, [ev('a')]]], ['0 a', '900 a']],
    ['objects are independent', [[0, [ev('a')]], [100, [ev('b')]], [200, [ev('a'), ev('b')]], [400, undefined], [500, undefined]], ['0 a', '100 b', '400 a', '500 b']],
    ['one offer with the same object twice: one event', [[0, [ev('a'), ev('a')]], [400, undefined]], ['0 a']],
    ['a late tick: the held event goes out with the next offer, once', [[0, [ev('a')]], [100, [ev('a', 'held')]], [700, [ev('a', 'new')]], [1100, undefined]], ['0 a', '700 a (new)']],
  ] as [string, [number, ChangeEvent[] | undefined][], string[]][])('%s', (_name, steps, want) => {
    expect(timeline(steps)).toEqual(want);
  });

  it('bounds a 100-pod burst to one event per window per workload', () => {
    const steps: [number, ChangeEvent[] | undefined][] = [];
    // 100 pods × 4 status writes each, spread over 3 s, with ticks every 100 ms as a timer would give.
    for (let i = 0; i < 400; i++) steps.push([Math.floor((i * 3000) / 400), [ev('web')]]);
    for (let t = 0; t <= 4000; t += 100) steps.push([t, undefined]);
    steps.sort((a, b) => a[0] - b[0] || (a[1] ? 1 : -1));
    const sent = timeline(steps);
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(3000 / W) + 2);
    // The last write (at 2992 ms) is followed by an event no later than one window after it.
    expect(Number(sent.at(-1)!.split(' ')[0])).toBeGreaterThanOrEqual(2992);
    expect(Number(sent.at(-1)!.split(' ')[0])).toBeLessThanOrEqual(2992 + W + 100);
  });

  it('knows when to wake up and what must be stored', () => {
    const a = offerEvents({}, [ev('a'), ev('b')], 0, W).next;
    expect(nextDue(a)).toBeUndefined();
    expect(heldWindows(a)).toEqual({});
    const b = offerEvents(a, [ev('b')], 50, W).next;
    expect(nextDue(b)).toBe(400);
    expect(Object.values(heldWindows(b))).toEqual([{ closesAt: 400, held: ev('b') }]);
    // Closed windows with nothing held end.
    expect(closeWindows(b, 400, W).next).toEqual({ 'c1/apps.kruise.io/v1alpha1/CloneSet/ns/b': { closesAt: 800 } });
    expect(closeWindows(closeWindows(b, 400, W).next, 800, W).next).toEqual({});
  });
});
