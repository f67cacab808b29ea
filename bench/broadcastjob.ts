// The BroadcastJob section for `npm run bench:jobs` (bench/jobs.ts calls broadcastJobSection):
// one BroadcastJob over 50 fake nodes with parallelism 10, our controller on the Node loop (its own
// process, its client counted), against a baseline measured in the same run on the same nodes: a
// client creating the same 50 pods itself, 10 at a time, each slot waiting for its pod to end.
// In both, every pod's container "exits 0" as soon as the fake kubelet reports it Running (the
// bench's watch tells the fake kubelet, completePod). Figures: wall time from the create (or the
// first create) to every pod Succeeded, and to the job's status saying completed; API writes per
// node (the loop's client for ours; the client's for the baseline). Printed, never asserted.
import type { KubeHttp, KubeObject } from '../src/kube/http.js';
import { describeWrites, total, writesOf } from './cloneset-counting.js';
import { IMAGE, type BenchCluster } from './cloneset-cluster.js';
import type { LoopChild } from './cloneset-children.js';
import { snapshot } from './cloneset-rollout.js';
import { measureNodePoolSection, runClientBaseline, runOurs, type NodeJobFigures, type NodeJobRun } from './node-pool-section.js';

export const BROADCASTJOB_NAMESPACE = 'bench-broadcastjob';
export const BROADCASTJOB_KINDS = ['BroadcastJob'];
const NODES = 50;
const PARALLELISM = 10;
const POOL = 'bench.kruise-serverless.io/bcj-pool';
const TIMEOUT_MS = 300_000;
/** After the last pod: trailing status writes and Events land before the counts are read. */
const SETTLE_MS = 3_000;
const WATCH_SECONDS = 600;

type Pod = KubeObject & { metadata: { name: string; namespace: string; uid: string; labels?: Record<string, string> }; status?: { phase?: string } };


const nodeNames = Array.from({ length: NODES }, (_, i) => `bcj-bench-${String(i).padStart(2, '0')}`);

function podSpec(): Record<string, unknown> {
  return {
    restartPolicy: 'Never', automountServiceAccountToken: false, terminationGracePeriodSeconds: 1,
    nodeSelector: { [POOL]: 'yes' }, tolerations: [{ key: POOL, operator: 'Exists', effect: 'NoSchedule' }],
    containers: [{ name: 'main', image: IMAGE(1) }],
  };
}

/**
 * A watch over the namespace's pods: plays each container exiting 0 once the pod runs, and
 * reports when pods have succeeded (`succeeded(label)` counts pods with that label key).
 */
async function podWatch(c: BenchCluster) {
  const listed = await c.kube.list<Pod>('v1', 'Pod', { namespace: BROADCASTJOB_NAMESPACE });
  const stop = new AbortController();
  const completed = new Set<string>();
  const succeeded = new Map<string, Pod>();
  const waiters = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  let broken: string | undefined;
  const breakWith = (why: string) => {
    if (stop.signal.aborted) return;
    broken ??= why;
    for (const w of waiters.values()) w.reject(new Error(why));
  };
  void c.kube.watch('v1', 'Pod', { resourceVersion: listed.resourceVersion, timeoutSeconds: WATCH_SECONDS, signal: stop.signal, namespace: BROADCASTJOB_NAMESPACE }, (e) => {
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
    const pod = e.object as Pod;
    const name = pod.metadata.name;
    if (pod.status?.phase === 'Running' && !completed.has(name)) {
      completed.add(name);
      c.kubelet.completePod(BROADCASTJOB_NAMESPACE, name, 0);
    }
    if (pod.status?.phase === 'Succeeded' && !succeeded.has(name)) {
      succeeded.set(name, pod);
      waiters.get(name)?.resolve();
    }
  }).then(() => breakWith('the pod watch ended'), (e: unknown) => breakWith(`the pod watch failed: ${String(e)}`));
  return {
    count: (labelKey: string) => [...succeeded.values()].filter((p) => p.metadata.labels?.[labelKey] !== undefined).length,
    /** Resolves once the pod has succeeded. */
    ended: (name: string) => new Promise<void>((resolve, reject) => {
      if (succeeded.has(name)) resolve();
      else if (broken) reject(new Error(broken));
      else waiters.set(name, { resolve, reject });
    }),
    get broken() { return broken; },
    stop: () => stop.abort(),
  };
}

async function jobCompleted(kube: KubeHttp): Promise<boolean> {
  const job = await kube.get<KubeObject & { status?: { phase?: string } }>('apps.kruise.io/v1alpha1', 'BroadcastJob', 'bench', BROADCASTJOB_NAMESPACE);
  return job.status?.phase === 'completed';
}

async function measureOurs(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<NodeJobRun> {
  const watch = await podWatch(c);
  try {
    const r = await runOurs({
      what: 'the BroadcastJob: every pod succeeded and its status completed', timeoutMs: TIMEOUT_MS, settleMs: SETTLE_MS,
      snapshot: async () => (await snapshot(c, loop)).loop,
      start: async () => void (await c.kube.create({
        apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', metadata: { name: 'bench', namespace: BROADCASTJOB_NAMESPACE },
        spec: { parallelism: PARALLELISM, completionPolicy: { type: 'Always' }, template: { spec: podSpec() } },
      })),
      allDone: () => watch.count('broadcastjob-name') === NODES,
      statusDone: () => jobCompleted(c.kube),
      broken: () => watch.broken,
    });
    log(`BroadcastJob: ${NODES} pods succeeded in ${(r.wallMs / 1000).toFixed(2)} s, status completed at ${(r.statusMs / 1000).toFixed(2)} s; ${total(r.writes)} writes (${describeWrites(r.writes)})`);
    return { label: `BroadcastJob, parallelism ${PARALLELISM} (ours, Node loop)`, ...r };
  } finally {
    watch.stop();
  }
}

async function measureBaseline(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<NodeJobRun> {
  const watch = await podWatch(c);
  try {
    const { wallMs, writes: own } = await runClientBaseline({
      nodes: NODES, parallelism: PARALLELISM, timeoutMs: TIMEOUT_MS, settleMs: SETTLE_MS,
      snapshot: async () => (await snapshot(c, loop)).own,
      async runOne(i) {
        const name = `direct-${String(i).padStart(2, '0')}`;
        const spec = podSpec();
        await c.kube.create({
          apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: BROADCASTJOB_NAMESPACE, labels: { 'bench-direct': 'yes' } },
          spec: { ...spec, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeNames[i]] }] }] } } } },
        });
        await watch.ended(name);
      },
    });
    const writes = writesOf(own);
    log(`baseline: ${NODES} pods created and succeeded in ${(wallMs / 1000).toFixed(2)} s; ${total(writes)} writes (${describeWrites(writes)})`);
    return { label: `the same pods created by a client, ${PARALLELISM} at a time`, wallMs, writes };
  } finally {
    watch.stop();
  }
}

/** Measures both on 50 pool nodes of its own. */
export async function broadcastJobSection(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<{ lines: string[]; goals: string[]; figures: NodeJobFigures }> {
  return measureNodePoolSection(c, log, {
    kind: 'BroadcastJob', namespace: BROADCASTJOB_NAMESPACE, pool: POOL, nodeNames, parallelism: PARALLELISM,
    measureOurs: () => measureOurs(c, loop, log),
    measureBaseline: () => measureBaseline(c, loop, log),
  });
}
