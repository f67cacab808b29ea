// The scenarios' in-process part: a handler called directly on state pushed through the sync API
// into a MemoryStateStore, against the echo's work in-process (JSON.parse of the review,
// JSON.stringify of an allowed answer). Rounds alternate so machine noise and GC hit both paths.
// Each call's process CPU time is kept beside its wall time: on a shared machine a sub-millisecond
// call is often preempted for several, which inflates wall p99 without saying anything about the code.
import { newSecret, sha256Hex } from '../../src/edge-state/auth.js';
import { registryFromJson } from '../../src/edge-state/file-registry.js';
import type { Lister } from '../../src/edge-state/live-state.js';
import { MemoryStateStore } from '../../src/edge-state/memory-store.js';
import { pushCollections } from '../../src/edge-state/push.js';
import { parseReview } from '../../src/admission/review.js';
import type { AdmissionInput } from '../../src/admission/types.js';
import type { CollectionSpec } from '../../src/edge-state/contracts.js';
import { buildApp } from '../../src/app.js';

export const IN_PROCESS_CLUSTER = 'bench-handler';

export type Samples = { wallMs: number[]; cpuMs: number[] };
export type InProcessFigures = { calls: number; p50Ms: number; p99Ms: number; cpuP50Ms: number; cpuP99Ms: number };
/** The two paths of one round: call number `i`; `handler` records its own timing into `into`. */
export type InProcessPaths = { echo(i: number): void; handler(i: number, into: Samples): Promise<void> };

export const noSamples = (): Samples => ({ wallMs: [], cpuMs: [] });

/** `list`'s objects for `specs`, pushed as a reconciler would, through the sync API, into a MemoryStateStore. */
export async function pushedStore(list: Lister, specs: readonly CollectionSpec[]): Promise<MemoryStateStore> {
  const syncToken = newSecret();
  const registry = registryFromJson(JSON.stringify([{ clusterId: IN_PROCESS_CLUSTER, webhookSecrets: [], syncTokens: [{ sha256: await sha256Hex(syncToken) }] }]));
  const store = new MemoryStateStore();
  const app = buildApp({ endpoints: [], registry, state: () => store, store: () => store });
  const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
  await pushCollections({ baseUrl: 'http://bench.invalid', clusterId: IN_PROCESS_CLUSTER, syncToken, fetch }, list, [...specs]);
  return store;
}

/** The review's AdmissionInput; the handlers check the object is a record. */
export function parsedInput<T = unknown>(body: string): AdmissionInput<T> {
  const r = parseReview(body, IN_PROCESS_CLUSTER);
  if (!r.ok) throw new Error(`bench review does not parse: ${r.message}`);
  return r.input as AdmissionInput<T>;
}

/** The echo's work: JSON.parse of the review, JSON.stringify of an allowed answer. */
export function echoReview(body: string): string {
  const review = JSON.parse(body) as { apiVersion?: string; request?: { uid?: string } };
  return JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } });
}

export function percentiles(samples: number[]): (p: number) => number {
  const sorted = [...samples].sort((a, b) => a - b);
  return (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export function summarize(s: Samples): InProcessFigures {
  const wall = percentiles(s.wallMs);
  const cpu = percentiles(s.cpuMs);
  return { calls: s.wallMs.length, p50Ms: wall(50), p99Ms: wall(99), cpuP50Ms: cpu(50), cpuP99Ms: cpu(99) };
}

/** Runs `work`, recording its wall time and the process CPU time it took. */
export async function timed<T>(into: Samples, work: () => T | Promise<T>): Promise<T> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await work();
  into.wallMs.push(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  into.cpuMs.push((cpu.user + cpu.system) / 1000);
  return out;
}

/** `calls` calls of each path, interleaved, timings discarded. */
export async function warmUp(calls: number, paths: InProcessPaths): Promise<void> {
  const discard = noSamples();
  for (let i = 0; i < calls; i++) {
    paths.echo(i);
    await paths.handler(i, discard);
  }
}

/**
 * `rounds` rounds, echo first in even ones, handler first in odd ones; per path and round at most
 * `bound.calls` calls in at most `bound.maxMs`. `pathsFor(r)` prepares round `r` (fresh state, …).
 */
export async function alternateRounds(
  rounds: number,
  bound: { calls: number; maxMs: number },
  pathsFor: (r: number) => InProcessPaths | Promise<InProcessPaths>,
): Promise<{ echo: Samples; handler: Samples }> {
  const samples = { echo: noSamples(), handler: noSamples() };
  for (let r = 0; r < rounds; r++) {
    const paths = await pathsFor(r);
    for (const path of r % 2 === 0 ? (['echo', 'handler'] as const) : (['handler', 'echo'] as const)) {
      const deadline = performance.now() + bound.maxMs;
      for (let i = 0; i < bound.calls && performance.now() < deadline; i++) {
        if (path === 'handler') await paths.handler(i, samples.handler);
        else await timed(samples.echo, () => paths.echo(i));
      }
    }
  }
  return samples;
}

export const handlerRatio = (echo: InProcessFigures, handler: InProcessFigures) => ({ p50: handler.p50Ms / echo.p50Ms, p99: handler.p99Ms / echo.p99Ms });
