// How an isolate reads a cluster's collections from the one place that holds them (the cluster's
// Durable Object) with read-your-writes and little traffic:
//   - every request asks the holder again: no time-based cache, so an admission sees everything
//     admitted or pushed before it, whichever isolate handled that;
//   - the collections a request asks for in the same tick go in one call;
//   - the call names the stamp of each snapshot already held, and only changed ones come back.
// In-flight calls are never shared across requests: on Workers, code resuming on another
// request's I/O fails once that request has ended.
import type { Snapshot } from './contracts.js';
import type { ReadAnswer } from './held.js';

export type ReadCall = (names: string[], have: Record<string, string>) => Promise<Record<string, ReadAnswer>>;

/** Snapshots this isolate holds, by cluster and collection, with their stamps. */
export type StampedCache = Map<string, { stamp: string; snapshot: Snapshot }>;

/** A reader for one request: `collection(name)` resolves from one batched call per tick. */
export function requestReader(clusterId: string, cache: StampedCache, call: ReadCall): (name: string) => Promise<Snapshot | undefined> {
  const answers = new Map<string, Promise<Snapshot | undefined>>();
  let batch: { names: string[]; settle: Map<string, { resolve(s: Snapshot | undefined): void; reject(e: unknown): void }> } | undefined;

  const flush = async () => {
    const b = batch!;
    batch = undefined;
    const have: Record<string, string> = {};
    const sent = new Map<string, Snapshot>();
    for (const n of b.names) {
      const held = cache.get(`${clusterId}/${n}`);
      if (held) {
        have[n] = held.stamp;
        sent.set(n, held.snapshot);
      }
    }
    try {
      const got = await call(b.names, have);
      for (const n of b.names) {
        const key = `${clusterId}/${n}`;
        const a = got[n];
        if (!a) {
          cache.delete(key);
          b.settle.get(n)!.resolve(undefined);
          continue;
        }
        if (a.snapshot) cache.set(key, { stamp: a.stamp, snapshot: a.snapshot });
        const snapshot = a.snapshot ?? sent.get(n);
        if (snapshot) b.settle.get(n)!.resolve(snapshot);
        else b.settle.get(n)!.reject(new Error(`collection "${n}": the holder answered "unchanged" without a stamp sent`));
      }
    } catch (e) {
      for (const s of b.settle.values()) s.reject(e);
    }
  };

  return (name) => {
    let answer = answers.get(name);
    if (answer) return answer;
    answer = new Promise<Snapshot | undefined>((resolve, reject) => {
      if (!batch) {
        batch = { names: [], settle: new Map() };
        queueMicrotask(() => void flush());
      }
      batch.names.push(name);
      batch.settle.set(name, { resolve, reject });
    });
    answers.set(name, answer);
    return answer;
  };
}
