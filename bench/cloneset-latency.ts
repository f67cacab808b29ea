// Part 3 of `npm run bench:cloneset`: a CloneSet image change → the first write to one of its pods,
// through the Node loop (its own process, woken by its CloneSet watch) and through the Lambda path
// (test/e2e/support/lambda-path.ts: the Worker, under Miniflare, admits the change and publishes an
// ObjectChanged event to an EventBridge stand-in, which invokes the production reconcile handler
// in this process). Both behind the same webhooks on the same Worker. The first write is the first
// change to one of its pods a pod watch reports after the spec change (an in-place update's first
// step: the InPlaceUpdateReady condition set False). Samples in blocks: the Node loop's, then the
// Lambda's (only one may run the controller at a time); one warm-up each, not counted.
import { KubeHttp, type KubeObject } from '../src/kube/http.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import type { LambdaPath } from '../test/e2e/support/lambda-path.js';
import { CLONESET, IMAGE, cloneSet, createNamespace, imagePatch, podsOf, rolledOut, sleep, until, type BenchCluster } from './cloneset-cluster.js';
import { startLoop, type Bundles } from './cloneset-children.js';
import type { Edge } from './cloneset-edge.js';

export const LATENCY_NAMESPACE = 'bench-latency';
const NAME = 'lat';
const REPLICAS = 3;
/** Longer than the controller's 3 s wake-ups, so no leftover run holds the lease when the next sample starts. */
const QUIET_MS = 4_000;

export type PathLatency = { path: string; firstWriteMs: number[]; patchMs: number[] };
export type LatencyResult = { node: PathLatency; lambda: PathLatency; roundTripMs: number[] };

type Status = { observedGeneration?: number; updatedReadyReplicas?: number; readyReplicas?: number; currentRevision?: string; updateRevision?: string };

async function settled(c: BenchCluster, image: string): Promise<void> {
  await until(`${NAME} rolled out to ${image}`, async () => {
    const cs = await c.kube.get<KubeObject & { metadata: { generation?: number }; status?: Status }>(CLONESET.apiVersion, CLONESET.kind, NAME, LATENCY_NAMESPACE);
    const s = cs.status ?? {};
    const done = (s.observedGeneration ?? 0) >= (cs.metadata.generation ?? 0) && s.updatedReadyReplicas === REPLICAS && s.readyReplicas === REPLICAS && s.currentRevision === s.updateRevision;
    return done && rolledOut(await podsOf(c.kube, LATENCY_NAMESPACE, NAME), REPLICAS, image) ? true : undefined;
  }, 120_000, 100);
}

/** Patches the image and times the first pod change the watch reports after it. */
async function firstWrite(c: BenchCluster, image: string): Promise<{ firstWriteMs: number; patchMs: number }> {
  const resourceVersion = await c.kube.collectionVersion('v1', 'Pod');
  const stop = new AbortController();
  let t0: number | undefined;
  let seen!: (at: number) => void;
  const first = new Promise<number>((r) => (seen = r));
  const watching = c.kube.watch('v1', 'Pod', { resourceVersion, timeoutSeconds: 120, signal: stop.signal }, (e) => {
    if (t0 !== undefined && e.object.metadata?.namespace === LATENCY_NAMESPACE && e.type !== 'BOOKMARK' && e.type !== 'ERROR') seen(performance.now());
  }).catch(() => undefined);
  await sleep(300); // the watch is established
  t0 = performance.now();
  await c.kube.patch({ ...CLONESET, metadata: { name: NAME, namespace: LATENCY_NAMESPACE } }, imagePatch(image), 'json');
  const patchMs = performance.now() - t0;
  const at = await Promise.race([first, sleep(60_000).then(() => undefined)]);
  stop.abort();
  await watching;
  if (at === undefined) throw new Error(`no write to a pod of ${NAME} within 60 s of its image change to ${image}`);
  return { firstWriteMs: at - t0, patchMs };
}

async function samples(c: BenchCluster, path: string, count: number, version: { n: number }, log: (m: string) => void, quiet: () => Promise<void>): Promise<PathLatency> {
  const out: PathLatency = { path, firstWriteMs: [], patchMs: [] };
  for (let i = 0; i <= count; i++) {
    version.n += 1;
    const s = await firstWrite(c, IMAGE(version.n));
    await settled(c, IMAGE(version.n));
    await quiet();
    if (i === 0) continue; // warm-up
    out.firstWriteMs.push(s.firstWriteMs);
    out.patchMs.push(s.patchMs);
    log(`${path}: sample ${i}/${count}: first pod write ${s.firstWriteMs.toFixed(0)} ms after the spec change (the PATCH itself ${s.patchMs.toFixed(0)} ms)`);
  }
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
  await c.kube.create(cloneSet(NAME, LATENCY_NAMESPACE, REPLICAS, IMAGE(1), 'InPlaceIfPossible'));
  const version = { n: 1 };
  const roundTripMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await c.kube.get(CLONESET.apiVersion, CLONESET.kind, NAME, LATENCY_NAMESPACE);
    roundTripMs.push(performance.now() - t);
  }

  const loop = await startLoop(bundles.loop, c.cp.kubeconfig, (m) => log(m));
  let node: PathLatency;
  try {
    await settled(c, IMAGE(1));
    node = await samples(c, 'Node loop (watch)', count, version, log, async () => void (await sleep(QUIET_MS)));
  } finally {
    await loop.stop();
  }

  const lambdaKube = await KubeHttp.fromKubeConfig(loadKubeConfig(c.cp.kubeconfig));
  try {
    // The events the Worker published meanwhile are delivered now: let their runs pass.
    await lambda.attach({ clusterId: edge.clusterId, kube: lambdaKube, edge: edge.edge });
    await lambdaQuiet(lambda);
    const lambdaResult = await samples(c, 'Lambda (EventBridge stand-in)', count, version, log, () => lambdaQuiet(lambda));
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
    await c.kube.patch({ ...CLONESET, metadata: { name: NAME, namespace: LATENCY_NAMESPACE } }, { metadata: { annotations: { 'bench.kruise-serverless.io/ping': String(++i) } } });
    await sleep(1_000);
    return lambda.published.length === before ? true : undefined;
  }, 60_000, 0);
}
