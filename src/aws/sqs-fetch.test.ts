// The real client against a fake SQS on 127.0.0.1 (src/aws/sqs-fake.ts), which checks each
// request's shape and recomputes its SigV4 signature with @smithy/signature-v4.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AwsCredentials } from './eks-token.js';
import { sqsRequeueQueue } from './sqs-fetch.js';
import { startFakeSqs, type FakeSqs } from './sqs-fake.js';

const CREDS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
const REGION = 'eu-west-1';

let sqs: FakeSqs;
let acceptAll: FakeSqs['answer'];
beforeAll(async () => {
  sqs = await startFakeSqs({ region: REGION, credentials: CREDS });
  acceptAll = sqs.answer;
});
afterAll(() => sqs.close());
beforeEach(() => {
  sqs.requests.length = 0;
  sqs.messages.length = 0;
  sqs.answer = acceptAll;
});

const queue = (credentials: () => Promise<AwsCredentials> = async () => CREDS) => sqsRequeueQueue({ queueUrl: sqs.queueUrl, region: REGION, credentials });
const msgs = (n: number) => Array.from({ length: n }, (_, i) => ({ body: JSON.stringify({ n: i }), delaySeconds: i }));

describe('sqsRequeueQueue', () => {
  it('sends one SigV4-signed SendMessageBatch (AWS JSON 1.0) to the queue endpoint', async () => {
    expect(await queue().send([{ body: '{"kind":"CloneSet"}', delaySeconds: 30 }, { body: '{"kind":"SidecarSet"}', delaySeconds: 900 }])).toEqual([]);
    expect(sqs.requests).toHaveLength(1);
    const r = sqs.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/');
    expect(r.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(r.headers['x-amz-target']).toBe('AmazonSQS.SendMessageBatch');
    expect(r.headers['x-amz-security-token']).toBe('session-token');
    expect(r.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(r.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/sqs\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
    expect(r.signatureValid).toBe(true);
    expect(JSON.parse(r.body)).toEqual({
      QueueUrl: sqs.queueUrl,
      Entries: [
        { Id: 'm0', MessageBody: '{"kind":"CloneSet"}', DelaySeconds: 30 },
        { Id: 'm1', MessageBody: '{"kind":"SidecarSet"}', DelaySeconds: 900 },
      ],
    });
    expect(sqs.messages.map((m) => [m.body, m.delaySeconds])).toEqual([['{"kind":"CloneSet"}', 30], ['{"kind":"SidecarSet"}', 900]]);
  });

  it('a wrong signature is noticed and refused', async () => {
    const out = await queue(async () => ({ ...CREDS, secretAccessKey: 'not-the-key' })).send(msgs(1));
    expect(sqs.requests[0]!.signatureValid).toBe(false);
    expect(out).toEqual([{ index: 0, error: 'SQS SendMessageBatch: 403 SignatureDoesNotMatch The request signature we calculated does not match' }]);
  });

  it('batches by ten and reports the entries SQS refused, by their index in the call', async () => {
    sqs.answer = (req) => ({
      status: 200,
      json: {
        Successful: req.Entries.filter((e) => e.Id !== 'm12').map((e) => ({ Id: e.Id, MessageId: 'x', MD5OfMessageBody: '' })),
        Failed: req.Entries.filter((e) => e.Id === 'm12').map((e) => ({ Id: e.Id, SenderFault: true, Code: 'InvalidParameterValue', Message: 'DelaySeconds too large' })),
      },
    });
    expect(await queue().send(msgs(23))).toEqual([{ index: 12, error: 'InvalidParameterValue: DelaySeconds too large' }]);
    expect(sqs.requests.map((s) => (JSON.parse(s.body) as { Entries: unknown[] }).Entries.length)).toEqual([10, 10, 3]);
    expect(sqs.requests.every((s) => s.signatureValid)).toBe(true);
  });

  it('batches by size: at most 256 KiB of bodies per call', async () => {
    const big = 'x'.repeat(100 * 1024);
    expect(await queue().send([0, 1, 2].map(() => ({ body: big, delaySeconds: 0 })))).toEqual([]);
    expect(sqs.requests.map((s) => (JSON.parse(s.body) as { Entries: unknown[] }).Entries.length)).toEqual([2, 1]);
  });

  it('an error answer fails every entry of that call, naming the error type', async () => {
    sqs.answer = () => ({ status: 400, json: { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' } });
    expect(await queue().send(msgs(2))).toEqual([0, 1].map((index) => ({ index, error: 'SQS SendMessageBatch: 400 QueueDoesNotExist The specified queue does not exist.' })));
  });

  it('an entry the answer does not mention counts as not sent', async () => {
    sqs.answer = (req) => ({ status: 200, json: { Successful: [{ Id: req.Entries[0]!.Id, MessageId: 'x', MD5OfMessageBody: '' }] } });
    expect(await queue().send(msgs(2))).toEqual([{ index: 1, error: 'not in the SendMessageBatch answer' }]);
  });

  it('without credentials nothing is sent and every entry fails', async () => {
    const out = await queue(async () => {
      throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set');
    }).send(msgs(2));
    expect(out.map((f) => f.index)).toEqual([0, 1]);
    expect(out[0]!.error).toContain('must be set');
    expect(sqs.requests).toEqual([]);
  });
});
