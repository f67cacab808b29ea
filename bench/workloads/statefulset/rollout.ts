// The StatefulSet section of `npm run bench:workloads`: the same image change on two StatefulSets
// with the same pod template (bench/cluster/cluster.ts's) and `replicas` ready pods each —
//   - an Advanced StatefulSet (apps.kruise.io/v1beta1), Parallel, maxUnavailable 3,
//     InPlaceIfPossible: our controller on the Node loop, in its own process;
//   - an apps/v1 StatefulSet, RollingUpdate with OrderedReady (the defaults): kube-controller-manager.
// Per rollout: wall time from the spec change to every pod updated and Ready, and to the
// StatefulSet's status saying so (both from watch events: bench/cluster/rollout-watch.ts); when pods got
// there, and each step of a pod's update with who took it (per-pod medians); the controller's API
// writes, attributed as bench/cloneset/rollout.ts does; the pods recreated.
//
// serviceName names a Service that is never created: neither controller looks it up, and without
// one no endpoints controller writes for every readiness change in the window.
import type { KubeObject } from '../../../src/kube/http.js';
import { IMAGE, createNamespace, podTemplate, type BenchCluster } from '../../cluster/cluster.js';
import type { LoopChild } from '../../cluster/children.js';
import { IN_PLACE_MARKS, RECREATE_MARKS, bringUpAndRoll, type RolloutWorkload, type WatchedRollout } from '../../cluster/watched-rollout.js';

export type StatefulSetRollout = WatchedRollout;

export const STATEFULSET_NAMESPACE = 'bench-statefulset';

export const ADVANCED_STATEFULSET = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } as const;
export const NATIVE_STATEFULSET = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;
export const MAX_UNAVAILABLE = 3;

type Named = KubeObject & { metadata: { name: string; namespace: string } };

export function advancedStatefulSet(name: string, namespace: string, replicas: number, image: string): Named {
  return {
    ...ADVANCED_STATEFULSET, metadata: { name, namespace },
    spec: {
      replicas, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } }, template: withInPlaceGate(podTemplate(name, image)),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE, podUpdatePolicy: 'InPlaceIfPossible' } },
    },
  };
}

/** The template with the InPlaceUpdateReady readiness gate, which in-place updates require (as OpenKruise's validation does). */
function withInPlaceGate(template: Record<string, unknown>): Record<string, unknown> {
  const spec = template.spec as Record<string, unknown>;
  return { ...template, spec: { ...spec, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } };
}

export function nativeStatefulSet(name: string, namespace: string, replicas: number, image: string): Named {
  return {
    ...NATIVE_STATEFULSET, metadata: { name, namespace },
    spec: {
      replicas, serviceName: name, podManagementPolicy: 'OrderedReady', selector: { matchLabels: { app: name } }, template: podTemplate(name, image),
      updateStrategy: { type: 'RollingUpdate' },
    },
  };
}

type Status = { observedGeneration?: number; replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; currentRevision?: string; updateRevision?: string };

/** The StatefulSet's status reports every replica updated and ready at its current generation, the rollout complete. */
export function statefulSetStatusDone(got: KubeObject, replicas: number, ours: boolean): boolean {
  const s = (got.status ?? {}) as Status;
  if ((s.observedGeneration ?? 0) < ((got.metadata as { generation?: number } | undefined)?.generation ?? 0) || s.replicas !== replicas || s.readyReplicas !== replicas) return false;
  // apps/v1 (1.20) has no updatedReadyReplicas; its currentRevision moves once every pod is updated and ready.
  const updated = ours ? s.updatedReadyReplicas : s.updatedReplicas;
  return updated === replicas && s.currentRevision === s.updateRevision;
}

export type StatefulSetRollouts = { replicas: number; bringUpMs: number; results: StatefulSetRollout[]; failures: { workload: string; error: string }[] };

export async function measureStatefulSets(c: BenchCluster, loop: LoopChild, replicas: number, log: (m: string) => void): Promise<StatefulSetRollouts> {
  await createNamespace(c.kube, STATEFULSET_NAMESPACE);
  const namespace = STATEFULSET_NAMESPACE;
  const workloads: RolloutWorkload[] = [
    { object: nativeStatefulSet('native', namespace, replicas, IMAGE(1)), namespace, label: 'apps/v1 StatefulSet', controller: 'kube-controller-manager', app: 'native', ours: false, marks: RECREATE_MARKS, statusDone: (o) => statefulSetStatusDone(o, replicas, false) },
    { object: advancedStatefulSet('advanced', namespace, replicas, IMAGE(1)), namespace, label: 'Advanced StatefulSet', controller: 'Node loop', app: 'advanced', ours: true, marks: IN_PLACE_MARKS, statusDone: (o) => statefulSetStatusDone(o, replicas, true) },
  ];
  return { replicas, ...(await bringUpAndRoll(c, loop, workloads, replicas, 'StatefulSet', log)) };
}
