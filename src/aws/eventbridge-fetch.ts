// PutEvents over fetch, SigV4-signed with aws4fetch: the Worker's transport for change events.
// (The AWS SDK's EventBridgeClient pulls in Node-only credential providers; this is a few KB.)
// Web APIs only.
import { AwsClient } from 'aws4fetch';
import type { PutEventsTransport } from './change-sink.js';

export type EventBridgeFetchConfig = {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Override the endpoint (tests); defaults to https://events.<region>.amazonaws.com/. */
  endpoint?: string;
  fetch?: (request: Request) => Promise<Response>;
};

export function fetchPutEvents(cfg: EventBridgeFetchConfig): PutEventsTransport {
  const aws = new AwsClient({
    accessKeyId: cfg.accessKeyId,
    secretAccessKey: cfg.secretAccessKey,
    ...(cfg.sessionToken ? { sessionToken: cfg.sessionToken } : {}),
    service: 'events',
    region: cfg.region,
    retries: 2,
  });
  const url = cfg.endpoint ?? `https://events.${cfg.region}.amazonaws.com/`;
  const send = cfg.fetch ?? ((r: Request) => fetch(r));
  return async (entries) => {
    const signed = await aws.sign(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSEvents.PutEvents' },
      body: JSON.stringify({ Entries: entries }),
    });
    const res = await send(signed);
    const text = await res.text();
    if (!res.ok) {
      const err = (text ? JSON.parse(text) : {}) as { __type?: string; message?: string; Message?: string };
      throw new Error(`EventBridge PutEvents: ${res.status} ${err.__type ?? ''} ${err.message ?? err.Message ?? text}`.trim());
    }
    return JSON.parse(text) as Awaited<ReturnType<PutEventsTransport>>;
  };
}
