import { describe, expect, it } from 'vitest';
import type { StoredDaemonSet as DaemonSet } from '../types.js';
import { nodesToCreateOn, PROGRESSIVE_CREATE_POD_ANNOTATION } from './progressive-create.js';

const ds = (opts: { progressive?: boolean; partition?: number | string | null; type?: string; desiredNumberScheduled?: number }): DaemonSet => ({
  metadata: { name: 'd', namespace: 'ns', ...(opts.progressive ? { annotations: { [PROGRESSIVE_CREATE_POD_ANNOTATION]: 'true' } } : {}) },
  spec: {
    selector: { matchLabels: { app: 'd' } }, template: {},
    updateStrategy: { type: opts.type ?? 'RollingUpdate', rollingUpdate: opts.partition === undefined ? {} : { partition: opts.partition as number } },
  },
  status: { currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, daemonSetHash: '', desiredNumberScheduled: opts.desiredNumberScheduled ?? 5 },
}) as DaemonSet;
const NEEDING = ['n4', 'n2', 'n0', 'n3', 'n1'];

// Vectors as OpenKruise's GetNodesNeedingPods computes them (daemonset_util.go).
describe('progressive-create-pod (GetNodesNeedingPods)', () => {
  it('holds creations to desired − updated − partition, first nodes by name', () => {
    expect(nodesToCreateOn(ds({ progressive: true, partition: 3 }), NEEDING, { desired: 5, updated: 0 })).toEqual(['n0', 'n1']);
    expect(nodesToCreateOn(ds({ progressive: true, partition: 3 }), ['n3', 'n4'], { desired: 5, updated: 1 })).toEqual(['n3']);
    expect(nodesToCreateOn(ds({ progressive: true, partition: 5 }), NEEDING, { desired: 5, updated: 0 })).toEqual([]);
    expect(nodesToCreateOn(ds({ progressive: true, partition: 9 }), NEEDING, { desired: 5, updated: 0 })).toEqual([]);
  });

  it('a percentage partition is scaled against status.desiredNumberScheduled, rounded down', () => {
    expect(nodesToCreateOn(ds({ progressive: true, partition: '50%', desiredNumberScheduled: 5 }), NEEDING, { desired: 5, updated: 0 })).toEqual(['n0', 'n1', 'n2']);
    // No status yet: 50% of 0 is 0, so nothing is held (as upstream on a DaemonSet's first run).
    expect(nodesToCreateOn(ds({ progressive: true, partition: '50%', desiredNumberScheduled: 0 }), NEEDING, { desired: 5, updated: 0 })).toHaveLength(5);
  });

  it('creates everywhere without the annotation, without a partition, with partition 0, or with OnDelete', () => {
    expect(nodesToCreateOn(ds({ partition: 3 }), NEEDING, { desired: 5, updated: 0 })).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(nodesToCreateOn(ds({ progressive: true }), NEEDING, { desired: 5, updated: 0 })).toHaveLength(5);
    expect(nodesToCreateOn(ds({ progressive: true, partition: 0 }), NEEDING, { desired: 5, updated: 0 })).toHaveLength(5);
    expect(nodesToCreateOn(ds({ progressive: true, partition: 3, type: 'OnDelete' }), NEEDING, { desired: 5, updated: 0 })).toHaveLength(5);
  });
});

describe('v1beta1 scaleStrategy.partitionedScaling', () => {
  const scaled = (partitionedScaling: boolean) => {
    const d = ds({ partition: 3 });
    return { ...d, spec: { ...d.spec, scaleStrategy: { partitionedScaling } } } as DaemonSet;
  };

  it('holds creations as the annotation does', () => {
    expect(nodesToCreateOn(scaled(true), NEEDING, { desired: 5, updated: 0 })).toEqual(['n0', 'n1']);
  });

  it('false creates everywhere', () => {
    expect(nodesToCreateOn(scaled(false), NEEDING, { desired: 5, updated: 0 })).toHaveLength(5);
  });
});
