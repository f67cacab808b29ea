// The Worker's EventBridge sink, from its bindings: the isolates publish with it, and so does the
// cluster's Durable Object (held pod-status events, when their window closes). Off unless every
// setting is there.
import { PutEventsSink } from '../../src/aws/change-sink.js';
import { fetchPutEvents } from '../../src/aws/eventbridge-fetch.js';
import type { Env } from './platform.js';

export function eventBridgeSink(env: Env): PutEventsSink | undefined {
  if (!env.KS_EVENT_BUS_NAME || !env.AWS_REGION || !env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) return undefined;
  const transport = fetchPutEvents({
    region: env.AWS_REGION, accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    ...(env.KS_EVENTBRIDGE_ENDPOINT ? { endpoint: env.KS_EVENTBRIDGE_ENDPOINT } : {}),
  });
  return new PutEventsSink(transport, { eventBusName: env.KS_EVENT_BUS_NAME });
}
