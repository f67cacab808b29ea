import { describe, expect, it } from 'vitest';
import type { ProtectionCounts } from './counts.js';
import { countsView, decideDeletion, type CountsView, type ProtectedObject } from './decide.js';
import type { CascadeRule } from './types.js';

const obj = (label: string | undefined, over: Partial<ProtectedObject> = {}): ProtectedObject => ({
  metadata: { name: 'x', ...(label ? { labels: { 'policy.kruise.io/delete-protection': label } } : {}), ...over.metadata },
  ...(over.spec ? { spec: over.spec } : {}),
});
const counts = (name: string, c: Omit<ProtectionCounts, 'metadata'>): ProtectionCounts => ({ metadata: { name, resourceVersion: '1' }, ...c });
const view = (...items: ProtectionCounts[]): CountsView => countsView({ items, observedAt: 0 }, 1_000);
const none: CountsView = view();
const P = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection';

describe('decideDeletion', () => {
  it.each<[string, CascadeRule, ProtectedObject, CountsView, number | undefined, string?]>([
    ['no label', 'replicas', obj(undefined, { spec: { replicas: 3 } }), none, undefined],
    ['other value', 'replicas', obj('always', { spec: { replicas: 3 } }), none, undefined],
    ['being deleted', 'none', obj('Always', { metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' } }), none, undefined],
    ['Always', 'none', obj('Always'), none, 403, `${P}=Always`],
    ['Cascading service', 'none', obj('Cascading'), none, undefined],
    ['Cascading workload with replicas', 'replicas', obj('Cascading', { spec: { replicas: 3 } }), none, 403, `${P}=Cascading and replicas 3>0`],
    ['Cascading workload scaled to 0', 'replicas', obj('Cascading', { spec: { replicas: 0 } }), none, undefined],
    ['Cascading workload with nil replicas', 'replicas', obj('Cascading'), none, undefined],
    ['namespace with pods', 'namespace', obj('Cascading'), view(counts('ns.x', { activePods: 1, boundPVCs: 2 })), 403, `${P}=Cascading and active pods 1>0`],
    ['namespace with PVCs', 'namespace', obj('Cascading'), view(counts('ns.x', { activePods: 0, boundPVCs: 2 })), 403, `${P}=Cascading and "Bound" status pvc 2>0`],
    ['empty namespace', 'namespace', obj('Cascading'), view(counts('ns.x', { activePods: 0, boundPVCs: 0 })), undefined],
    ['namespace pod list failed', 'namespace', obj('Cascading'), view(counts('ns.x', { listError: { what: 'pods', message: 'boom' } })), 403, 'forbidden by ResourcesProtectionDeletion for list pods error: boom'],
    ['CRD with CRs', 'crd', obj('Cascading'), view(counts('crd.x', { activeCRs: 4 })), 403, `${P}=Cascading and active CRs 4>0`],
    ['CRD without CRs', 'crd', obj('Cascading'), view(counts('crd.x', { activeCRs: 0 })), undefined],
    ['CRD list failed', 'crd', obj('Cascading'), view(counts('crd.x', { listError: { what: 'crs', gvk: 'a.io/v1, Kind=A', message: 'boom' } })), 403, 'failed to list CRs of a.io/v1, Kind=A: boom'],
    ['namespace labelled after the last sync', 'namespace', obj('Cascading'), none, 503],
    ['counts never synced', 'crd', obj('Cascading'), { kind: 'missing' }, 503],
    ['counts stale', 'namespace', obj('Cascading'), countsView({ items: [counts('ns.x', { activePods: 0, boundPVCs: 0 })], observedAt: 0 }, 400_000), 503],
    ['Always namespace needs no counts', 'namespace', obj('Always'), { kind: 'missing' }, 403, `${P}=Always`],
  ])('%s', (_name, rule, o, v, code, message) => {
    const verdict = decideDeletion(rule, o, v);
    expect(verdict.allowed ? undefined : verdict.code).toBe(code);
    if (message && !verdict.allowed) expect(verdict.message).toBe(message);
  });

  it('names the object and the staleness when counts cannot be trusted', () => {
    const v = decideDeletion('namespace', obj('Cascading'), { kind: 'stale', ageMs: 400_000 });
    expect(v.allowed ? '' : v.message).toBe(
      `${P}=Cascading: the live objects of namespace "x" are 400s old (limit 180s); retry shortly`,
    );
  });
});
