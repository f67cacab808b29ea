// The Lambda path of an e2e environment: the production reconcile handler (wireReconcileHandler,
// as the Lambda entry builds it) driven as AWS drives it. The Worker publishes ObjectChanged events
// with SigV4-signed PutEvents calls to an EventBridge stand-in on loopback, which delivers each
// entry to the handler in EventBridge's envelope; wake-ups the runs ask for go through the real
// SQS client to the fake SQS endpoint, and a poller hands them back as Lambda's SQS event source
// does once their DelaySeconds have passed. AWS itself cannot run here. Invocations are serialized.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReconcileHandler, ReconcileSummary } from '../../../src/aws/reconcile-handler.js';
import { wireReconcileHandler } from '../../../src/aws/reconcile-wiring.js';
import type { EdgeTarget } from '../../../src/edge-state/push.js';
import { sqsRequeueQueue } from '../../../src/aws/sqs-fetch.js';
import { startFakeSqs, type FakeSqs } from '../../../src/aws/sqs-fake.js';
import type { KubeHttp } from '../../../src/kube/http.js';

const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example-secret' };
const POLL_MS = 50;

type Entry = { Source: string; DetailType: string; Detail: string };

export type LambdaPath = {
  /** The Worker bindings that make it publish change events here. */
  bindings: Record<string, string>;
  /** Every invocation's summary, in order. */
  summaries: ReconcileSummary[];
  /** Every change event the Worker published (their detail), in order. */
  published: Record<string, unknown>[];
  /** The same events with their EventBridge id and when the bus received them (ms). */
  received: { id: string; at: number; detail: Record<string, unknown> }[];
  /** Every invocation's summary with when it finished (ms), in order. */
  finished: { at: number; summary: ReconcileSummary }[];
  /** The last `count` invocations (all by default), their runs, and the events received: for a failing test's message. */
  describeRuns(count?: number): string;
  /** While stalled, the SQS poller delivers nothing (messages wait in the queue), as if the queue were down. */
  stallWakeUps(stalled: boolean): void;
  /** Wires the handler for the cluster: events that arrived before are delivered then. */
  attach(target: { clusterId: string; kube: KubeHttp; edge: EdgeTarget }): Promise<void>;
  close(): Promise<void>;
};

export async function startLambdaPath(): Promise<LambdaPath> {
  const summaries: ReconcileSummary[] = [];
  const published: Record<string, unknown>[] = [];
  const received: LambdaPath['received'] = [];
  const finished: LambdaPath['finished'] = [];
  let stalled = false;
  const waiting: unknown[] = [];
  let handler: ReconcileHandler | undefined;
  let chain = Promise.resolve();
  const invoke = (event: unknown) => {
    if (!handler) return void waiting.push(event);
    const h = handler;
    chain = chain.then(async () => {
      const summary = await h(event);
      summaries.push(summary);
      finished.push({ at: Date.now(), summary });
    }).catch((e: unknown) => {
      summaries.push({ ok: false, trigger: 'invalid', message: String(e), runs: [] });
    });
  };

  let id = 0;
  const bus: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { Entries } = JSON.parse(body) as { Entries: Entry[] };
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify({ FailedEntryCount: 0, Entries: Entries.map(() => ({ EventId: `ev-${++id}` })) }));
      for (const [i, e] of Entries.entries()) {
        const eventId = `ev-${id - Entries.length + 1 + i}`;
        published.push(JSON.parse(e.Detail) as Record<string, unknown>);
        received.push({ id: eventId, at: Date.now(), detail: JSON.parse(e.Detail) as Record<string, unknown> });
        invoke({
          version: '0', id: eventId, 'detail-type': e.DetailType, source: e.Source, account: '123456789012',
          time: new Date().toISOString(), region: REGION, resources: [], detail: JSON.parse(e.Detail) as unknown,
        });
      }
    });
  });
  await new Promise<void>((r) => bus.listen(0, '127.0.0.1', r));
  const busUrl = `http://127.0.0.1:${(bus.address() as AddressInfo).port}/`;

  const sqs: FakeSqs = await startFakeSqs({ region: REGION, credentials: CREDENTIALS });
  // Lambda's SQS poller: a message is delivered once its delay has passed since it was first seen.
  const firstSeen = new Map<string, number>();
  const poller = setInterval(() => {
    const now = Date.now();
    for (const m of sqs.messages) if (!firstSeen.has(m.messageId)) firstSeen.set(m.messageId, now);
    const due = sqs.messages.filter((m) => firstSeen.get(m.messageId)! + m.delaySeconds * 1000 <= now);
    if (!due.length || !handler || stalled) return;
    sqs.messages.splice(0, sqs.messages.length, ...sqs.messages.filter((m) => !due.includes(m)));
    invoke({ Records: due.map((m) => ({ messageId: m.messageId, body: m.body, eventSource: 'aws:sqs', receiptHandle: `rh-${m.messageId}`, attributes: {}, messageAttributes: {}, md5OfBody: '', eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:kruise-requeue', awsRegion: REGION })) });
  }, POLL_MS);

  return {
    bindings: { KS_EVENT_BUS_NAME: 'kruise-serverless', AWS_REGION: REGION, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, KS_EVENTBRIDGE_ENDPOINT: busUrl },
    summaries,
    published,
    received,
    finished,
    describeRuns: (count) => {
      const runs = (count === undefined ? summaries : summaries.slice(-count)).map((s) => ({
        trigger: s.trigger, ...(s.message ? { message: s.message } : {}),
        runs: s.runs.map((r) => `${r.reconciler} ${JSON.stringify(r.scope)} acted=${r.acted} applied=${r.applied} conflicts=${r.conflicts} failed=${r.failed}${r.error ? ` error=${r.error}` : ''}`),
      }));
      const events = received.map((e) => `${e.id} ${String(e.detail['kind'])} ${String(e.detail['namespace'] ?? '')}/${String(e.detail['name'])}`);
      return `runs: ${JSON.stringify(runs)}\nevents: ${JSON.stringify(events)}`;
    },
    stallWakeUps: (on) => void (stalled = on),
    async attach({ clusterId, kube, edge }) {
      handler = await wireReconcileHandler({
        clusterId, kube: async () => kube, identity: `lambda-e2e-${clusterId}`, log: () => undefined,
        // As deployed: a one-minute schedule, which no test waits for.
        resyncEveryMs: 60_000, edge,
        queue: sqsRequeueQueue({ queueUrl: sqs.queueUrl, region: REGION, credentials: async () => CREDENTIALS }),
      });
      for (const e of waiting.splice(0)) invoke(e);
    },
    async close() {
      clearInterval(poller);
      await chain;
      await sqs.close();
      await new Promise<void>((r) => bus.close(() => r()));
    },
  };
}
