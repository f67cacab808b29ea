// The Worker's debouncer, kept by the cluster's Durable Object, so every isolate's pod-status
// events for one cluster meet in one place. A shell around src/edge-state/debounce.ts: the
// windows holding an event are stored (they must survive eviction; an empty window lost costs
// one early event), and the object's alarm is set for the next held event. The alarm publishes it;
// if that throws, nothing is committed and the platform retries the alarm.
import { closeWindows, heldWindows, nextDue, offerEvents, type DebounceState } from '../../src/edge-state/debounce.js';
import type { ChangeEvent, ChangeSink } from '../../src/edge-state/contracts.js';
import { parseChangeEvent } from '../../src/aws/change-sink.js';
import type { DurableObjectStorage } from './platform.js';

const KEY = 'debounce';

export class HeldEvents {
  private state: DebounceState = {};
  private stored = '{}';
  private alarmAt: number | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly sink: ChangeSink | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async load(): Promise<void> {
    this.state = (await this.storage.get<DebounceState>(KEY)) ?? {};
    this.stored = JSON.stringify(this.state);
    this.alarmAt = (await this.storage.getAlarm()) ?? undefined;
  }

  /** The events to publish now; the rest are held until their window closes. */
  async offer(events: readonly ChangeEvent[]): Promise<ChangeEvent[]> {
    const { send, next } = offerEvents(this.state, events, this.now());
    await this.commit(next);
    return send;
  }

  /** The object's alarm: publish what is due. */
  async alarm(): Promise<void> {
    this.alarmAt = undefined;
    const { send, next } = closeWindows(this.state, this.now());
    if (send.length && this.sink) await this.sink.publish(send);
    await this.commit(next);
  }

  /** Forgets everything held (the cluster is deleted). */
  async clear(): Promise<void> {
    await this.storage.deleteAlarm();
    this.state = {};
    this.stored = '{}';
    this.alarmAt = undefined;
  }

  private async commit(next: DebounceState): Promise<void> {
    this.state = next;
    const held = JSON.stringify(heldWindows(next));
    if (held !== this.stored) {
      await this.storage.put({ [KEY]: JSON.parse(held) as DebounceState });
      this.stored = held;
    }
    const due = nextDue(next);
    if (due === this.alarmAt) return;
    if (due === undefined) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(due);
    this.alarmAt = due;
  }
}

/** The body of a debounce call: change events (they crossed a process boundary). */
export function parseDebounceBody(body: unknown): ChangeEvent[] | string {
  if (!Array.isArray(body)) return 'expected an array of change events';
  const events: ChangeEvent[] = [];
  for (const [i, item] of body.entries()) {
    const parsed = parseChangeEvent(item);
    if (!parsed.ok) return `[${i}]: ${parsed.error}`;
    events.push(parsed.event);
  }
  return events;
}
