// What the end-to-end target (real ≤ 1.5× echo) leaves the server to spend, from one run's figures.
// With admissions queued, throughput is bounded by the busiest of three: the server's thread, the
// client's thread (both run their JavaScript on one thread) and the machine's cores, which client
// and server share. Each path's bound is its largest per-admission cost of the three; the table
// sets the throughput it predicts beside the measured one, so the reader can see how well the
// model holds in the run. The target asks the real path's bound to be at most 1.5× the echo's:
// the client's cost of receiving the real answer must fit in that whatever the server does, the
// server's own cost must too, and of the server's, moving the answer costs what the sized echo
// spends and writing the patch what `encode` measured in-process.
import type { Figures } from '../../harness/load.js';
import { fixed, tableRow, times } from '../../harness/report.js';

export const TARGET_RATIO = 1.5;
const CORES = 2;

export type PathCost = { serverUs: number; clientUs: number; sharedUs: number; boundUs: number; predictedPerSecond: number; perSecond: number };

export type Budget = {
  platform: string;
  echo: PathCost;
  sized: PathCost;
  real: PathCost;
  /** TARGET_RATIO × the echo's bound: the most the real path's busiest party may spend. */
  limitUs: number;
  /** limitUs − the sized echo's server cost: what the server has left for deciding and writing the answer. */
  leftUs: number;
  /** JSON.stringify + base64 of the real patch, in-process (CPU p50). */
  encodeUs: number;
  /** The injection handler alone, in-process (CPU p50). */
  handlerUs: number;
};

export type BudgetInput = { platform: string; echo: Figures; sized: Figures; real: Figures; encodeMs: number; handlerMs: number };

function pathCost(f: Figures): PathCost {
  const serverUs = f.serverCpuUs ?? NaN;
  const clientUs = f.clientCpuUs;
  const sharedUs = (serverUs + clientUs) / CORES;
  const boundUs = Math.max(serverUs, clientUs, sharedUs);
  return { serverUs, clientUs, sharedUs, boundUs, predictedPerSecond: 1e6 / boundUs, perSecond: f.perSecond };
}

export function targetBudget({ platform, echo, sized, real, encodeMs, handlerMs }: BudgetInput): Budget {
  const costs = { echo: pathCost(echo), sized: pathCost(sized), real: pathCost(real) };
  const limitUs = TARGET_RATIO * costs.echo.boundUs;
  return { platform, ...costs, limitUs, leftUs: limitUs - costs.sized.serverUs, encodeUs: encodeMs * 1000, handlerUs: handlerMs * 1000 };
}

const us = (n: number) => `${n.toFixed(0)} µs`;

/** What this run's figures leave the real path under the target, in a sentence (admissions queued: the bound model). */
export function verdict(b: Budget): string {
  const head = `${b.platform}: the real path may spend at most ${us(b.limitUs)} in its busiest party (${TARGET_RATIO} × the echo's ${us(b.echo.boundUs)})`;
  if (b.real.clientUs > b.limitUs) return `${head}; the client alone spends ${us(b.real.clientUs)} receiving the real answer (sized echo: ${us(b.sized.clientUs)}), so no server can meet the target here`;
  return `${head}; the server has ${us(b.leftUs)} left after moving the answer, ${room(b.leftUs, b)}; the real server spends ${us(b.real.serverUs)}`;
}

/**
 * The same for admissions one at a time, when nothing queues and latency is the sum of what the
 * client, the network stack and the server do in turn: the real path may take 1.5× the echo's
 * p50, of which moving the answer takes what the sized echo takes.
 */
export function unloadedVerdict(b: Budget, p50Ms: { echo: number; sized: number; real: number }): string {
  const limitUs = TARGET_RATIO * p50Ms.echo * 1000;
  const leftUs = limitUs - p50Ms.sized * 1000;
  return `${b.platform}, one in flight: the real path may take at most ${us(limitUs)} (${TARGET_RATIO} × the echo's p50 ${us(p50Ms.echo * 1000)}); moving the answer takes ${us(p50Ms.sized * 1000)} (sized echo), leaving ${us(leftUs)}, ${room(leftUs, b)}; the real path takes ${us(p50Ms.real * 1000)}`;
}

function room(leftUs: number, b: Budget): string {
  const needed = b.encodeUs + b.handlerUs;
  return `against ${us(needed)} for writing the patch (${us(b.encodeUs)}) and deciding the injection (${us(b.handlerUs)}) alone: ${leftUs >= needed ? 'room' : 'no room'}`;
}

export function budgetTable(budgets: Budget[]): string[] {
  const w = [16, 10, 8, 8, 8, 8, 10, 8];
  const lines = [line(['platform', 'path', 'srv µs', 'cli µs', 'Σ/2 µs', 'bound µs', 'predicted', 'adm/s'], w)];
  for (const b of budgets) {
    for (const [path, c] of [['echo', b.echo], ['echo+size', b.sized], ['real', b.real]] as const) {
      lines.push(line([path === 'echo' ? b.platform : '', path, ...[c.serverUs, c.clientUs, c.sharedUs, c.boundUs, c.predictedPerSecond, c.perSecond].map((n) => fixed(n, 0))], w));
    }
    lines.push(line(['', 'real/echo', '', '', '', times(b.real.boundUs / b.echo.boundUs), times(b.echo.predictedPerSecond / b.real.predictedPerSecond), times(b.echo.perSecond / b.real.perSecond)], w));
  }
  return lines;
}

const line = (cells: string[], widths: number[]) => tableRow(cells, widths);
