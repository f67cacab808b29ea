// A stand-in for EventBridgeClient in tests: the same `send(command)` the real client has, so the
// code under test cannot tell them apart. It records every command and accepts every entry unless
// `reject` says otherwise. Never imported by production code.
import type { PutEventsCommand, PutEventsCommandOutput, PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { EventBridgeSender } from './change-events.js';

/** Decides an entry's fate: undefined accepts it, otherwise EventBridge's error code. */
export type RejectEntry = (entry: PutEventsRequestEntry, attempt: { call: number }) => string | undefined;

export class EventBridgeStub implements EventBridgeSender {
  readonly commands: PutEventsCommand[] = [];
  private nextId = 0;

  constructor(private readonly reject: RejectEntry = () => undefined) {}

  async send(command: PutEventsCommand): Promise<PutEventsCommandOutput> {
    this.commands.push(command);
    const call = this.commands.length;
    const entries = (command.input.Entries ?? []).map((e) => {
      const code = this.reject(e, { call });
      return code ? { ErrorCode: code, ErrorMessage: `stub rejected the entry (${code})` } : { EventId: `stub-${++this.nextId}` };
    });
    return { $metadata: { httpStatusCode: 200 }, FailedEntryCount: entries.filter((e) => 'ErrorCode' in e).length, Entries: entries };
  }

  /** Every entry sent, across calls, in order. */
  get entries(): PutEventsRequestEntry[] {
    return this.commands.flatMap((c) => c.input.Entries ?? []);
  }
}
