// Pure: coalescing change events per object, so a rollout's hundreds of pod status changes become
// a few events per workload. The first event for an object goes out at once and opens a window;
// events inside it are held (the latest one: events carry names only, so one stands for all) and
// the held one goes out when the window closes, opening the next window; a window that closes
// with nothing held ends. So an object gets at most one event per window, a lone change costs no
// delay, and the last change of a burst is delayed by less than a window, never dropped.
import type { ChangeEvent } from './contracts.js';

/** Long enough to fold one pod's burst of status writes (and neighbours'), short next to a reconcile run. */
export const DEBOUNCE_WINDOW_MS = 400;

/** An open window: when it closes, and the event to send then, if any arrived inside it. */
export type DebounceWindow = { closesAt: number; held?: ChangeEvent };
/** Open windows by debounceKey. */
export type DebounceState = Readonly<Record<string, DebounceWindow>>;

export const debounceKey = (e: ChangeEvent): string => [e.clusterId, e.apiVersion, e.kind, e.namespace ?? '', e.name].join('/');

export type Debounced = { send: ChangeEvent[]; next: DebounceState };

/** Events arrive at `now`: those to send at once, and the windows after them. */
export function offerEvents(state: DebounceState, events: readonly ChangeEvent[], now: number, windowMs = DEBOUNCE_WINDOW_MS): Debounced {
  // A window already past its close (a late timer or alarm) is closed first, so its held event goes out.
  const closed = closeWindows(state, now, windowMs);
  const next: Record<string, DebounceWindow> = { ...closed.next };
  const send = new Map(closed.send.map((e) => [debounceKey(e), e]));
  for (const e of events) {
    const key = debounceKey(e);
    const open = next[key];
    if (send.has(key)) send.set(key, e);
    else if (open) next[key] = { closesAt: open.closesAt, held: e };
    else {
      send.set(key, e);
      next[key] = { closesAt: now + windowMs };
    }
  }
  return { send: [...send.values()], next };
}

/** Time passes to `now`: held events of closed windows go out (each opening a new window); empty closed windows end. */
export function closeWindows(state: DebounceState, now: number, windowMs = DEBOUNCE_WINDOW_MS): Debounced {
  const next: Record<string, DebounceWindow> = {};
  const send: ChangeEvent[] = [];
  for (const [key, w] of Object.entries(state)) {
    if (w.closesAt > now) next[key] = w;
    else if (w.held) {
      send.push(w.held);
      next[key] = { closesAt: now + windowMs };
    }
  }
  return { send, next };
}

/** When the next held event is due (undefined: nothing held, no wake-up needed). */
export function nextDue(state: DebounceState): number | undefined {
  let at: number | undefined;
  for (const w of Object.values(state)) if (w.held && (at === undefined || w.closesAt < at)) at = w.closesAt;
  return at;
}

/** Only the windows holding an event: what must survive a restart (an empty window lost costs one early event). */
export function heldWindows(state: DebounceState): DebounceState {
  return Object.fromEntries(Object.entries(state).filter(([, w]) => w.held));
}
