import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import type { StoredCloneSet } from '../types.js';
import { isCloneSetPodAvailable } from './availability.js';
import { expectationDiffs, type ExpectationDiffs } from './diffs.js';
import vectors from './testdata/diffs-vectors.json' with { type: 'json' };

type Vector = {
  name: string;
  cloneSet: { replicas: number; partition: number | string; maxUnavailable: number | string; maxSurge: number | string; scaleMaxUnavailable?: number | string; paused?: boolean; excludePreparingDelete?: boolean };
  pods: [revision: 'old' | 'new', state: string, ready: boolean, specifiedDelete: boolean][];
  expect: Partial<ExpectationDiffs>;
  revisionConsistent?: boolean;
  disableFeatureGate?: boolean;
  preparingUpdateAsUpdate?: boolean;
};

const ZERO: ExpectationDiffs = { scaleUpNum: 0, scaleUpNumOldRevision: 0, scaleDownNum: 0, scaleDownNumOldRevision: 0, scaleUpLimit: 0, deleteReadyLimit: 0, useSurge: 0, useSurgeOldRevision: 0, updateNum: 0, updateMaxUnavailable: 0 };

function cloneSetOf(v: Vector['cloneSet']): StoredCloneSet {
  return {
    metadata: { name: 'cs', namespace: 'ns' },
    spec: {
      replicas: v.replicas,
      selector: {},
      template: {},
      updateStrategy: { partition: v.partition, maxUnavailable: v.maxUnavailable, maxSurge: v.maxSurge, ...(v.paused ? { paused: true } : {}) },
      ...(v.scaleMaxUnavailable !== undefined || v.excludePreparingDelete ? { scaleStrategy: { ...(v.scaleMaxUnavailable !== undefined ? { maxUnavailable: v.scaleMaxUnavailable } : {}), ...(v.excludePreparingDelete ? { excludePreparingDelete: true } : {}) } } : {}),
    },
  };
}

function podOf([revision, state, ready, specifiedDelete]: Vector['pods'][number], i: number): Pod {
  return {
    metadata: {
      name: `p${i}`,
      namespace: 'ns',
      labels: { 'controller-revision-hash': `${revision}_rev`, 'lifecycle.apps.kruise.io/state': state, ...(specifiedDelete ? { 'apps.kruise.io/specified-delete': 'true' } : {}) },
    },
    spec: { containers: [] },
    ...(ready ? { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } : {}),
  };
}

describe('expectationDiffs: OpenKruise calculateDiffsWithExpectation vectors', () => {
  for (const v of (vectors as unknown as { cases: Vector[] }).cases) {
    it(v.name, () => {
      const pods = v.pods.map(podOf);
      const current = v.revisionConsistent ? 'new_rev' : 'old_rev';
      const got = expectationDiffs(cloneSetOf(v.cloneSet), pods, current, 'new_rev', {
        isUpdated: (p) => p.metadata.labels?.['controller-revision-hash'] === 'new_rev' || Boolean(v.preparingUpdateAsUpdate && p.metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingUpdate'),
        isAvailable: (p) => isCloneSetPodAvailable(p, 0, 0),
        isSpecifiedDelete: (p) => p.metadata.labels?.['apps.kruise.io/specified-delete'] === 'true',
        partitionRollback: !v.disableFeatureGate,
        excludePreparingDelete: Boolean(v.cloneSet.excludePreparingDelete),
      });
      expect(got).toEqual({ ...ZERO, ...v.expect });
    });
  }
});
