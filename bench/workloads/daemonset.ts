// The DaemonSet section of `npm run bench:workloads`: an image change over 50 fake nodes of their
// own (a pool label the template selects, a taint it tolerates, so no other section's pods land
// there), on two DaemonSets with the same pod template and maxUnavailable 10% —
//   - an Advanced DaemonSet (apps.kruise.io/v1alpha1), InPlaceIfPossible: our controller on the
//     Node loop, in its own process;
//   - an apps/v1 DaemonSet, RollingUpdate: kube-controller-manager.
// Measured as the StatefulSet section is (bench/cluster/watched-rollout.ts). The nodes go at the end.
import type { KubeObject } from '../../src/kube/http.js';
import { IMAGE, createNamespace, podTemplate, type BenchCluster } from '../cluster/cluster.js';
import type { LoopChild } from '../cluster/children.js';
import { IN_PLACE_MARKS, RECREATE_MARKS, bringUpAndRoll, type RolloutWorkload, type WatchedRollout } from '../cluster/watched-rollout.js';
import { goalLines, s1, watchedRolloutLines } from '../cluster/watched-report.js';

export const DAEMONSET_NAMESPACE = 'bench-daemonset';
export const NODES = 50;
export const MAX_UNAVAILABLE = '10%';
/** Ours (Advanced DaemonSet, in place) against the native DaemonSet, wall time. */
export const GOAL_VS_NATIVE = 0.5;
const POOL = 'bench.kruise-serverless.io/ds-pool';

const nodeNames = Array.from({ length: NODES }, (_, i) => `ds-bench-${String(i).padStart(2, '0')}`);

function template(app: string, image: string): Record<string, unknown> {
  const t = podTemplate(app, image) as { metadata: unknown; spec: Record<string, unknown> };
  return {
    ...t,
    spec: {
      ...t.spec, nodeSelector: { [POOL]: 'yes' }, tolerations: [{ key: POOL, operator: 'Exists', effect: 'NoSchedule' }],
    },
  };
}

type Named = KubeObject & { metadata: { name: string; namespace: string } };

export function advancedDaemonSet(name: string, namespace: string, image: string): Named {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name, namespace },
    spec: { selector: { matchLabels: { app: name } }, template: template(name, image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: MAX_UNAVAILABLE } } },
  };
}

export function nativeDaemonSet(name: string, namespace: string, image: string): Named {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace },
    spec: { selector: { matchLabels: { app: name } }, template: template(name, image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE } } },
  };
}

type Status = { observedGeneration?: number; desiredNumberScheduled?: number; updatedNumberScheduled?: number; numberAvailable?: number };

/** Every node's pod updated and available, at the current generation. */
function statusDone(got: KubeObject): boolean {
  const s = (got.status ?? {}) as Status;
  const generation = (got.metadata as { generation?: number } | undefined)?.generation ?? 0;
  return (s.observedGeneration ?? 0) >= generation && s.desiredNumberScheduled === NODES && s.updatedNumberScheduled === NODES && s.numberAvailable === NODES;
}

export type DaemonSetRollouts = { nodes: number; bringUpMs: number; results: WatchedRollout[]; failures: { workload: string; error: string }[] };

export async function measureDaemonSets(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<DaemonSetRollouts> {
  const namespace = DAEMONSET_NAMESPACE;
  await c.kubelet.addNodes(nodeNames.map((name) => ({ name, labels: { [POOL]: 'yes' }, taints: [{ key: POOL, value: 'yes', effect: 'NoSchedule' }] })));
  try {
    await createNamespace(c.kube, namespace);
    const workloads: RolloutWorkload[] = [
      { object: nativeDaemonSet('native', namespace, IMAGE(1)), namespace, label: 'apps/v1 DaemonSet', controller: 'kube-controller-manager', app: 'native', ours: false, marks: RECREATE_MARKS, statusDone },
      { object: advancedDaemonSet('advanced', namespace, IMAGE(1)), namespace, label: 'Advanced DaemonSet', controller: 'Node loop', app: 'advanced', ours: true, marks: IN_PLACE_MARKS, statusDone },
    ];
    return { nodes: NODES, ...(await bringUpAndRoll(c, loop, workloads, NODES, 'DaemonSet', log)) };
  } finally {
    await c.kubelet.removeNodes(nodeNames).catch((e: unknown) => log(`removing the DaemonSet nodes: ${String(e)}`));
  }
}

export function daemonSetLines(r: DaemonSetRollouts): string[] {
  return [...watchedRolloutLines(r, DAEMONSET_NAMESPACE), `  bring-up of both together: ${s1(r.bringUpMs)} s`];
}

export function daemonSetGoals(r: DaemonSetRollouts): string[] {
  return goalLines(r, `Advanced DaemonSet (in place, maxUnavailable ${MAX_UNAVAILABLE}) ≤ ${GOAL_VS_NATIVE}× apps/v1 DaemonSet`, GOAL_VS_NATIVE);
}
