import { describe, expect, it } from 'vitest';
import { fetchPutEvents } from './eventbridge-fetch.js';
import { PutEventsSink } from './change-sink.js';

describe('fetchPutEvents', () => {
  it('sends a SigV4-signed PutEvents JSON request to the regional endpoint', async () => {
    const seen: Request[] = [];
    const transport = fetchPutEvents({
      region: 'eu-west-1', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token',
      fetch: async (r) => {
        seen.push(r);
        return new Response(JSON.stringify({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] }), { status: 200 });
      },
    });
    const out = await transport([{ Source: 'kruise-serverless', DetailType: 'ObjectChanged', Detail: '{}', EventBusName: 'bus' }]);
    expect(out.Entries?.[0]?.EventId).toBe('e-1');
    const r = seen[0]!;
    expect(r.url).toBe('https://events.eu-west-1.amazonaws.com/');
    expect(r.method).toBe('POST');
    expect(r.headers.get('x-amz-target')).toBe('AWSEvents.PutEvents');
    expect(r.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(r.headers.get('x-amz-security-token')).toBe('token');
    expect(r.headers.get('authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/events\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
    expect(JSON.parse(await r.text())).toEqual({ Entries: [{ Source: 'kruise-serverless', DetailType: 'ObjectChanged', Detail: '{}', EventBusName: 'bus' }] });
  });

  it('turns an error answer into an error naming its type', async () => {
    const transport = fetchPutEvents({
      region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b',
      fetch: async () => new Response(JSON.stringify({ __type: 'AccessDeniedException', message: 'nope' }), { status: 400 }),
    });
    await expect(transport([])).rejects.toThrow(/400 AccessDeniedException nope/);
  });

  it('serves the sink: rejected entries are retried once', async () => {
    let calls = 0;
    const sink = new PutEventsSink(async (entries) => {
      calls += 1;
      return calls === 1 ? { FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure' }] } : { FailedEntryCount: 0, Entries: entries.map(() => ({ EventId: 'x' })) };
    }, { eventBusName: 'bus' });
    await sink.publish([{ clusterId: 'c', apiVersion: 'v1', kind: 'K', name: 'n', reason: 'created' }]);
    expect(calls).toBe(2);
  });
});
