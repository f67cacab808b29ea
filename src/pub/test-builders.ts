// Small builders for PUB tests: pods, PUBs, budget states and resync requests.
import type { Pod } from '../workload/pods.js';
import type { PodFact, PubBudgetState } from './budget-state.js';
import type { PubResyncRequest } from './resync.js';
import { PUB_OPERATIONS, RELATED_PUB_ANNOTATION, type PodUnavailableBudget } from './types.js';

export function readyPod(name: string, opts: { ns?: string; labels?: Record<string, string>; annotations?: Record<string, string>; pub?: string; ready?: boolean; owner?: { kind: string; name: string; apiVersion?: string } } = {}): Pod {
  const annotations = { ...(opts.pub ? { [RELATED_PUB_ANNOTATION]: opts.pub } : {}), ...opts.annotations };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: opts.ns ?? 'default',
      uid: `uid-${name}`,
      labels: opts.labels ?? { app: 'web' },
      annotations,
      ...(opts.owner
        ? { ownerReferences: [{ apiVersion: opts.owner.apiVersion ?? 'apps/v1', kind: opts.owner.kind, name: opts.owner.name, uid: `uid-${opts.owner.name}`, controller: true }] }
        : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
      containerStatuses: [{ name: 'main', ready: opts.ready !== false, image: 'nginx:1.25', imageID: 'docker.io/library/nginx@sha256:abc' }],
    },
  };
}

export function pub(name: string, spec: PodUnavailableBudget['spec'] = { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 2 }, opts: { ns?: string; annotations?: Record<string, string>; generation?: number } = {}): PodUnavailableBudget {
  return {
    apiVersion: 'policy.kruise.io/v1alpha1',
    kind: 'PodUnavailableBudget',
    metadata: { name, namespace: opts.ns ?? 'default', uid: `uid-${name}`, generation: opts.generation ?? 1, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec,
  } as PodUnavailableBudget;
}

export function facts(available: number, extra: Record<string, PodFact> = {}): Record<string, PodFact> {
  const out: Record<string, PodFact> = {};
  for (let i = 0; i < available; i++) out[`pod-${i}`] = 'available';
  return { ...out, ...extra };
}

export function resyncReq(pods: Record<string, PodFact>, desiredAvailable: number, over: Partial<PubResyncRequest> = {}): PubResyncRequest {
  return { pub: 'web', uid: 'uid-web', generation: 1, desiredAvailable, totalReplicas: Object.keys(pods).length, protectOperations: [...PUB_OPERATIONS], pods, observedAt: 0, ...over };
}

export function budget(over: Partial<PubBudgetState> = {}): PubBudgetState {
  return {
    pub: 'web', uid: 'uid-web', generation: 1, desiredAvailable: 8, totalReplicas: 10, currentAvailable: 10, unavailableAllowed: 2,
    protectOperations: [...PUB_OPERATIONS], pods: facts(10), disruptedPods: {}, unavailablePods: {}, resyncedAt: 0, observedAt: 0, refusals: {},
    ...over,
  };
}
