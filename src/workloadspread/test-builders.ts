// Small builders for WorkloadSpread table tests.
import type { Pod, WorkloadSpread, WorkloadSpreadSubset } from './types.js';

export function subset(name: string, extra: Partial<WorkloadSpreadSubset> = {}): WorkloadSpreadSubset {
  return { name, ...extra };
}

export function workloadSpread(o: {
  name?: string;
  namespace?: string;
  uid?: string;
  subsets?: WorkloadSpreadSubset[];
  targetRef?: WorkloadSpread['spec']['targetRef'];
  spec?: Partial<WorkloadSpread['spec']>;
  status?: WorkloadSpread['status'];
  generation?: number;
} = {}): WorkloadSpread {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'WorkloadSpread',
    metadata: { name: o.name ?? 'spread', namespace: o.namespace ?? 'default', uid: o.uid ?? 'ws-uid', generation: o.generation ?? 1 },
    spec: {
      targetRef: o.targetRef ?? { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      subsets: o.subsets ?? [subset('a', { maxReplicas: 1 }), subset('b')],
      ...o.spec,
    },
    ...(o.status ? { status: o.status } : {}),
  } as WorkloadSpread;
}

type PodOptions = {
  name?: string;
  generateName?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  owner?: { apiVersion: string; kind: string; name: string };
  phase?: string;
  deleting?: boolean;
  spec?: Partial<NonNullable<Pod['spec']>>;
  status?: Pod['status'];
};

export function pod(o: PodOptions = {}): Pod {
  const owner = o.owner === undefined ? { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc' } : o.owner;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(o.name === undefined ? { generateName: o.generateName ?? 'web-abc-' } : { name: o.name }),
      namespace: o.namespace ?? 'default',
      labels: o.labels ?? { app: 'web', 'pod-template-hash': 'abc' },
      ...(o.annotations ? { annotations: o.annotations } : {}),
      ownerReferences: owner ? [{ ...owner, uid: `${owner.name}-uid`, controller: true }] : [],
      ...(o.deleting ? { deletionTimestamp: new Date(0) } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'app:1' }], ...o.spec },
    ...(o.phase || o.status ? { status: { ...(o.phase ? { phase: o.phase } : {}), ...o.status } } : {}),
  } as Pod;
}
