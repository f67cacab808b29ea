// Part 2 of `npm run bench:cloneset`: a no-op full resync (`reconcile --once` for CloneSets) over
// `step` CloneSets × `podsEach` ready pods, for each step, in a child process whose peak RSS is its
// own. The pods are the controller's own: it creates them (driven here by back-to-back full
// resyncs, as a `reconcile --once` CronJob would, until a resync plans nothing and every CloneSet
// reports its pods ready) and the fake kubelet makes them ready. The kubelet is paused while the
// resyncs are measured (nothing changes; its LIST of every pod would only add noise).
import { join } from 'node:path';
import type { KubeObject } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { reconcilers } from '../../src/reconcilers.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { total } from '../cluster/counting.js';
import { CLONESET, IMAGE, cloneSet, createNamespace, sleep, type BenchCluster } from '../cluster/cluster.js';
import { startRecorder } from '../harness/api-recorder.js';
import { runResync, type Bundles, type ResyncFigures } from '../cluster/children.js';

export const FLEET_NAMESPACES = Array.from({ length: 10 }, (_, i) => `bench-fleet-${i}`);
const SETUP_TIMEOUT_MS = 45 * 60_000;
const MEASURED_RUNS = 3;
/**
 * V8's young generation capped at 2 × 4 MB (default: grows to 2 × 16 MB). Measured beside the
 * default: a deployment's choice (NODE_OPTIONS), not the code's.
 */
export const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=4'];

export type ResyncStep = {
  cloneSets: number;
  pods: number;
  /** Creating the CloneSets → every pod created, ready and reported by the controller. */
  setupMs: number;
  setupPasses: number;
  setupWrites: number;
  idle: ResyncFigures;
  runs: ResyncFigures[];
  /** The same resync under SMALL_YOUNG_GENERATION. */
  smallYoungRuns: ResyncFigures[];
};

export const listsOf = (f: ResyncFigures) => total(f.tally, (k) => k.startsWith('LIST '));
export const pagesOf = (f: ResyncFigures) => total(f.tally, (k) => k.startsWith('LIST'));

async function inParallel<T>(items: readonly T[], limit: number, each: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await each(items[next++]!);
  }));
}

type Status = { observedGeneration?: number; readyReplicas?: number; updatedReadyReplicas?: number; availableReplicas?: number };

/** Full resyncs until one plans nothing and every CloneSet reports `podsEach` ready, updated pods. */
async function converge(c: BenchCluster, cloneSets: number, podsEach: number, log: (m: string) => void): Promise<{ passes: number; writes: number }> {
  const reconciler = reconcilers().find((r) => r.kind === 'CloneSet');
  if (!reconciler) throw new Error('no CloneSet reconciler in src/reconcilers.ts');
  const deadline = Date.now() + SETUP_TIMEOUT_MS;
  let writes = 0;
  for (let pass = 1; ; pass++) {
    const r = await runReconciler(c.kube, reconciler, { identity: 'bench-setup', leaseDurationSeconds: 300 });
    const planned = r.plan.writes.length + r.plan.status.length;
    writes += r.applied;
    log(`setup pass ${pass}: ${r.plan.writes.length} writes, ${r.plan.status.length} status writes, ${r.plan.events.length} events planned, ${r.applied} applied, ${r.conflicts} conflicts, ${r.failed.length} failed, ${(r.durationMs / 1000).toFixed(1)} s`);
    if (planned === 0) {
      const list = (await c.kube.list<KubeObject & { metadata: { generation?: number }; status?: Status }>(CLONESET.apiVersion, CLONESET.kind)).items;
      const ready = list.filter((cs) => cs.status?.readyReplicas === podsEach && cs.status.updatedReadyReplicas === podsEach && (cs.status.observedGeneration ?? 0) >= (cs.metadata.generation ?? 0)).length;
      if (ready === cloneSets && list.length === cloneSets) return { passes: pass, writes };
      log(`setup: ${ready}/${cloneSets} CloneSets report ${podsEach} ready pods; waiting for the kubelet`);
    }
    if (Date.now() > deadline) throw new Error(`setup did not converge in ${SETUP_TIMEOUT_MS / 60_000} min`);
    await sleep(planned ? 500 : 3_000);
  }
}

export async function measureResyncs(c: BenchCluster, bundles: Bundles, steps: readonly number[], podsEach: number, log: (m: string) => void): Promise<ResyncStep[]> {
  for (const ns of FLEET_NAMESPACES) await createNamespace(c.kube, ns);
  const out: ResyncStep[] = [];
  let created = 0;
  for (const step of steps) {
    const t0 = performance.now();
    const names = Array.from({ length: step - created }, (_, i) => created + i);
    // Spread over the namespaces, so every step's LISTs are cluster-wide ones.
    await inParallel(names, 8, (i) => c.kube.create(cloneSet(`fleet-${i}`, FLEET_NAMESPACES[i % FLEET_NAMESPACES.length]!, podsEach, IMAGE(1))));
    created = step;
    log(`${step} CloneSets created (${((performance.now() - t0) / 1000).toFixed(1)} s); the controller makes their ${step * podsEach} pods`);
    const setup = await converge(c, step, podsEach, log);
    const setupMs = performance.now() - t0;
    log(`${step} CloneSets × ${podsEach} pods created and ready in ${(setupMs / 1000).toFixed(1)} s (${setup.passes} full resyncs, ${setup.writes} writes applied)`);
    await c.kubelet.stop();
    try {
      const idle = await runResync(bundles.resync, c.cp.kubeconfig, 'idle');
      const runs: ResyncFigures[] = [];
      for (let i = 0; i < MEASURED_RUNS; i++) {
        const f = await runResync(bundles.resync, c.cp.kubeconfig, 'resync');
        runs.push(f);
        log(`no-op resync at ${step} CloneSets: ${f.wallMs.toFixed(0)} ms, ${listsOf(f)} LISTs (${pagesOf(f)} pages), ${f.planned.writes + f.planned.status + f.planned.events} planned, ${f.applied} applied, peak RSS ${f.peakRssMb.toFixed(0)} MB`);
      }
      const smallYoungRuns: ResyncFigures[] = [];
      for (let i = 0; i < MEASURED_RUNS; i++) {
        const f = await runResync(bundles.resync, c.cp.kubeconfig, 'resync', SMALL_YOUNG_GENERATION);
        smallYoungRuns.push(f);
        log(`no-op resync at ${step} CloneSets under ${SMALL_YOUNG_GENERATION.join(' ')}: ${f.wallMs.toFixed(0)} ms, ${listsOf(f)} LISTs (${pagesOf(f)} pages), ${f.planned.writes + f.planned.status + f.planned.events} planned, ${f.applied} applied, peak RSS ${f.peakRssMb.toFixed(0)} MB`);
      }
      const recordDir = process.env.KS_BENCH_RECORD_DIR;
      if (recordDir) {
        // A recording of one more resync's requests and responses (bench/harness/api-recorder.ts replays it).
        const recorder = await startRecorder(loadKubeConfig(c.cp.kubeconfig), join(recordDir, `kubeconfig-${step}`));
        await runResync(bundles.resync, join(recordDir, `kubeconfig-${step}`), 'resync');
        recorder.save(join(recordDir, `resync-${step}.json`));
        await recorder.close();
        log(`recorded a resync at ${step} CloneSets in ${recordDir}`);
      }
      out.push({ cloneSets: step, pods: step * podsEach, setupMs, setupPasses: setup.passes, setupWrites: setup.writes, idle, runs, smallYoungRuns });
    } finally {
      c.kubelet.start();
    }
  }
  return out;
}
