import { describe, expect, it } from 'vitest';
import type { WorkloadSpreadLedger } from './ledger.js';
import { nextExpiry, resyncLedger, type ResyncRequest, type SubsetBase } from './ledger-resync.js';
import { missingReplicas } from './subset-state.js';

const UID = 'ws-uid';
const NOW = 10_000_000;
const base = (replicas: number, maxReplicas: number | null = 5): SubsetBase => ({ name: 'a', maxReplicas, replicas });

function held(creatingPods: Record<string, number>, deletingPods: Record<string, number> = {}): WorkloadSpreadLedger {
  return { uid: UID, workloadReplicas: { value: 5, observedAt: 0 }, versions: { v1: [{ ...base(0), creatingPods, deletingPods }] } };
}

function resync(o: Partial<ResyncRequest>): ResyncRequest {
  return { uid: UID, workloadReplicas: { value: 5, observedAt: NOW }, versions: { v1: [base(2)] }, initial: [base(0)], pods: {}, ...o };
}

describe('resync', () => {
  it.each<[string, WorkloadSpreadLedger, ResyncRequest, string[], string[], number]>([
    ['creation seen by the controller is dropped', held({ p1: NOW - 1000 }), resync({ pods: { p1: true } }), [], [], 3],
    ['creation not yet seen is kept and still counts', held({ p1: NOW - 1000 }), resync({}), ['p1'], [], 2],
    ['creation older than 30 s is forgotten', held({ p1: NOW - 30_001 }), resync({}), [], [], 3],
    ['creation exactly 30 s old is kept', held({ p1: NOW - 30_000 }), resync({}), ['p1'], [], 2],
    ['deletion of a still-active pod is kept and gives room', held({}, { d1: NOW - 1000 }), resync({ pods: { d1: true } }), [], ['d1'], 4],
    ['deletion of a gone pod is dropped', held({}, { d1: NOW - 1000 }), resync({}), [], [], 3],
    ['deletion of a terminating pod is dropped', held({}, { d1: NOW - 1000 }), resync({ pods: { d1: false } }), [], [], 3],
    ['deletion older than 15 s is forgotten', held({}, { d1: NOW - 15_001 }), resync({ pods: { d1: true } }), [], [], 3],
  ])('%s', (_name, state, req, creating, deleting, missing) => {
    const next = resyncLedger(state, req, NOW);
    const a = next.versions.v1![0]!;
    expect(Object.keys(a.creatingPods)).toEqual(creating);
    expect(Object.keys(a.deletingPods)).toEqual(deleting);
    expect(missingReplicas(a, 5)).toBe(missing);
  });

  it('keeps a version with pending entries the controller saw no pods of, from the initial subsets', () => {
    const state: WorkloadSpreadLedger = { ...held({}), versions: { old: [{ ...base(0), creatingPods: { p: NOW }, deletingPods: {} }], gone: [{ ...base(0), creatingPods: {}, deletingPods: {} }] } };
    const next = resyncLedger(state, resync({}), NOW);
    expect(Object.keys(next.versions).sort()).toEqual(['old', 'v1']);
    expect(next.versions.old![0]!.replicas).toBe(0);
  });

  it('adopts entries from the cluster status when the ledger is empty', () => {
    const next = resyncLedger(undefined, resync({ adopt: { v1: { a: { creatingPods: { p: NOW - 5 }, deletingPods: {} } } } }), NOW);
    expect(next.versions.v1![0]!.creatingPods).toEqual({ p: NOW - 5 });
  });

  it('ignores a ledger of another incarnation and adopts instead', () => {
    const next = resyncLedger({ ...held({ stale: NOW }), uid: 'old' }, resync({}), NOW);
    expect(next.versions.v1![0]!.creatingPods).toEqual({});
    expect(next.uid).toBe(UID);
  });

  describe('taking over what the status records', () => {
    // OpenKruise admitted p and p2 (not yet listed) into subset a of version v1, and was deleting d.
    const adopt = { v1: { a: { creatingPods: { p: NOW - 5_000, p2: NOW - 5_000 }, deletingPods: { d: NOW - 1_000 } } } };

    it('the entries keep counting until observed or expired, as OpenKruise would have continued', () => {
      const first = resyncLedger(undefined, resync({ adopt, pods: { d: true } }), NOW);
      expect(missingReplicas(first.versions.v1![0]!, 5)).toBe(2); // 5 − 2 counted − p − p2 + d
      expect(missingReplicas(resyncLedger(undefined, resync({ pods: { d: true } }), NOW).versions.v1![0]!, 5)).toBe(3);
      const later = resyncLedger(first, resync({ adopt, pods: { d: true } }), NOW + 26_000);
      expect(later.versions.v1![0]).toMatchObject({ creatingPods: {}, deletingPods: {} });
    });

    it('a ledger only the webhooks seeded adopts the versions it has not seen, keeping its own', () => {
      const seeded: WorkloadSpreadLedger = { uid: UID, workloadReplicas: { value: 5, observedAt: 0 }, versions: { v2: [{ ...base(0), creatingPods: { q: NOW }, deletingPods: {} }] } };
      const next = resyncLedger(seeded, resync({ adopt: { ...adopt, v2: { a: { creatingPods: { stale: NOW }, deletingPods: {} } } } }), NOW);
      expect(next.versions.v1![0]!.creatingPods).toEqual({ p: NOW - 5_000, p2: NOW - 5_000 });
      expect(next.versions.v2![0]!.creatingPods).toEqual({ q: NOW });
    });

    it('a resynced ledger does not read status back: an entry it dropped stays dropped, none is counted twice', () => {
      const resynced: WorkloadSpreadLedger = { ...held({ p: NOW - 5_000 }), resyncedAt: NOW - 1 };
      const next = resyncLedger(resynced, resync({ adopt: { v1: { a: { creatingPods: { p: NOW - 5_000 }, deletingPods: {} } }, v3: { a: { creatingPods: { gone: NOW }, deletingPods: {} } } } }), NOW);
      expect(next.versions.v1![0]!.creatingPods).toEqual({ p: NOW - 5_000 });
      expect(next.versions.v3).toBeUndefined();
    });
  });

  it('keeps the fresher workload replicas', () => {
    const state = { ...held({}), workloadReplicas: { value: 9, observedAt: NOW + 1 } };
    expect(resyncLedger(state, resync({}), NOW).workloadReplicas.value).toBe(9);
  });

  it('reports the next expiry', () => {
    expect(nextExpiry(held({ p: NOW }, { d: NOW }))).toBe(NOW + 15_000);
    expect(nextExpiry(held({}))).toBeUndefined();
  });
});
