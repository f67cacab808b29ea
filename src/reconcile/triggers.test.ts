import { describe, expect, it } from 'vitest';
import type { Reconciler } from './types.js';
import { pubReconciler } from '../pub/controller/reconciler.js';
import { workloadSpreadReconciler } from '../workloadspread/controller/reconciler.js';

const podTrigger = (r: Reconciler) => r.triggers?.find((t) => t.kind === 'Pod')?.objectsOf;

describe('pod triggers run only the object a pod names', () => {
  it('PUB: the kruise.io/related-pub annotation', () => {
    const of = podTrigger(pubReconciler as Reconciler)!;
    expect(of({ metadata: { name: 'p', namespace: 'ns', annotations: { 'kruise.io/related-pub': 'budget' } } })).toEqual([{ namespace: 'ns', name: 'budget' }]);
    expect(of({ metadata: { name: 'p', namespace: 'ns' } })).toEqual([]);
  });

  it('WorkloadSpread: the matched-workloadspread annotation', () => {
    const of = podTrigger(workloadSpreadReconciler as Reconciler)!;
    const annotations = { 'apps.kruise.io/matched-workloadspread': JSON.stringify({ name: 'spread', subset: 'zone-a' }) };
    expect(of({ metadata: { name: 'p', namespace: 'ns', annotations } })).toEqual([{ namespace: 'ns', name: 'spread' }]);
    expect(of({ metadata: { name: 'p', namespace: 'ns', annotations: { other: 'x' } } })).toEqual([]);
    expect(of({ metadata: { name: 'p', namespace: 'ns', annotations: { 'apps.kruise.io/matched-workloadspread': '{"subset":"a"}' } } })).toEqual([]);
  });
});
