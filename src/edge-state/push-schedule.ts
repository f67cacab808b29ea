// When the long-running loop pushes to the edge: at once, then once per period, on a timer of its
// own. Not after the reconcilers' resync, which waits behind every event-driven run in their queue:
// under a stream of changes that starved the pushes and the edge refused admissions as stale.

/**
 * Runs `push` now and then every `periodMs` until `signal` aborts. Never two at once: a push that
 * takes longer than the period is followed by the next one straight away. `push` reports its own
 * failures; one that throws is logged and the schedule goes on.
 *
 * With `lost`, asked every `checkEveryMs` between pushes, an edge that lost what it was pushed (a
 * restarted edge whose state lives in memory) is pushed again at once instead of at the end of the
 * period: until then it refuses, or answers without, what needs that state.
 */
export async function pushEvery(
  periodMs: number,
  push: () => Promise<void>,
  signal: AbortSignal,
  log: (m: string) => void,
  watch?: { checkEveryMs: number; lost: () => Promise<boolean> },
): Promise<void> {
  while (!signal.aborted) {
    const started = Date.now();
    await push().catch((e: unknown) => log(`push: ${String(e)}`));
    const due = started + periodMs;
    while (!signal.aborted && Date.now() < due) {
      await sleepUnlessAborted(Math.min(due - Date.now(), watch?.checkEveryMs ?? Infinity), signal);
      if (!watch || signal.aborted || Date.now() >= due) continue;
      // An edge that cannot be reached is not known to have lost anything: the period stands.
      const lost = await watch.lost().catch(() => false);
      if (!lost) continue;
      log('push: the edge lost its pushed state (restarted?); pushing now');
      break;
    }
  }
}

function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
