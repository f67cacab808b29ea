// The ImagePullJob section of `npm run bench:workloads`: one ImagePullJob over 50 fake nodes of its
// own with parallelism 5, our controller on the Node loop (its own process, its client counted),
// against a baseline measured in the same run on the same nodes: a plain client creating the same
// 50 pull pods (the controller's own pod builder, pinned by nodeName), 5 at a time, each slot
// waiting until the kubelet reports its pod's imageID. The fake kubelet lets the pull pods' static
// `true` exit at once. Figures: wall time from the create (or the first create) to every node's
// imageID reported, and to the job's status saying completed; API writes per node (the loop's
// client for ours, the client's for the baseline; the kubelet's status writes are in neither).
// Printed, never asserted. The nodes go at the end.
import type { KubeObject } from '../../src/kube/http.js';
import { DEFAULT_HELPER, PULL_CONTAINER, newPullPod } from '../../src/imagepulljob/controller/pull-pod.js';
import type { StoredImagePullJob } from '../../src/imagepulljob/types.js';
import { describeWrites, total, writesOf } from '../cluster/counting.js';
import { IMAGE, type BenchCluster } from '../cluster/cluster.js';
import type { LoopChild } from '../cluster/children.js';
import { snapshot } from '../cloneset/rollout.js';
import { watchPods, type PodWatch } from '../cluster/pod-watch.js';
import { measureNodePoolSection, runClientBaseline, runOurs, type NodeJobFigures, type NodeJobRun } from '../cluster/node-pool-section.js';

export const IMAGEPULLJOB_NAMESPACE = 'bench-imagepulljob';
export const NODES = 50;
export const PARALLELISM = 5;
const POOL = 'bench.kruise-serverless.io/ipj-pool';
const TIMEOUT_MS = 300_000;
/** After the last pull: trailing status writes land before the counts are read. */
const SETTLE_MS = 3_000;
const PULL_BINARY = '/ks-pull/true';



const nodeNames = Array.from({ length: NODES }, (_, i) => `ipj-bench-${String(i).padStart(2, '0')}`);

/** A pod is done once its pull container's imageID is reported. */
function pullWatch(c: BenchCluster): Promise<PodWatch> {
  return watchPods(c, IMAGEPULLJOB_NAMESPACE, (pod) => Boolean(pod.status?.containerStatuses?.find((s) => s.name === PULL_CONTAINER)?.imageID));
}

async function measureOurs(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<NodeJobRun> {
  const watch = await pullWatch(c);
  try {
    const r = await runOurs({
      what: 'the ImagePullJob: every node pulled and its status completed', timeoutMs: TIMEOUT_MS, settleMs: SETTLE_MS,
      snapshot: async () => (await snapshot(c, loop)).loop,
      start: async () => void (await c.kube.create({
        apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'bench', namespace: IMAGEPULLJOB_NAMESPACE },
        spec: { image: IMAGE(2), parallelism: PARALLELISM, selector: { matchLabels: { [POOL]: 'yes' } }, completionPolicy: { type: 'Always' } },
      })),
      allDone: () => watch.count('imagepulljob.kruise-serverless.io/name') === NODES,
      async statusDone() {
        const job = await c.kube.get<KubeObject & { status?: { completionTime?: string; succeeded?: number } }>('apps.kruise.io/v1alpha1', 'ImagePullJob', 'bench', IMAGEPULLJOB_NAMESPACE);
        return Boolean(job.status?.completionTime) && job.status?.succeeded === NODES;
      },
      broken: () => watch.broken,
    });
    log(`ImagePullJob: ${NODES} nodes pulled in ${(r.wallMs / 1000).toFixed(2)} s, status completed at ${(r.statusMs / 1000).toFixed(2)} s; ${total(r.writes)} writes (${describeWrites(r.writes)})`);
    return { label: `ImagePullJob, parallelism ${PARALLELISM} (ours, Node loop)`, ...r };
  } finally {
    watch.stop();
  }
}

async function measureBaseline(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<NodeJobRun> {
  const watch = await pullWatch(c);
  // The controller's own pod, owned by nothing: the same spec, pinned the same way.
  const owner = { metadata: { name: 'direct', namespace: IMAGEPULLJOB_NAMESPACE, uid: 'none' }, spec: { image: IMAGE(3) } } as StoredImagePullJob;
  try {
    const { wallMs, writes: own } = await runClientBaseline({
      nodes: NODES, parallelism: PARALLELISM, timeoutMs: TIMEOUT_MS, settleMs: SETTLE_MS,
      snapshot: async () => (await snapshot(c, loop)).own,
      async runOne(i) {
        const name = `direct-${String(i).padStart(2, '0')}`;
        const pod = newPullPod(owner, nodeNames[i]!, 0, name, DEFAULT_HELPER);
        const { ownerReferences: _o, ...metadata } = pod.metadata;
        await c.kube.create({ ...pod, metadata: { ...metadata, labels: { 'bench-direct': 'yes' } } } as unknown as KubeObject);
        await watch.done(name);
      },
    });
    const writes = writesOf(own);
    log(`baseline: ${NODES} pull pods created and pulled in ${(wallMs / 1000).toFixed(2)} s; ${total(writes)} writes (${describeWrites(writes)})`);
    return { label: `the same pull pods created by a client, ${PARALLELISM} at a time`, wallMs, writes };
  } finally {
    watch.stop();
  }
}

/** Measures both on 50 pool nodes of its own. */
export async function imagePullJobSection(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<{ lines: string[]; goals: string[]; figures: NodeJobFigures }> {
  c.kubelet.exitOnStart(PULL_BINARY);
  return measureNodePoolSection(c, log, {
    kind: 'ImagePullJob', namespace: IMAGEPULLJOB_NAMESPACE, pool: POOL, nodeNames, parallelism: PARALLELISM,
    measureOurs: () => measureOurs(c, loop, log),
    measureBaseline: () => measureBaseline(c, loop, log),
  });
}
