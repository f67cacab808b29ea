import { describe, expect, it } from 'vitest';
import type { Lister } from '../edge-state/live-state.js';
import { computeProtectionCounts } from './counts.js';

const items = (...objs: Record<string, unknown>[]) => ({ items: objs, resourceVersion: '7' });
const lister: Lister = async (apiVersion, kind, opts) => {
  if (kind === 'Namespace') return items({ metadata: { name: 'prod' } });
  if (kind === 'CustomResourceDefinition') {
    return items({ metadata: { name: 'widgets.example.io' }, spec: { group: 'example.io', names: { kind: 'Widget' }, versions: [{ name: 'v1', storage: true }] } });
  }
  if (kind === 'Pod' && opts?.namespace === 'prod') {
    return items({ metadata: { name: 'a' }, status: { phase: 'Running' } }, { metadata: { name: 'b' }, status: { phase: 'Succeeded' } }, { metadata: { name: 'c', deletionTimestamp: 'x' } });
  }
  if (kind === 'PersistentVolumeClaim') return items({ metadata: { name: 'v' }, status: { phase: 'Bound' } }, { metadata: { name: 'w' }, status: { phase: 'Pending' } });
  if (kind === 'Widget' && apiVersion === 'example.io/v1') throw new Error('forbidden');
  return items();
};

describe('computeProtectionCounts', () => {
  it('counts the live CRs of the Cascading-labelled CRDs, and keeps a failed LIST', async () => {
    const { items: out } = await computeProtectionCounts(lister);
    expect(out).toEqual([
      { listError: { what: 'crs', gvk: 'example.io/v1, Kind=Widget', message: 'forbidden' }, metadata: { name: 'crd.widgets.example.io', resourceVersion: '[null,null,null,"forbidden"]' } },
    ]);
  });
});
