// What the per-node job sections (BroadcastJob in bench:jobs, ImagePullJob in bench:workloads)
// share: their own pool of fake nodes (labelled and tainted, so no other workload lands there),
// ours against a client baseline on the same nodes, and one table of wall time, status time and
// writes per node. Printed, never asserted.
import { describeWrites, isWriteKey, minus, total, writesOf, type Tally } from './counting.js';
import { createNamespace, sleep, until, type BenchCluster } from './cluster.js';
import type { LoopSnapshot } from './loop-child.js';

export type NodeJobRun = { label: string; wallMs: number; statusMs?: number; writes: Tally; runs?: number; conflicts?: number };
export type NodeJobFigures = { nodes: number; parallelism: number; ours: NodeJobRun; baseline: NodeJobRun; ratio: { wall: number; writes: number } };

export type NodePoolSection = {
  /** The kind measured, for the ratio line and the goal. */
  kind: string;
  namespace: string;
  /** The node label (key, value `yes`) and NoSchedule taint the workloads select and tolerate. */
  pool: string;
  nodeNames: readonly string[];
  parallelism: number;
  measureOurs(): Promise<NodeJobRun>;
  measureBaseline(): Promise<NodeJobRun>;
};

/** Measures both; adds and removes the pool's nodes. */
export async function measureNodePoolSection(c: BenchCluster, log: (m: string) => void, s: NodePoolSection): Promise<{ lines: string[]; goals: string[]; figures: NodeJobFigures }> {
  await createNamespace(c.kube, s.namespace);
  await c.kubelet.addNodes(s.nodeNames.map((name) => ({ name, labels: { [s.pool]: 'yes' }, taints: [{ key: s.pool, value: 'yes', effect: 'NoSchedule' }] })));
  const nodes = s.nodeNames.length;
  try {
    const ours = await s.measureOurs();
    const baseline = await s.measureBaseline();
    const figures: NodeJobFigures = {
      nodes, parallelism: s.parallelism, ours, baseline,
      ratio: { wall: ours.wallMs / baseline.wallMs, writes: total(ours.writes, isWriteKey) / Math.max(total(baseline.writes, isWriteKey), 1) },
    };
    const row = (r: NodeJobRun) => `  ${r.label.padEnd(58)}${(r.wallMs / 1000).toFixed(2).padStart(7)}  ${r.statusMs === undefined ? '      —' : (r.statusMs / 1000).toFixed(2).padStart(7)}  ${String(total(r.writes)).padStart(6)}  ${(total(r.writes) / nodes).toFixed(2).padStart(8)}`;
    const lines = [
      `  ${'run'.padEnd(58)}${'wall s'.padStart(7)}  ${'status s'.padStart(7)}  ${'writes'.padStart(6)}  ${'per node'.padStart(8)}`,
      row(ours), row(baseline),
      `  ours by resource: ${describeWrites(ours.writes)}; ${ours.runs} runs, ${ours.conflicts} conflicts`,
      `  baseline by resource: ${describeWrites(baseline.writes)}`,
      `  ratio (${s.kind} / baseline): wall ${figures.ratio.wall.toFixed(2)}×, writes ${figures.ratio.writes.toFixed(2)}×`,
    ];
    return { lines, goals: [`${s.kind} wall ${figures.ratio.wall.toFixed(2)}× the client baseline, ${(total(ours.writes) / nodes).toFixed(2)} writes per node`], figures };
  } finally {
    await c.kubelet.removeNodes([...s.nodeNames]).catch((e: unknown) => log(`removing the ${s.kind} nodes: ${String(e)}`));
  }
}

/**
 * The client baseline: `parallelism` slots, each creating the next node's pod and waiting for it
 * (`runOne(i)`), until every node is done or `timeoutMs` passes. Wall time, and the writes this
 * process sent (`snapshot` before and after, once trailing writes have settled).
 */
export async function runClientBaseline(o: {
  nodes: number; parallelism: number; timeoutMs: number; settleMs: number;
  runOne(i: number): Promise<void>;
  snapshot(): Promise<Tally>;
}): Promise<{ wallMs: number; writes: Tally }> {
  const before = await o.snapshot();
  const t0 = performance.now();
  let next = 0;
  const slot = async () => {
    while (next < o.nodes) await o.runOne(next++);
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.all(Array.from({ length: o.parallelism }, slot)),
      new Promise((_, reject) => void (timer = setTimeout(() => reject(new Error(`baseline: not done in ${o.timeoutMs / 1000} s`)), o.timeoutMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
  const wallMs = performance.now() - t0;
  await sleep(o.settleMs);
  return { wallMs, writes: minus(await o.snapshot(), before) };
}

/**
 * Ours: `start()` creates the job, then the wall time runs until `allDone()` (the watch saw every
 * node finish) and the status time until `statusDone()`; the writes and runs are the loop's own.
 */
export async function runOurs(o: {
  what: string; timeoutMs: number; settleMs: number;
  snapshot(): Promise<LoopSnapshot>;
  start(): Promise<void>;
  allDone(): boolean;
  statusDone(): Promise<boolean>;
  broken(): string | undefined;
}): Promise<{ wallMs: number; statusMs: number; writes: Tally; runs: number; conflicts: number }> {
  const s0 = await o.snapshot();
  const t0 = performance.now();
  await o.start();
  let wallMs: number | undefined;
  let statusMs: number | undefined;
  await until(o.what, async () => {
    const broken = o.broken();
    if (broken) throw new Error(broken);
    if (wallMs === undefined && o.allDone()) wallMs = performance.now() - t0;
    if (statusMs === undefined && (await o.statusDone())) statusMs = performance.now() - t0;
    return wallMs !== undefined && statusMs !== undefined ? true : undefined;
  }, o.timeoutMs, 20);
  await sleep(o.settleMs);
  const s1 = await o.snapshot();
  return { wallMs: wallMs!, statusMs: statusMs!, writes: writesOf(minus(s1.tally, s0.tally)), runs: s1.runs - s0.runs, conflicts: s1.conflicts - s0.conflicts };
}
