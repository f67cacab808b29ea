// The compact change event a webhook publishes after admitting a change, so the reconciler for
// that kind runs for just that object instead of waiting for the next full resync. It carries
// names only: the reconciler reads the object itself (level-triggered), so a lost, duplicated
// or reordered event costs latency, never correctness.
import { PutEventsCommand, type PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import { PutEventsSink, type EventBridgeSinkConfig } from './change-sink.js';

export * from './change-sink.js';
export type { ChangeEvent } from '../edge-state/contracts.js';

/** The slice of EventBridgeClient the sink uses; the test stub implements the same shape. */
export type EventBridgeSender = { send(command: PutEventsCommand): Promise<PutEventsCommandOutput> };

/** The change sink over the AWS SDK's EventBridgeClient (Node, Lambda). */
export class EventBridgeSink extends PutEventsSink {
  constructor(client: EventBridgeSender, config: EventBridgeSinkConfig) {
    super((entries) => client.send(new PutEventsCommand({ Entries: entries })), config);
  }
}
