// Part 3 of `npm run bench:cloneset`: a CloneSet image change → the first write to one of its pods,
// through the Node loop (its own process, woken by its CloneSet watch) and through the Lambda path
// (test/e2e/support/lambda-path.ts: the Worker, under Miniflare, admits the change and publishes an
// ObjectChanged event to an EventBridge stand-in, which invokes the production reconcile handler
// in this process). Both behind the same webhooks on the same Worker. The first write is the first
// change to one of its pods a pod watch reports after the spec change (an in-place update's first
// step: the InPlaceUpdateReady condition set False). Samples in blocks: the Node loop's, then the
// Lambda's (only one may run the controller at a time); one warm-up each, not counted. Every sample
// has a CloneSet of its own, created and brought to ready pods first, so each measures a first
// in-place update of fresh pods, and one stalled rollout spoils no other sample.
import { KubeHttp, type KubeObject } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import type { LambdaPath } from '../../test/e2e/support/lambda-path.js';
import { CLONESET, IMAGE, cloneSet, createNamespace, imagePatch, podsOf, rolledOut, sleep, until, type BenchCluster } from '../cluster/cluster.js';
import { startLoop, type Bundles } from '../cluster/children.js';
import type { Edge } from './edge.js';

export const LATENCY_NAMESPACE = 'bench-latency';
const REPLICAS = 3;
/** A CloneSet without pods, patched to see which Worker the webhooks call. */
const PING = 'lat-ping';
/** Longer than the controller's 3 s wake-ups, so no leftover run holds the lease when the next sample starts. */
const QUIET_MS = 4_000;

export type PathLatency = { path: string; firstWriteMs: number[]; patchMs: number[]; failures: string[] };
export type LatencyResult = { node: PathLatency; lambda: PathLatency; roundTripMs: number[] };

type Status = { observedGeneration?: number; updatedReadyReplicas?: number; readyReplicas?: number; currentRevision?: string; updateRevision?: string };
type CloneSetObj = KubeObject & { metadata: { generation?: number }; status?: Status };

/** What a stalled rollout looks like, for the report: the status and each pod's revision, image, conditions. */
async function describeStall(c: BenchCluster, name: string): Promise<string> {
  const cs = await c.kube.get<CloneSetObj>(CLONESET.apiVersion, CLONESET.kind, name, LATENCY_NAMESPACE);
  const pods = await podsOf(c.kube, LATENCY_NAMESPACE, name);
  const podLines = pods.map((p) => {
    const conds = (p.status?.conditions ?? []).map((x) => `${x.type}=${x.status}`).join(',');
    const state = (p.metadata as { annotations?: Record<string, string> }).annotations?.['apps.kruise.io/inplace-update-state'] ?? '';
    return `${p.metadata.name} rev=${p.metadata.labels?.['controller-revision-hash']} image=${p.spec.containers[0]?.image} status-image=${p.status?.containerStatuses?.[0]?.image} ${conds} state=${state.slice(0, 120)}`;
  });
  return [`status ${JSON.stringify(cs.status)}`, ...podLines].join(' | ');
}

async function settled(c: BenchCluster, name: string, image: string): Promise<void> {
  try {
    await until(`${name} at ${image}, every pod Ready`, async () => {
      const cs = await c.kube.get<CloneSetObj>(CLONESET.apiVersion, CLONESET.kind, name, LATENCY_NAMESPACE);
      const s = cs.status ?? {};
      const done = (s.observedGeneration ?? 0) >= (cs.metadata.generation ?? 0) && s.updatedReadyReplicas === REPLICAS && s.readyReplicas === REPLICAS && s.currentRevision === s.updateRevision;
      return done && rolledOut(await podsOf(c.kube, LATENCY_NAMESPACE, name), REPLICAS, image) ? true : undefined;
    }, 60_000, 100);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; ${await describeStall(c, name).catch(() => 'no state')}`);
  }
}

/** Patches the image and times the first change to one of the CloneSet's pods the watch reports after it. */
async function firstWrite(c: BenchCluster, name: string, image: string): Promise<{ firstWriteMs: number; patchMs: number }> {
  const resourceVersion = await c.kube.collectionVersion('v1', 'Pod');
  const stop = new AbortController();
  let t0: number | undefined;
  let seen!: (at: number) => void;
  const first = new Promise<number>((r) => (seen = r));
  const watching = c.kube.watch('v1', 'Pod', { resourceVersion, timeoutSeconds: 120, signal: stop.signal }, (e) => {
    const labels = (e.object.metadata as { labels?: Record<string, string> } | undefined)?.labels;
    if (t0 !== undefined && e.object.metadata?.namespace === LATENCY_NAMESPACE && labels?.app === name && e.type !== 'BOOKMARK' && e.type !== 'ERROR') seen(performance.now());
  }).catch(() => undefined);
  await sleep(300); // the watch is established
  t0 = performance.now();
  await c.kube.patch({ ...CLONESET, metadata: { name, namespace: LATENCY_NAMESPACE } }, imagePatch(image), 'json');
  const patchMs = performance.now() - t0;
  const at = await Promise.race([first, sleep(60_000).then(() => undefined)]);
  stop.abort();
  await watching;
  if (at === undefined) throw new Error(`no write to a pod of ${name} within 60 s of its image change`);
  return { firstWriteMs: at - t0, patchMs };
}

async function samples(c: BenchCluster, path: { key: string; label: string }, count: number, log: (m: string) => void, quiet: () => Promise<void>): Promise<PathLatency> {
  const out: PathLatency = { path: path.label, firstWriteMs: [], patchMs: [], failures: [] };
  for (let i = 0; i <= count; i++) {
    const name = `lat-${path.key}-${i}`;
    try {
      await c.kube.create(cloneSet(name, LATENCY_NAMESPACE, REPLICAS, IMAGE(1), 'InPlaceIfPossible'));
      await settled(c, name, IMAGE(1));
      await quiet();
      const s = await firstWrite(c, name, IMAGE(2));
      await settled(c, name, IMAGE(2));
      if (i === 0) continue; // warm-up
      out.firstWriteMs.push(s.firstWriteMs);
      out.patchMs.push(s.patchMs);
      log(`${path.label}: sample ${i}/${count}: first pod write ${s.firstWriteMs.toFixed(0)} ms after the spec change (the PATCH itself ${s.patchMs.toFixed(0)} ms)`);
    } catch (e) {
      out.failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      log(`${path.label}: sample ${i}/${count} FAILED: ${out.failures.at(-1)}`);
    } finally {
      await c.kube.delete({ ...CLONESET, metadata: { name, namespace: LATENCY_NAMESPACE } }).catch(() => undefined);
    }
  }
  await quiet();
  return out;
}

/** Waits until the Lambda stand-in has had nothing to do for QUIET_MS. */
async function lambdaQuiet(lambda: LambdaPath): Promise<void> {
  let n = -1;
  await until('the Lambda path to go quiet', async () => {
    const now = lambda.summaries.length;
    if (now === n) return true;
    n = now;
    return undefined;
  }, 120_000, QUIET_MS);
}

export async function measureFirstWrites(c: BenchCluster, bundles: Bundles, lambda: LambdaPath, edge: Edge, count: number, log: (m: string) => void): Promise<LatencyResult> {
  await createNamespace(c.kube, LATENCY_NAMESPACE);
  await c.kube.create(cloneSet(PING, LATENCY_NAMESPACE, 0, IMAGE(1)));
  const roundTripMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await c.kube.get(CLONESET.apiVersion, CLONESET.kind, PING, LATENCY_NAMESPACE);
    roundTripMs.push(performance.now() - t);
  }

  const loop = await startLoop(bundles.loop, c.cp.kubeconfig, (m) => log(m));
  let node: PathLatency;
  try {
    node = await samples(c, { key: 'node', label: 'Node loop (watch)' }, count, log, async () => void (await sleep(QUIET_MS)));
  } finally {
    await loop.stop();
  }

  const lambdaKube = await KubeHttp.fromKubeConfig(loadKubeConfig(c.cp.kubeconfig));
  try {
    // The events the Worker published meanwhile are delivered now: let their runs pass.
    await lambda.attach({ clusterId: edge.clusterId, kube: lambdaKube, edge: edge.edge });
    await lambdaQuiet(lambda);
    const lambdaResult = await samples(c, { key: 'lambda', label: 'Lambda (EventBridge stand-in)' }, count, log, () => lambdaQuiet(lambda));
    return { node, lambda: lambdaResult, roundTripMs };
  } finally {
    lambdaKube.close();
  }
}

/** After the webhooks were pointed elsewhere: waits until a CloneSet change no longer reaches the Lambda path's Worker. */
export async function untilRetargeted(c: BenchCluster, lambda: LambdaPath): Promise<void> {
  let i = 0;
  await until('the webhooks to call the new Worker', async () => {
    const before = lambda.published.length;
    await c.kube.patch({ ...CLONESET, metadata: { name: PING, namespace: LATENCY_NAMESPACE } }, { metadata: { annotations: { 'bench.kruise-serverless.io/ping': String(++i) } } });
    await sleep(1_000);
    return lambda.published.length === before ? true : undefined;
  }, 60_000, 0);
}
