import { describe, expect, it } from 'vitest';
import { pendingFor, RunLanes, type Pending } from './run-lanes.js';

const target = (name: string, cause?: string) => ({ ref: { namespace: 'ns', name }, causes: cause ? new Set([cause]) : null });
const names = (p: Pending) => (p.all ? ['*'] : [...p.objects.values()].map((t) => t.ref.name));

/** A lane whose runs end when the test says so. */
function harness(limit = 4) {
  const started: string[][] = [];
  const finish: (() => void)[] = [];
  const lanes = new RunLanes((batch) => {
    started.push(names(batch));
    return new Promise<void>((resolve) => finish.push(resolve));
  }, limit);
  const endRun = async (i: number) => {
    finish[i]!();
    await new Promise((r) => setImmediate(r));
  };
  return { lanes, started, endRun };
}

describe('RunLanes', () => {
  it('runs different objects side by side', () => {
    const { lanes, started } = harness();
    lanes.add(pendingFor(target('a')));
    lanes.add(pendingFor(target('b')));
    expect(started).toEqual([['a'], ['b']]);
  });

  it('runs one object once at a time, and folds changes during its run into one more run', async () => {
    const { lanes, started, endRun } = harness();
    lanes.add(pendingFor(target('a', 'v1')));
    lanes.add(pendingFor(target('a', 'v2')));
    lanes.add(pendingFor(target('a', 'v3')));
    expect(started).toEqual([['a']]);
    await endRun(0);
    expect(started).toEqual([['a'], ['a']]);
  });

  it('keeps to its bound, and starts waiting objects as runs end', async () => {
    const { lanes, started, endRun } = harness(2);
    for (const n of ['a', 'b', 'c', 'd']) lanes.add(pendingFor(target(n)));
    expect(started).toEqual([['a'], ['b']]);
    await endRun(0);
    expect(started).toEqual([['a'], ['b'], ['c', 'd']]);
  });

  it('runs a full resync alone: after the object runs end, absorbing what was asked meanwhile', async () => {
    const { lanes, started, endRun } = harness();
    lanes.add(pendingFor(target('a')));
    let resynced = false;
    const all = lanes.all().then(() => (resynced = true));
    lanes.add(pendingFor(target('b')));
    expect(started).toEqual([['a']]);
    await endRun(0);
    expect(started).toEqual([['a'], ['*']]);
    lanes.add(pendingFor(target('c')));
    expect(started).toHaveLength(2);
    expect(resynced).toBe(false);
    await endRun(1);
    await all;
    expect(resynced).toBe(true);
    expect(started).toEqual([['a'], ['*'], ['c']]);
  });

  it('is idle only when nothing runs or waits', async () => {
    const { lanes, endRun } = harness();
    await lanes.idle();
    lanes.add(pendingFor(target('a')));
    lanes.add(pendingFor(target('a')));
    let idle = false;
    const done = lanes.idle().then(() => (idle = true));
    await endRun(0);
    expect(idle).toBe(false);
    await endRun(1);
    await done;
    expect(idle).toBe(true);
  });

  it('merges causes while an object waits, and an unknown cause makes the merged one unknown', async () => {
    const seen: Pending[] = [];
    const finish: (() => void)[] = [];
    const lanes = new RunLanes((b) => {
      seen.push(b);
      return new Promise<void>((r) => finish.push(r));
    });
    lanes.add(pendingFor(target('x')));
    lanes.add(pendingFor(target('y')));
    lanes.add(pendingFor(target('x', 'v1')));
    lanes.add(pendingFor(target('x', 'v2')));
    lanes.add(pendingFor(target('y', 'v1')));
    lanes.add(pendingFor(target('y')));
    finish[0]!();
    finish[1]!();
    await new Promise((r) => setImmediate(r));
    const later = seen.slice(2);
    expect(later.find((b) => b.objects.has('ns/x'))?.objects.get('ns/x')?.causes).toEqual(new Set(['v1', 'v2']));
    expect(later.find((b) => b.objects.has('ns/y'))?.objects.get('ns/y')?.causes).toBeNull();
  });
});
