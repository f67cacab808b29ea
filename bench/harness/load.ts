// Closed-loop load: a fixed number of requests in flight, each round bounded by a request count
// and by time. Records every latency; CPU time of the client (this process) and of the server
// processes is read around the round.
import { cpuMsOf } from './cpu.js';

/** Sends request number `i`; true if the answer was the expected one. */
export type Send = (i: number) => Promise<boolean>;

export type Tally = {
  latenciesMs: number[];
  failed: number;
  firstError?: string;
  elapsedMs: number;
  clientCpuMs: number;
  /** undefined when the servers' CPU time cannot be read. */
  serverCpuMs: number | undefined;
};

export type Bounds = { requests: number; concurrency: number; maxMs: number };

export async function drive(send: Send, bounds: Bounds, serverPids: number[] = []): Promise<Tally> {
  const latenciesMs: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let issued = 0;
  const cpu0 = process.cpuUsage();
  const server0 = cpuMsOf(serverPids);
  const start = performance.now();
  const deadline = start + bounds.maxMs;
  const loop = async () => {
    while (issued < bounds.requests && performance.now() < deadline) {
      const i = issued++;
      const t0 = performance.now();
      let ok = false;
      try {
        ok = await send(i);
        if (!ok) firstError ??= 'unexpected answer';
      } catch (e) {
        firstError ??= e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e);
      }
      latenciesMs.push(performance.now() - t0);
      if (!ok) failed++;
    }
  };
  await Promise.all(Array.from({ length: bounds.concurrency }, loop));
  const elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const server1 = cpuMsOf(serverPids);
  return {
    latenciesMs,
    failed,
    ...(firstError ? { firstError } : {}),
    elapsedMs,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs: server0 === undefined || server1 === undefined ? undefined : server1 - server0,
  };
}

export function mergeTallies(tallies: Tally[]): Tally {
  const firstError = tallies.find((t) => t.firstError)?.firstError;
  return {
    latenciesMs: tallies.flatMap((t) => t.latenciesMs),
    failed: tallies.reduce((n, t) => n + t.failed, 0),
    ...(firstError ? { firstError } : {}),
    elapsedMs: tallies.reduce((n, t) => n + t.elapsedMs, 0),
    clientCpuMs: tallies.reduce((n, t) => n + t.clientCpuMs, 0),
    serverCpuMs: tallies.some((t) => t.serverCpuMs === undefined) ? undefined : tallies.reduce((n, t) => n + (t.serverCpuMs ?? 0), 0),
  };
}

export type Figures = {
  requests: number;
  failed: number;
  firstError?: string;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per admission, µs (in-process: client and server together). */
  serverCpuUs: number | null;
  clientCpuUs: number;
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function figures(t: Tally): Figures {
  const sorted = [...t.latenciesMs].sort((a, b) => a - b);
  const n = sorted.length;
  return {
    requests: n,
    failed: t.failed,
    ...(t.firstError ? { firstError: t.firstError } : {}),
    perSecond: n / (t.elapsedMs / 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    serverCpuUs: t.serverCpuMs === undefined ? null : (t.serverCpuMs * 1000) / n,
    clientCpuUs: (t.clientCpuMs * 1000) / n,
  };
}

export type Path = 'echo' | 'real';

/**
 * `rounds` rounds, echo first in even ones and real first in odd ones so machine noise hits both;
 * `beforeRound` prepares round `r`, `drivePath` drives one path for one round.
 */
export async function driveAlternating(
  rounds: number,
  drivePath: (path: Path, r: number) => Promise<Tally>,
  beforeRound?: (r: number) => Promise<void>,
): Promise<{ echo: Figures; real: Figures }> {
  return driveRotating(['echo', 'real'] as const, rounds, drivePath, beforeRound);
}

/**
 * As driveAlternating, for any number of paths: round `r` starts with path `r mod n` and goes on
 * in order, so each path is measured first, last and in between equally often.
 */
export async function driveRotating<P extends string>(
  paths: readonly P[],
  rounds: number,
  drivePath: (path: P, r: number) => Promise<Tally>,
  beforeRound?: (r: number) => Promise<void>,
): Promise<Record<P, Figures>> {
  const tallies = new Map<P, Tally[]>(paths.map((p) => [p, []]));
  for (let r = 0; r < rounds; r++) {
    await beforeRound?.(r);
    for (let i = 0; i < paths.length; i++) {
      const path = paths[(r + i) % paths.length]!;
      tallies.get(path)!.push(await drivePath(path, r));
    }
  }
  return Object.fromEntries(paths.map((p) => [p, figures(mergeTallies(tallies.get(p)!))])) as Record<P, Figures>;
}
