// The event-trigger path end to end: a ResourceDistribution created through the real API server
// is admitted by the Worker's validating webhook (Miniflare over HTTPS), which publishes an
// ObjectChanged event with a SigV4-signed PutEvents call (to an EventBridge stand-in on loopback:
// AWS itself cannot run here); that event, in EventBridge's delivery shape, drives the reconcile
// Lambda handler, which creates the copies. The Worker also rejects an invalid one at the edge.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { webhookEndpoints } from '../../src/registry.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import { makeReconcileHandler } from '../../src/aws/reconcile-handler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { resourceDistributionReconciler } from '../../src/resourcedistribution/reconciler.js';
import { resourceDistributionFeature } from '../../src/resourcedistribution/index.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists } from '../../src/kube/errors.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './support/kube.js';
import { caPem, localServingCert, trustingFetch } from './support/tls.js';

const kc = testKubeConfig();
const CLUSTER = 'events-e2e';
let kube: KubeHttp;
let worker: LocalWorker;
let stub: Server;
let ns = '';
const installLog: string[] = [];
const received: { authorization: string; target: string; entries: { Source: string; DetailType: string; Detail: string; EventBusName: string }[] }[] = [];

beforeAll(async () => {
  kube = await testKube();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
  ns = await createNamespace(kc, 'events', { events: 'yes' });
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { Entries } = JSON.parse(body) as { Entries: (typeof received)[number]['entries'] };
      received.push({ authorization: String(req.headers.authorization), target: String(req.headers['x-amz-target']), entries: Entries });
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify({ FailedEntryCount: 0, Entries: Entries.map((_, i) => ({ EventId: `ev-${received.length}-${i}` })) }));
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  const port = (stub.address() as { port: number }).port;
  worker = await startLocalWorker({
    tls: localServingCert(), adminToken: 'events-admin',
    bindings: { KS_EVENT_BUS_NAME: 'kruise-serverless', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example-secret', KS_EVENTBRIDGE_ENDPOINT: `http://127.0.0.1:${port}/` },
  });
  const res = await trustingFetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: 'Bearer events-admin' }, body: JSON.stringify({ clusterId: CLUSTER }) });
  const { webhookSecret } = (await res.json()) as { webhookSecret: string };
  await applyClusterSide(kube, renderClusterSide({ baseUrl: worker.url, clusterId: CLUSTER, secret: webhookSecret, caBundle: caPem(), endpoints: webhookEndpoints([resourceDistributionFeature]), crds: [] }), { log: (m) => installLog.push(m) });
});

afterAll(async () => {
  await uninstallClusterSide(kube).catch(() => undefined);
  await kube.delete({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd-events' } }).catch(() => undefined);
  await deleteNamespace(kc, ns);
  await worker?.dispose();
  stub?.close();
  kube.close();
});

it('rejects an invalid ResourceDistribution at the edge, right after the install returns (its probe saw the configuration in effect)', async () => {
  expect(installLog).toContainEqual(expect.stringMatching(/^ValidatingWebhookConfiguration kruise-serverless-validating in effect/));
  const bad = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd-events-bad' },
    spec: { resource: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, targets: {} } };
  await expect(kube.create(bad)).rejects.toThrow(/denied the request/);
});

it('publishes ObjectChanged for an admitted change, and the reconcile Lambda acts on it', async () => {
  await kube.create({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd-events' },
    spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rd-events-cm' }, data: { via: 'event' } }, targets: { namespaceLabelSelector: { matchLabels: { events: 'yes' } } } } });
  const call = await eventually('a PutEvents call', async () => received.find((r) => r.entries.some((e) => e.Detail.includes('rd-events'))));
  expect(call.target).toBe('AWSEvents.PutEvents');
  expect(call.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/events\/aws4_request/);
  const entry = call.entries.find((e) => e.Detail.includes('rd-events'))!;
  expect(entry).toMatchObject({ Source: 'kruise-serverless', DetailType: 'ObjectChanged', EventBusName: 'kruise-serverless' });
  const detail = JSON.parse(entry.Detail) as Record<string, unknown>;
  expect(detail).toEqual({
    clusterId: CLUSTER, apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'rd-events', reason: 'created',
    admitted: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'rd-events', operation: 'CREATE' },
  });

  // EventBridge delivers the entry to the rule's target in this shape.
  const template = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'object-changed-event.json'), 'utf8')) as Record<string, unknown>;
  const delivered = { ...template, source: entry.Source, 'detail-type': entry.DetailType, detail };
  const handler = makeReconcileHandler({
    reconcilers: [resourceDistributionReconciler], clusterId: CLUSTER,
    run: (r, scope) => runReconciler(kube, r, { scope, identity: 'events-e2e' }),
  });
  const summary = await handler(delivered);
  expect(summary).toMatchObject({ ok: true, trigger: 'object-changed', runs: [{ reconciler: 'ResourceDistribution', acted: true, scope: ['rd-events'] }] });
  const copy = await kube.get<KubeObject & { data?: Record<string, string> }>('v1', 'ConfigMap', 'rd-events-cm', ns);
  expect(copy.data).toEqual({ via: 'event' });
});
