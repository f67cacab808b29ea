// A fake SQS endpoint on 127.0.0.1 for tests. It answers SendMessageBatch in the AWS JSON 1.0
// protocol, recomputes each request's SigV4 signature with another implementation
// (@smithy/signature-v4) to check it, keeps the accepted messages, and hands them back as the
// records Lambda delivers. Never imported by production code.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentials } from './eks-token.js';
import type { SqsRecord } from './route-sqs.js';

export type SendMessageBatchRequest = { QueueUrl: string; Entries: { Id: string; MessageBody: string; DelaySeconds?: number }[] };
export type SeenRequest = { method: string; path: string; headers: IncomingMessage['headers']; body: string; signatureValid: boolean };
/** How the fake answers a request; the default accepts every entry. */
export type Answer = (req: SendMessageBatchRequest) => { status: number; json: unknown };
export type HeldMessage = { messageId: string; body: string; delaySeconds: number };

export type FakeSqs = {
  queueUrl: string;
  requests: SeenRequest[];
  messages: HeldMessage[];
  answer: Answer;
  /** Takes every held message out, as Lambda SQS records. */
  drain(): SqsRecord[];
  close(): Promise<void>;
};

const acceptAll: Answer = (req) => ({ status: 200, json: { Successful: req.Entries.map((e) => ({ Id: e.Id, MessageId: `id-${e.Id}`, MD5OfMessageBody: '' })) } });

export async function startFakeSqs(opts: { region: string; credentials: AwsCredentials; queueName?: string }): Promise<FakeSqs> {
  let next = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      void isSignedBy(req, body, opts).then((signatureValid) => {
        fake.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, signatureValid });
        const parsed = JSON.parse(body) as SendMessageBatchRequest;
        const out = signatureValid
          ? fake.answer(parsed)
          : { status: 403, json: { __type: 'com.amazon.coral.service#SignatureDoesNotMatch', message: 'The request signature we calculated does not match' } };
        const ok = new Set(((out.json as { Successful?: { Id: string }[] }).Successful ?? []).map((s) => s.Id));
        if (out.status === 200) {
          for (const e of parsed.Entries.filter((x) => ok.has(x.Id))) fake.messages.push({ messageId: `msg-${++next}`, body: e.MessageBody, delaySeconds: e.DelaySeconds ?? 0 });
        }
        res.writeHead(out.status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(out.json));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const arn = `arn:aws:sqs:${opts.region}:123456789012:${opts.queueName ?? 'kruise-requeue'}`;
  const fake: FakeSqs = {
    queueUrl: `${base}/123456789012/${opts.queueName ?? 'kruise-requeue'}`,
    requests: [],
    messages: [],
    answer: acceptAll,
    drain: () =>
      fake.messages.splice(0).map((m) => ({
        messageId: m.messageId, receiptHandle: `rh-${m.messageId}`, body: m.body, attributes: {}, messageAttributes: {}, md5OfBody: '',
        eventSource: 'aws:sqs', eventSourceARN: arn, awsRegion: opts.region,
      })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

async function isSignedBy(req: IncomingMessage, body: string, opts: { region: string; credentials: AwsCredentials }): Promise<boolean> {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!m || m[1] !== opts.credentials.accessKeyId || m[3] !== opts.region || m[4] !== 'sqs') return false;
  const headers: Record<string, string> = {};
  for (const h of m[5]!.split(';')) headers[h] = String(req.headers[h] ?? '');
  const d = String(req.headers['x-amz-date'] ?? '');
  const signingDate = new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(9, 11)}:${d.slice(11, 13)}:${d.slice(13, 15)}Z`);
  const [hostname, port] = String(req.headers.host).split(':');
  const signer = new SignatureV4({ service: 'sqs', region: opts.region, credentials: opts.credentials, sha256: Hash.bind(null, 'sha256'), applyChecksum: false });
  const request = new HttpRequest({ method: req.method ?? 'POST', protocol: 'http:', hostname: hostname ?? '', port: Number(port), path: req.url ?? '/', headers, body });
  const signed = await signer.sign(request, { signingDate });
  return String(signed.headers.authorization).endsWith(`Signature=${m[6]}`);
}
