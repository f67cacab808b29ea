// The BroadcastJob section for `npm run bench:jobs` (bench/jobs/main.ts calls broadcastJobSection):
// one BroadcastJob over 50 fake nodes with parallelism 10, our controller on the Node loop (its own
// process, its client counted), against a baseline measured in the same run on the same nodes: a
// client creating the same 50 pods itself, 10 at a time, each slot waiting for its pod to end.
// In both, every pod's container "exits 0" as soon as the fake kubelet reports it Running (the
// bench's watch tells the fake kubelet, completePod). Figures: wall time from the create (or the
// first create) to every pod Succeeded, and to the job's status saying completed; API writes per
// node (the loop's client for ours; the client's for the baseline). Printed, never asserted.
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { describeWrites, total, writesOf } from '../cluster/counting.js';
import { IMAGE, type BenchCluster } from '../cluster/cluster.js';
import type { LoopChild } from '../cluster/children.js';
import { snapshot } from '../cloneset/rollout.js';
import { watchPods, type PodWatch } from '../cluster/pod-watch.js';
import { measureNodePoolSection, runClientBaseline, runOurs, type NodeJobFigures, type NodeJobRun } from '../cluster/node-pool-section.js';

export const BROADCASTJOB_NAMESPACE = 'bench-broadcastjob';
export const BROADCASTJOB_KINDS = ['BroadcastJob'];
const NODES = 50;
const PARALLELISM = 10;
const POOL = 'bench.kruise-serverless.io/bcj-pool';
const TIMEOUT_MS = 300_000;
/** After the last pod: trailing status writes and Events land before the counts are read. */
const SETTLE_MS = 3_000;



const nodeNames = Array.from({ length: NODES }, (_, i) => `bcj-bench-${String(i).padStart(2, '0')}`);

function podSpec(): Record<string, unknown> {
  return {
    restartPolicy: 'Never', automountServiceAccountToken: false, terminationGracePeriodSeconds: 1,
    nodeSelector: { [POOL]: 'yes' }, tolerations: [{ key: POOL, operator: 'Exists', effect: 'NoSchedule' }],
    containers: [{ name: 'main', image: IMAGE(1) }],
  };
}

/** Plays each container exiting 0 once its pod runs; a pod is done once it has succeeded. */
function podWatch(c: BenchCluster): Promise<PodWatch> {
  const completed = new Set<string>();
  return watchPods(c, BROADCASTJOB_NAMESPACE, (pod) => pod.status?.phase === 'Succeeded', (pod) => {
    if (pod.status?.phase !== 'Running' || completed.has(pod.metadata.name)) return;
    completed.add(pod.metadata.name);
    c.kubelet.completePod(BROADCASTJOB_NAMESPACE, pod.metadata.name, 0);
  });
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
        await watch.done(name);
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
