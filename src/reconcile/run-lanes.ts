// One reconciler's runs in the long-running loop: runs for different objects go side by side (up
// to a bound), runs for the same object take turns, and a full run goes alone. Triggers that
// arrive while their object waits or runs join one later run instead of queueing one each, so a
// burst of changes costs one more run per object, not one per change.

/**
 * An object to run for, and what asked: `causes` holds the versions of the changed objects behind
 * it (see own-writes.ts); null when something else asked (a wake-up, a change we cannot place).
 */
export type Target = { ref: { namespace?: string; name: string }; causes: Set<string> | null };
/** Work asked for: every object (`all`), or the objects keyed by `namespace/name`. */
export type Pending = { all: boolean; objects: Map<string, Target> };

/** Runs beside each other for one reconciler: its API calls still share the client's limits. */
export const RUNS_PER_RECONCILER = 4;

export function pendingFor(target?: Target): Pending {
  const p: Pending = { all: !target, objects: new Map() };
  if (target) p.objects.set(`${target.ref.namespace ?? ''}/${target.ref.name}`, target);
  return p;
}

/** Folds `from` into `into`: a cause unknown on either side makes the merged one unknown. */
export function mergePending(into: Pending, from: Pending): void {
  into.all ||= from.all;
  for (const [k, t] of from.objects) {
    const held = into.objects.get(k);
    if (!held) into.objects.set(k, { ref: t.ref, causes: t.causes && new Set(t.causes) });
    else if (held.causes && t.causes) t.causes.forEach((c) => held.causes!.add(c));
    else held.causes = null;
  }
}

export class RunLanes {
  private waiting: Pending | undefined;
  private running = 0;
  private runningAll = false;
  private readonly inFlight = new Set<string>();
  /** Callers waiting for a full run that has not started yet. */
  private allWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];

  /** `start` runs one batch to its end (it must not throw). */
  constructor(private readonly start: (batch: Pending) => Promise<void>, private readonly limit = RUNS_PER_RECONCILER) {}

  add(p: Pending): void {
    if (this.waiting) mergePending(this.waiting, p);
    else {
      this.waiting = { all: false, objects: new Map() };
      mergePending(this.waiting, p);
    }
    this.pump();
  }

  /** Asks for a full run; resolves when one that started after this call has finished. */
  all(): Promise<void> {
    return new Promise((resolve) => {
      this.allWaiters.push(resolve);
      this.add({ all: true, objects: new Map() });
    });
  }

  /** Resolves once nothing runs or waits. */
  idle(): Promise<void> {
    if (this.running === 0 && !this.waiting) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.waiting && this.running < this.limit && !this.runningAll) {
      const p = this.waiting;
      if (p.all) {
        // A full run observes everything: it waits for the object runs to end, and absorbs
        // every object asked for meanwhile.
        if (this.running > 0) return;
        this.waiting = undefined;
        const waiters = this.allWaiters;
        this.allWaiters = [];
        this.runningAll = true;
        this.launch(p, [], waiters);
        return;
      }
      const ready = [...p.objects].filter(([k]) => !this.inFlight.has(k));
      if (ready.length === 0) return;
      for (const [k] of ready) p.objects.delete(k);
      if (p.objects.size === 0) this.waiting = undefined;
      this.launch({ all: false, objects: new Map(ready) }, ready.map(([k]) => k), []);
    }
  }

  private launch(batch: Pending, keys: string[], waiters: (() => void)[]): void {
    this.running += 1;
    keys.forEach((k) => this.inFlight.add(k));
    void this.start(batch).finally(() => {
      this.running -= 1;
      keys.forEach((k) => this.inFlight.delete(k));
      if (batch.all) this.runningAll = false;
      waiters.forEach((w) => w());
      this.pump();
      if (this.running === 0 && !this.waiting) {
        const idle = this.idleWaiters;
        this.idleWaiters = [];
        idle.forEach((w) => w());
      }
    });
  }
}
