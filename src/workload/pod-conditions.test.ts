import { describe, expect, it } from 'vitest';
import type { StatusWrite } from '../reconcile/types.js';
import { readyAgainWakeMs } from './pod-conditions.js';

const write = (kind: string, ready?: string): StatusWrite => ({
  target: { apiVersion: 'v1', kind, name: 'p', namespace: 'ns' },
  status: { conditions: ready ? [{ type: 'InPlaceUpdateReady', status: 'True' }, { type: 'Ready', status: ready }] : [] },
  reason: 'r',
});

describe('readyAgainWakeMs', () => {
  it('at once when a write turns a pod Ready and other pods still wait', () => {
    expect(readyAgainWakeMs([write('Pod', 'False'), write('Pod', 'True')], true)).toBe(0);
  });
  it('no wake-up when nothing else waits, when no write makes a pod Ready, or for other kinds', () => {
    expect(readyAgainWakeMs([write('Pod', 'True')], false)).toBeUndefined();
    expect(readyAgainWakeMs([write('Pod', 'False'), write('Pod')], true)).toBeUndefined();
    expect(readyAgainWakeMs([write('CloneSet', 'True')], true)).toBeUndefined();
  });
});
