// SendMessageBatch over fetch, in SQS's AWS JSON 1.0 protocol, SigV4-signed with aws4fetch: the
// reconcile Lambda's requeue transport without the AWS SDK's SQS client. Web APIs only.
import { AwsClient } from 'aws4fetch';
import type { AwsCredentials } from './eks-token.js';
import type { QueuedMessage, RequeueQueue } from './requeue.js';

export type SqsQueueConfig = {
  /** https://sqs.<region>.amazonaws.com/<account>/<name>; requests go to its origin. */
  queueUrl: string;
  region: string;
  credentials: () => Promise<AwsCredentials>;
};

/** SendMessageBatch takes at most 10 entries, and 256 KiB of message bodies in all. */
const MAX_ENTRIES = 10;
const MAX_BATCH_BYTES = 256 * 1024;

type BatchResult = { Successful?: { Id: string }[]; Failed?: { Id: string; Code?: string; Message?: string; SenderFault?: boolean }[] };

export function sqsRequeueQueue(cfg: SqsQueueConfig): RequeueQueue {
  const endpoint = `${new URL(cfg.queueUrl).origin}/`;
  return {
    async send(messages) {
      const indexed = messages.map((m, index) => ({ m, index }));
      let aws: AwsClient;
      try {
        aws = new AwsClient({ ...(await cfg.credentials()), service: 'sqs', region: cfg.region, retries: 2 });
      } catch (e) {
        return indexed.map(({ index }) => ({ index, error: errorText(e) }));
      }
      const failed: { index: number; error: string }[] = [];
      for (const batch of batches(indexed)) {
        try {
          failed.push(...(await sendBatch(aws, endpoint, cfg.queueUrl, batch)));
        } catch (e) {
          failed.push(...batch.map(({ index }) => ({ index, error: errorText(e) })));
        }
      }
      return failed;
    },
  };
}

async function sendBatch(aws: AwsClient, endpoint: string, queueUrl: string, batch: { m: QueuedMessage; index: number }[]) {
  const res = await aws.fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessageBatch' },
    body: JSON.stringify({
      QueueUrl: queueUrl,
      Entries: batch.map(({ m, index }) => ({ Id: `m${index}`, MessageBody: m.body, DelaySeconds: m.delaySeconds })),
    }),
  });
  const text = await res.text();
  if (!res.ok) {
    const err = parseJson(text) as { __type?: string; message?: string; Message?: string } | undefined;
    // __type is "com.amazonaws.sqs#QueueDoesNotExist" and the like.
    const type = err?.__type?.split('#').pop() ?? '';
    throw new Error(`SQS SendMessageBatch: ${res.status} ${type} ${err?.message ?? err?.Message ?? text}`.replace(/\s+/g, ' ').trim());
  }
  const out = (parseJson(text) ?? {}) as BatchResult;
  const byId = new Map(batch.map((b) => [`m${b.index}`, b.index]));
  const failed = (out.Failed ?? []).map((f) => ({ index: byId.get(f.Id) ?? -1, error: `${f.Code ?? 'Failed'}: ${f.Message ?? ''}`.trim() }));
  // An entry the answer names neither way did not demonstrably arrive.
  const answered = new Set([...(out.Successful ?? []), ...(out.Failed ?? [])].map((e) => e.Id));
  for (const [id, index] of byId) if (!answered.has(id)) failed.push({ index, error: 'not in the SendMessageBatch answer' });
  return failed.filter((f) => f.index >= 0);
}

function* batches<T extends { m: QueuedMessage }>(items: readonly T[]): Generator<T[]> {
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = new TextEncoder().encode(item.m.body).length;
    if (batch.length === MAX_ENTRIES || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length) yield batch;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
