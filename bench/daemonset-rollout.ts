// The DaemonSet section of `npm run bench:workloads`: an image change over 50 fake nodes of their
// own (a pool label the template selects, a taint it tolerates, so no other section's pods land
// there), on two DaemonSets with the same pod template and maxUnavailable 10% —
//   - an Advanced DaemonSet (apps.kruise.io/v1alpha1), InPlaceIfPossible: our controller on the
//     Node loop, in its own process;
//   - an apps/v1 DaemonSet, RollingUpdate: kube-controller-manager.
// Measured as the StatefulSet section is (bench/watched-rollout.ts). The nodes go at the end.
import type { KubeObject } from '../src/kube/http.js';
import { IMAGE, createNamespace, podTemplate, podsOf, rolledOut, sleep, until, type BenchCluster } from './cloneset-cluster.js';
import type { LoopChild } from './cloneset-children.js';
import { IN_PLACE_MARKS, RECREATE_MARKS, rollOne, type RolloutWorkload, type WatchedRollout } from './watched-rollout.js';
import { met, native, ours, s1, watchedRolloutLines, x2 } from './watched-report.js';

export const DAEMONSET_NAMESPACE = 'bench-daemonset';
export const NODES = 50;
export const MAX_UNAVAILABLE = '10%';
/** Ours (Advanced DaemonSet, in place) against the native DaemonSet, wall time. */
export const GOAL_VS_NATIVE = 0.5;
const POOL = 'bench.kruise-serverless.io/ds-pool';
const BRING_UP_TIMEOUT_MS = 300_000;

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
    const t0 = performance.now();
    for (const w of workloads) w.object = (await c.kube.create(w.object)) as RolloutWorkload['object'];
    await until(`${NODES} ready pods for each DaemonSet`, async () => {
      for (const w of workloads) {
        if (!rolledOut(await podsOf(c.kube, namespace, w.app), NODES, IMAGE(1))) return undefined;
        if (!statusDone(await c.kube.get(w.object.apiVersion!, w.object.kind!, w.app, namespace))) return undefined;
      }
      return true;
    }, BRING_UP_TIMEOUT_MS, 500);
    const bringUpMs = performance.now() - t0;
    log(`both DaemonSets at ${NODES} ready pods in ${(bringUpMs / 1000).toFixed(1)} s`);
    await sleep(3_000);
    const results: WatchedRollout[] = [];
    const failures: { workload: string; error: string }[] = [];
    // One at a time, the native one first, while the loop idles.
    for (const w of workloads) {
      try {
        results.push(await rollOne(c, loop, w, NODES, log));
      } catch (e) {
        failures.push({ workload: w.label, error: e instanceof Error ? e.message : String(e) });
        log(`${w.label}: ${failures.at(-1)!.error}`);
      }
    }
    return { nodes: NODES, bringUpMs, results, failures };
  } finally {
    await c.kubelet.removeNodes(nodeNames).catch((e: unknown) => log(`removing the DaemonSet nodes: ${String(e)}`));
  }
}

export function daemonSetLines(r: DaemonSetRollouts): string[] {
  return [...watchedRolloutLines(r, DAEMONSET_NAMESPACE), `  bring-up of both together: ${s1(r.bringUpMs)} s`];
}

export function daemonSetGoals(r: DaemonSetRollouts): string[] {
  const o = ours(r);
  const n = native(r);
  const failed = r.failures.map((f) => `${f.workload} rollout FAILED (${f.error})`);
  if (!o || !n) return failed;
  const ratio = o.wallMs / n.wallMs;
  return [`Advanced DaemonSet (in place, maxUnavailable ${MAX_UNAVAILABLE}) ≤ ${GOAL_VS_NATIVE}× apps/v1 DaemonSet: ${met(ratio <= GOAL_VS_NATIVE)} (${x2(ratio)})`, ...failed];
}
