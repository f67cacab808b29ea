// The apiserver scenario's measurement: pod CREATEs through kube-apiserver per cell (persisted or
// dry-run, 1 or 8 in flight), with no webhook configuration registered and with all of ours, in
// rounds that alternate which goes first and rotate the cells; persisted pods are deleted after
// each phase (with no webhook registered) and the cluster's state pushed again after each round.
import { pushCollections, type EdgeTarget } from '../../src/edge-state/push.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { stateCollections } from '../../src/registry.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import type { ControlPlane } from '../../test/cluster/control-plane.js';
import { cpuMsOf } from '../harness/cpu.js';
import type { MiniflarePair } from '../harness/https-target.js';
import { drive, figures, mergeTallies, type Figures, type Tally } from '../harness/load.js';
import { ratios, type Ratios } from '../harness/report.js';
import { deletePods, type CreateMode, type PodCreator } from './apiserver-cluster.js';

export const ROUNDS = 4;

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

export const MODES: readonly CreateMode[] = ['persisted', 'dry-run'];
export const IN_FLIGHT = [1, 8] as const;
export type InFlight = (typeof IN_FLIGHT)[number];
export type Hooks = 'none' | 'ours';
/** Per round, cell and phase: at most this many creates, in at most this long. */
export const ROUND: Record<InFlight, { requests: number; maxMs: number }> = { 1: { requests: 60, maxMs: 3_000 }, 8: { requests: 200, maxMs: 4_000 } };
export const WARMUP: Record<InFlight, number> = { 1: 30, 8: 150 };

export type Cell = { mode: CreateMode; inFlight: InFlight };
export const CELLS: Cell[] = MODES.flatMap((mode) => IN_FLIGHT.map((inFlight) => ({ mode, inFlight })));
export const cellName = (c: Cell) => `${c.mode}@${c.inFlight}`;

/** One cell's phase: the creates' figures, and CPU per create of the Worker and of kube-apiserver + etcd. */
export type PhaseResult = Figures & { workerCpuUs: number | null; apiserverCpuUs: number | null };
export type CellResult = Cell & { none: PhaseResult; ours: PhaseResult; ratio: Ratios };

/** Tallies per cell and phase, with the API server's CPU beside each. */
class Ledger {
  private readonly tallies = new Map<string, { tally: Tally; apiMs: number | undefined }[]>();

  add(cell: Cell, hooks: Hooks, tally: Tally, apiMs: number | undefined): void {
    const key = `${cellName(cell)}/${hooks}`;
    this.tallies.set(key, [...(this.tallies.get(key) ?? []), { tally, apiMs }]);
  }

  phase(cell: Cell, hooks: Hooks): PhaseResult {
    const list = this.tallies.get(`${cellName(cell)}/${hooks}`) ?? [];
    const f = figures(mergeTallies(list.map((t) => t.tally)));
    const apiMs = list.some((t) => t.apiMs === undefined) ? undefined : list.reduce((n, t) => n + (t.apiMs ?? 0), 0);
    return { ...f, workerCpuUs: f.serverCpuUs, apiserverCpuUs: apiMs === undefined || f.requests === 0 ? null : (apiMs * 1000) / f.requests };
  }
}

/** Registers (applies the install's cluster side) or removes every webhook configuration of ours, then waits for the API server to follow. */
export class Webhooks {
  current: Hooks = 'none';
  constructor(
    private readonly kube: KubeHttp,
    /** The install's cluster side (renderClusterSide). */
    private readonly objects: readonly KubeObject[],
    private readonly pods: PodCreator,
  ) {}

  async set(hooks: Hooks): Promise<void> {
    if (hooks === this.current) return;
    if (hooks === 'ours') await applyClusterSide(this.kube, this.objects);
    else await uninstallClusterSide(this.kube);
    await this.pods.untilInjected(hooks === 'ours');
    this.current = hooks;
    // The API server's connections to the Worker (TLS) and its webhook clients, before measuring.
    if (hooks === 'ours') await drive(this.pods.send('dry-run', true), { requests: 32, concurrency: 8, maxMs: 5_000 });
  }
}

/** Pushes every collection the production features read, LISTed from the API server, as `reconcile` with an edge does. */
export async function pushFromApiserver(kube: KubeHttp, edge: EdgeTarget): Promise<void> {
  const t0 = performance.now();
  const pushed = await pushCollections(edge, (v, k, o) => kube.list(v, k, o), stateCollections());
  const shown = pushed.filter((p) => p.items > 0).map((p) => `${p.items} ${p.collection}`);
  log(`pushed ${shown.join(', ')} and ${pushed.length - shown.length} empty collections in ${seconds(t0)} s`);
}

export async function measureCreates(cp: ControlPlane, kube: KubeHttp, hooks: Webhooks, pods: Record<InFlight, PodCreator>, worker: MiniflarePair): Promise<CellResult[]> {
  const apiPids = [cp.pids.apiserver, cp.pids.etcd].filter((p): p is number => p !== undefined);
  const ledger = new Ledger();
  const runCell = async (cell: Cell, requests: number, maxMs: number) => {
    const api0 = cpuMsOf(apiPids);
    const tally = await drive(pods[cell.inFlight].send(cell.mode, hooks.current === 'ours'), { requests, concurrency: cell.inFlight, maxMs }, worker.realPids);
    const api1 = cpuMsOf(apiPids);
    if (tally.failed) throw new Error(`${cellName(cell)} with ${hooks.current} webhooks: ${tally.failed} creates failed, first: ${tally.firstError}`);
    return { tally, apiMs: api0 === undefined || api1 === undefined ? undefined : api1 - api0 };
  };
  /** One phase: every cell (in `order`) with `h` registered, then the persisted pods deleted, with no webhook registered. */
  const phase = async (h: Hooks, order: Cell[], measure: boolean) => {
    await hooks.set(h);
    for (const cell of order) {
      const bounds = measure ? ROUND[cell.inFlight] : { requests: WARMUP[cell.inFlight], maxMs: 10_000 };
      const { tally, apiMs } = await runCell(cell, bounds.requests, bounds.maxMs);
      if (measure) ledger.add(cell, h, tally, apiMs);
    }
    await hooks.set('none');
    await deletePods(kube);
  };

  log(`warming up: every cell, ${WARMUP[1]} creates at 1 in flight and ${WARMUP[8]} at 8, both phases`);
  await phase('ours', CELLS, false);
  await phase('none', CELLS, false);
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    // Phases alternate which goes first; cells rotate, in the same order in both phases of a round.
    const order = CELLS.map((_, i) => CELLS[(i + r) % CELLS.length]!);
    const phases: Hooks[] = r % 2 ? ['ours', 'none'] : ['none', 'ours'];
    for (const h of phases) await phase(h, order, true);
    // A reconciler's resync: the pods admitted meanwhile (and deleted since) leave the edge's overlay.
    await pushFromApiserver(kube, worker.edge);
    log(`round ${r + 1}/${ROUNDS} (${phases.join(' then ')}; ${order.map(cellName).join(', ')}) in ${seconds(t0)} s`);
  }
  return CELLS.map((cell) => {
    const none = ledger.phase(cell, 'none');
    const ours = ledger.phase(cell, 'ours');
    return { ...cell, none, ours, ratio: ratios(none, ours) };
  });
}
