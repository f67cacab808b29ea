// The workloads of the kubelet-model figures, each with the strategy the figures compare and that
// strategy's kubelet-bound ideal (ideal.ts): ours in place (CloneSet, Advanced StatefulSet Parallel,
// Advanced DaemonSet) and the native ones kube-controller-manager runs (Deployment at 25% and 0
// surge, StatefulSet OrderedReady, DaemonSet). One image repository per workload, so one rollout's
// pulls never warm the node cache for the next. Every pod lands on the section's pool of nodes.
import type { KubeObject } from '../../../src/kube/http.js';
import type { KubeletModel } from '../../../test/cluster/kubelet-model.js';
import { podTemplate } from '../../cluster/cluster.js';
import { IN_PLACE_MARKS, RECREATE_MARKS } from '../../cluster/watched-rollout.js';
import type { Mark } from '../../cluster/rollout-watch.js';
import { statefulSetStatusDone } from '../statefulset/rollout.js';
import { idealDeployment, idealInPlace, idealOrderedReady, idealRecreateWindow, type PodSlot } from './ideal.js';

export const POOL = 'bench.kruise-serverless.io/model-pool';
export const imageOf = (app: string, v: number) => `registry.example.com/bench/${app}:${v}`;

type Named = KubeObject & { metadata: { name: string; namespace: string } };
export type Sizes = { pods: number; nodes: number; statefulSetPods: number };

export type ModelWorkload = {
  app: string;
  label: string;
  controller: string;
  ours: boolean;
  /** Pods it runs. */
  replicas: number;
  /** Pods down at a time (ours: its maxUnavailable). */
  window: number;
  marks: readonly Mark[];
  object(namespace: string, image: string): Named;
  statusDone(o: KubeObject): boolean;
  ideal(model: KubeletModel, pods: readonly PodSlot[], image: string): number;
};

const quarter = (n: number) => Math.max(1, Math.floor(n / 4));

function template(app: string, image: string, inPlaceGate = false): Record<string, unknown> {
  const t = podTemplate(app, image) as { metadata: unknown; spec: Record<string, unknown> };
  return {
    ...t,
    spec: {
      ...t.spec, nodeSelector: { [POOL]: 'yes' }, tolerations: [{ key: POOL, operator: 'Exists', effect: 'NoSchedule' }],
      ...(inPlaceGate ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}),
    },
  };
}

type Status = { observedGeneration?: number; replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; availableReplicas?: number;
  desiredNumberScheduled?: number; updatedNumberScheduled?: number; numberAvailable?: number };
const statusOf = (o: KubeObject) => (o.status ?? {}) as Status;
const observed = (o: KubeObject) => (statusOf(o).observedGeneration ?? 0) >= ((o.metadata as { generation?: number } | undefined)?.generation ?? 0);

export function cloneSetInPlace(s: Sizes): ModelWorkload {
  const window = quarter(s.pods);
  return {
    app: 'cloneset', label: 'CloneSet in place', controller: 'Node loop', ours: true, replicas: s.pods, window, marks: IN_PLACE_MARKS,
    object: (namespace, image) => ({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'cloneset', namespace },
      spec: { replicas: s.pods, selector: { matchLabels: { app: 'cloneset' } }, template: template('cloneset', image), updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: window, maxSurge: 0 } },
    }),
    statusDone: (o) => observed(o) && statusOf(o).updatedReadyReplicas === s.pods && statusOf(o).readyReplicas === s.pods,
    ideal: (m, pods, image) => idealInPlace(m, pods, image, window),
  };
}

/** The Deployment at `surge` ('25%', its default, or 0); maxUnavailable 25% (its default). */
export function deployment(s: Sizes, surge: '25%' | 0): ModelWorkload {
  return {
    app: 'deployment', label: `Deployment, maxSurge ${surge}`, controller: 'kube-controller-manager', ours: false, replicas: s.pods, window: quarter(s.pods), marks: RECREATE_MARKS,
    object: (namespace, image) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'deployment', namespace },
      spec: { replicas: s.pods, selector: { matchLabels: { app: 'deployment' } }, template: template('deployment', image), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: '25%' } } },
    }),
    statusDone: (o) => observed(o) && statusOf(o).replicas === s.pods && statusOf(o).updatedReplicas === s.pods && statusOf(o).availableReplicas === s.pods,
    // The Deployment rounds surge up and unavailability down.
    ideal: (m, pods, image) => idealDeployment(m, pods, image, surge === 0 ? 0 : Math.ceil(s.pods / 4), Math.floor(s.pods / 4)),
  };
}

export function advancedStatefulSet(s: Sizes): ModelWorkload {
  const n = s.statefulSetPods;
  const window = quarter(n);
  return {
    app: 'asts', label: 'Advanced StatefulSet Parallel in place', controller: 'Node loop', ours: true, replicas: n, window, marks: IN_PLACE_MARKS,
    object: (namespace, image) => ({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'asts', namespace },
      spec: {
        replicas: n, serviceName: 'asts', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'asts' } }, template: template('asts', image, true),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: window, podUpdatePolicy: 'InPlaceIfPossible' } },
      },
    }),
    statusDone: (o) => statefulSetStatusDone(o, n, true),
    ideal: (m, pods, image) => idealInPlace(m, pods, image, window),
  };
}

export function nativeStatefulSet(s: Sizes): ModelWorkload {
  const n = s.statefulSetPods;
  return {
    app: 'sts', label: 'StatefulSet OrderedReady', controller: 'kube-controller-manager', ours: false, replicas: n, window: 1, marks: RECREATE_MARKS,
    object: (namespace, image) => ({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'sts', namespace },
      spec: { replicas: n, serviceName: 'sts', podManagementPolicy: 'OrderedReady', selector: { matchLabels: { app: 'sts' } }, template: template('sts', image), updateStrategy: { type: 'RollingUpdate' } },
    }),
    statusDone: (o) => statefulSetStatusDone(o, n, false),
    ideal: (m, pods, image) => idealOrderedReady(m, [...pods].sort((a, b) => ordinal(a.key) - ordinal(b.key)), image),
  };
}

const ordinal = (key: string) => Number(/-(\d+)$/.exec(key)?.[1] ?? 0);

const daemonSetDone = (nodes: number) => (o: KubeObject) => observed(o) && statusOf(o).desiredNumberScheduled === nodes && statusOf(o).updatedNumberScheduled === nodes && statusOf(o).numberAvailable === nodes;

export function advancedDaemonSet(s: Sizes): ModelWorkload {
  const window = quarter(s.nodes);
  return {
    app: 'ads', label: 'Advanced DaemonSet in place', controller: 'Node loop', ours: true, replicas: s.nodes, window, marks: IN_PLACE_MARKS,
    object: (namespace, image) => ({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'ads', namespace },
      spec: { selector: { matchLabels: { app: 'ads' } }, template: template('ads', image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: window } } },
    }),
    statusDone: daemonSetDone(s.nodes),
    ideal: (m, pods, image) => idealInPlace(m, pods, image, window),
  };
}

export function nativeDaemonSet(s: Sizes): ModelWorkload {
  const window = quarter(s.nodes);
  return {
    app: 'ds', label: 'DaemonSet', controller: 'kube-controller-manager', ours: false, replicas: s.nodes, window, marks: RECREATE_MARKS,
    object: (namespace, image) => ({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds', namespace },
      spec: { selector: { matchLabels: { app: 'ds' } }, template: template('ds', image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: window } } },
    }),
    statusDone: daemonSetDone(s.nodes),
    ideal: (m, pods, image) => idealRecreateWindow(m, pods, image, window),
  };
}
