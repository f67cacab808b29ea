// What the soak watches while the churn runs: the edge's pushes, the controllers' first writes,
// refusals the churn met, and this process's memory and open handles.
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import type { EdgeCredentials } from '../system.js';
import { classifyRefusal, overlaps, type Refusal } from './stats.js';

type Window = { from: number; to: number };

/** Polls the edge's sync summary every second: the longest gap between pushes per collection. */
export class PushGaps {
  readonly maxGapMs = new Map<string, number>();
  readonly excusedMaxGapMs = new Map<string, number>();
  private readonly last = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Chaos windows: gaps overlapping them are reported apart. */
  readonly excused: Window[] = [];
  polls = 0;
  failedPolls = 0;

  constructor(private readonly edge: EdgeCredentials) {}

  /** The observedAt of every collection the edge holds now (undefined if the edge did not answer). */
  async summary(): Promise<Record<string, number> | undefined> {
    try {
      const res = await this.edge.fetch(`${this.edge.directUrl}/clusters/${this.edge.clusterId}/sync`, { headers: { authorization: `Bearer ${this.edge.syncToken}` } });
      if (res.status !== 200) return undefined;
      const body = (await res.json()) as { collections: Record<string, { observedAt: number }> };
      return Object.fromEntries(Object.entries(body.collections).map(([k, v]) => [k, v.observedAt]));
    } catch {
      return undefined;
    }
  }

  private record(collection: string, from: number, to: number): void {
    const into = overlaps(from, to, this.excused) ? this.excusedMaxGapMs : this.maxGapMs;
    into.set(collection, Math.max(into.get(collection) ?? 0, to - from));
  }

  async poll(now = Date.now()): Promise<void> {
    this.polls += 1;
    const seen = await this.summary();
    if (!seen) return void (this.failedPolls += 1);
    for (const [collection, observedAt] of Object.entries(seen)) {
      const prev = this.last.get(collection);
      if (prev !== undefined && observedAt !== prev) this.record(collection, prev, observedAt);
      this.last.set(collection, observedAt);
    }
    // A gap still open counts too (pushes that stopped).
    for (const [collection, observedAt] of this.last) this.record(collection, observedAt, now);
  }

  start(): void {
    const tick = () => void this.poll().finally(() => { if (this.timer) this.timer = setTimeout(tick, 1000); });
    this.timer = setTimeout(tick, 1000);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Refusals the churn met, by cause, with when (for chaos windows). */
export class Refusals {
  /** `sentAt`..`at`: the request's flight, so one sent before a chaos case and answered in it counts in it. */
  readonly all: { sentAt: number; at: number; cause: Refusal; what: string; message: string }[] = [];

  note(what: string, e: unknown, sentAt = Date.now()): void {
    const status = (e as { status?: unknown }).status;
    if (typeof status !== 'number') return;
    const message = e instanceof Error ? e.message : String(e);
    this.all.push({ sentAt, at: Date.now(), cause: classifyRefusal(message), what, message });
  }

  count(cause: Refusal, within?: Window, what?: string): number {
    return this.all.filter((r) => r.cause === cause && (!what || r.what.toLowerCase() === what) && (!within || (r.at >= within.from && r.sentAt <= within.to))).length;
  }
}

type Status = { observedGeneration?: number };
const SLOWEST_KEPT = 8;
const WATCHED = [
  ['apps.kruise.io/v1alpha1', 'CloneSet'], ['apps.kruise.io/v1beta1', 'StatefulSet'], ['apps.kruise.io/v1alpha1', 'SidecarSet'],
  ['policy.kruise.io/v1alpha1', 'PodUnavailableBudget'], ['apps.kruise.io/v1alpha1', 'WorkloadSpread'],
] as const;

/** Change → the controller's first status write for it: created or spec-changed objects, watched until status.observedGeneration reaches their generation. */
export class ChangeLatency {
  readonly samples: number[] = [];
  /** Each sample with when its change was made (to tell chaos windows apart). */
  readonly timed: { at: number; ms: number; kind: string }[] = [];
  readonly byKind = new Map<string, number[]>();
  /** The slowest changes seen, slowest first: where a tail comes from. */
  readonly slowest: { what: string; ms: number }[] = [];
  private readonly pending = new Map<string, { kind: string; name: string; generation: number; at: number }[]>();
  private readonly stopped = new AbortController();
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly kube: KubeHttp, private readonly labelSelector: string) {}

  /** The churn changed `obj` (its answer from the API server) at `at`. */
  changed(obj: KubeObject, at = Date.now()): void {
    const m = obj.metadata as { uid?: string; generation?: number; namespace?: string; name?: string } | undefined;
    if (!m?.uid || m.generation === undefined) return;
    // A change that left the spec as it was does not move the generation: the controller has
    // nothing new to observe, and waiting for its next status write would time something else.
    const observed = (obj.status as Status | undefined)?.observedGeneration;
    if (observed !== undefined && observed >= m.generation) return;
    const list = this.pending.get(m.uid) ?? [];
    if (list.some((p) => p.generation === m.generation)) return;
    list.push({ kind: obj.kind ?? '', name: `${m.namespace ?? ''}/${m.name ?? ''}`, generation: m.generation, at });
    this.pending.set(m.uid, list);
  }

  /** A status the watch delivered: every pending change it has caught up with is timed. */
  seen(obj: KubeObject, now = Date.now()): void {
    const uid = (obj.metadata as { uid?: string } | undefined)?.uid;
    const observed = (obj.status as Status | undefined)?.observedGeneration;
    if (!uid || observed === undefined) return;
    const list = this.pending.get(uid);
    if (!list) return;
    const left = list.filter((p) => {
      if (p.generation > observed) return true;
      this.samples.push(now - p.at);
      this.timed.push({ at: p.at, ms: now - p.at, kind: p.kind });
      const kind = this.byKind.get(p.kind) ?? [];
      kind.push(now - p.at);
      this.byKind.set(p.kind, kind);
      this.noteSlow(`${p.kind} ${p.name} generation ${p.generation}`, now - p.at);
      return false;
    });
    if (left.length) this.pending.set(uid, left);
    else this.pending.delete(uid);
  }

  start(): void {
    for (const [apiVersion, kind] of WATCHED) {
      this.loops.push((async () => {
        while (!this.stopped.signal.aborted) {
          try {
            const resourceVersion = await this.kube.collectionVersion(apiVersion, kind);
            await this.kube.watch(apiVersion, kind, { resourceVersion, timeoutSeconds: 60, signal: this.stopped.signal, labelSelector: this.labelSelector }, (e) => {
              if (e.type === 'MODIFIED' || e.type === 'ADDED') this.seen(e.object);
            });
          } catch {
            if (!this.stopped.signal.aborted) await new Promise((r) => setTimeout(r, 1000));
          }
        }
      })());
    }
  }

  private noteSlow(what: string, ms: number): void {
    this.slowest.push({ what, ms });
    this.slowest.sort((a, b) => b.ms - a.ms);
    this.slowest.length = Math.min(this.slowest.length, SLOWEST_KEPT);
  }

  /** Changes never observed by the controller (still pending). */
  unobserved(): number {
    return [...this.pending.values()].reduce((n, l) => n + l.length, 0);
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    await Promise.allSettled(this.loops);
  }
}

export type ResourceSample = { at: number; rssMb: number; heapMb: number; handles: number; timers: number };

/** This process's RSS and open handles (process.getActiveResourcesInfo) every few seconds. */
export class ResourceSampler {
  readonly samples: ResourceSample[] = [];
  private timer: NodeJS.Timeout | undefined;

  sample(): void {
    const m = process.memoryUsage();
    const info = process.getActiveResourcesInfo();
    this.samples.push({ at: Date.now(), rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, handles: info.length, timers: info.filter((t) => t === 'Timeout').length });
  }

  start(everyMs: number): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}
