// The production Lambda bundles exactly as infra/aws/template.yaml deploys them: built with the
// `sam build` settings (scripts/lambda-bundle.ts), each run in a process of its own with the
// environment the template gives its function (parameters filled in for the local control plane),
// against the real API server. Only AWS itself is replaced, behind the wire protocol the real
// clients speak: Secrets Manager (the kubeconfig secret) and EventBridge through
// AWS_ENDPOINT_URL_*, SQS at the queue URL the template passes.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildLambdaBundles } from '../../scripts/lambda-bundle.js';
import { startFakeSqs, type FakeSqs } from '../../src/aws/sqs-fake.js';
import { newSecret } from '../../src/edge-state/auth.js';
import { nodeSha256 } from '../../functions/node/ports.js';
import { DEFAULT_NAMESPACE } from '../../src/install/render.js';
import { FIELD_MANAGER } from '../../src/kube/apply.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { testKube } from './support/kube.js';
import { startAwsJsonFake, type AwsJsonFake } from './support/aws-json-fake.js';
import { startLambda, type LambdaProcess } from './support/lambda-runtime.js';
import { functionEnvironment, readSamTemplate, type Deployment } from './support/sam-template.js';

const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'example-secret', sessionToken: 'example-session' };
const STACK = 'ks-contract';
const CLUSTER = 'contract';
const SECRET = newSecret();
const SECRET_ARN = `arn:aws:secretsmanager:${REGION}:123456789012:secret:ks-contract-kubeconfig-AbCdEf`;
const BUNDLES = join(REPO_ROOT, '.kruise-serverless', 'lambda-contract');
const template = readSamTemplate(join(REPO_ROOT, 'infra', 'aws', 'template.yaml'));
const fixture = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', name), 'utf8')) as Record<string, unknown>;

let secrets: AwsJsonFake;
let events: AwsJsonFake;
let sqs: FakeSqs;
const running: LambdaProcess[] = [];

/** What Lambda sets in every function's environment, plus where the AWS services are. */
function runtimeEnv(functionName: string): Record<string, string> {
  return {
    AWS_REGION: REGION, AWS_DEFAULT_REGION: REGION, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: CREDENTIALS.sessionToken, AWS_LAMBDA_FUNCTION_NAME: `${STACK}-${functionName}`, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_LAMBDA_LOG_STREAM_NAME: `2026/11/28/[$LATEST]${randomUUID().replaceAll('-', '')}`, LAMBDA_TASK_ROOT: BUNDLES, TZ: ':UTC',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url, AWS_ENDPOINT_URL_EVENTBRIDGE: events.url,
  };
}

function deployment(): Deployment {
  return {
    stackName: STACK, region: REGION, accountId: '123456789012',
    parameters: {
      ClusterId: CLUSTER,
      KubeconfigSecretArn: SECRET_ARN,
      ClustersJson: JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [{ sha256: nodeSha256(SECRET) }], syncTokens: [] }]),
    },
    refs: { RequeueQueue: sqs.queueUrl },
  };
}

function start(functionId: string): LambdaProcess {
  const fn = template.Resources[functionId]!.Properties;
  const env = { ...functionEnvironment(template, functionId, deployment()), ...runtimeEnv(functionId) };
  const p = startLambda(BUNDLES, fn.Handler as string, env);
  running.push(p);
  return p;
}

beforeAll(async () => {
  await buildLambdaBundles(REPO_ROOT, BUNDLES);
  const kubeconfig = readFileSync(inject('kubeconfig'), 'utf8');
  secrets = await startAwsJsonFake('secretsmanager', REGION, {
    'secretsmanager.GetSecretValue': (b) => (b.SecretId === SECRET_ARN ? { ARN: SECRET_ARN, Name: 'ks-contract-kubeconfig', SecretString: kubeconfig } : { __type: 'ResourceNotFoundException' }),
  });
  let id = 0;
  events = await startAwsJsonFake('events', REGION, {
    'AWSEvents.PutEvents': (b) => ({ FailedEntryCount: 0, Entries: (b.Entries as unknown[]).map(() => ({ EventId: `ev-${++id}` })) }),
  });
  sqs = await startFakeSqs({ region: REGION, credentials: CREDENTIALS });
}, 60_000);

afterAll(async () => {
  for (const p of running) p.close();
  await Promise.all([secrets?.close(), events?.close(), sqs?.close()]);
  rmSync(BUNDLES, { recursive: true, force: true });
});

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'contract-pod', namespace: 'default', labels: { app: 'contract' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

function review(operation: 'CREATE' | 'DELETE', obj: Record<string, unknown>, gvr: { group: string; version: string; resource: string; kind: string }) {
  return {
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: randomUUID(), kind: { group: gvr.group, version: gvr.version, kind: gvr.kind }, resource: { group: gvr.group, version: gvr.version, resource: gvr.resource },
      requestKind: { group: gvr.group, version: gvr.version, kind: gvr.kind }, requestResource: { group: gvr.group, version: gvr.version, resource: gvr.resource },
      name: (obj.metadata as { name: string }).name, namespace: (obj.metadata as { namespace?: string }).namespace, operation,
      userInfo: { username: 'system:admin', groups: ['system:masters'] },
      ...(operation === 'DELETE' ? { oldObject: obj, object: null } : { object: obj, oldObject: null }), dryRun: false, options: null,
    },
  };
}

/** A function URL event as the API server's webhook call arrives. */
function functionUrlEvent(endpoint: string, body: unknown): Record<string, unknown> {
  const event = fixture('function-url-event.json');
  const path = `/clusters/${CLUSTER}/${SECRET}/${endpoint}`;
  return { ...event, rawPath: path, body: JSON.stringify(body), isBase64Encoded: false,
    requestContext: { ...(event.requestContext as object), http: { ...((event.requestContext as { http: object }).http), path } } };
}

type Answer = { statusCode: number; body: string };
const verdict = (a: Answer) => ({ statusCode: a.statusCode, allowed: (JSON.parse(a.body) as { response?: { allowed?: boolean } }).response?.allowed });

describe('WebhookFunction as the template deploys it', () => {
  let webhook: LambdaProcess;
  beforeAll(() => void (webhook = start('WebhookFunction')));

  it.each([
    ['mutate-pod', 'CREATE'],
    ['validate-pod', 'DELETE'],
  ] as const)('answers %s (%s) from live state', async (endpoint, op) => {
    const r = await webhook.invoke(functionUrlEvent(endpoint, review(op, pod, { group: '', version: 'v1', resource: 'pods', kind: 'Pod' })));
    expect(r.error, webhook.stderr()).toBeUndefined();
    expect(verdict(r.result as Answer)).toEqual({ statusCode: 200, allowed: true });
    // The kubeconfig came from the secret the template names, read with the function's credentials.
    expect(secrets.requests.map((q) => [q.target, q.body.SecretId])).toEqual([['secretsmanager.GetSecretValue', SECRET_ARN]]);
  });

  it("publishes change events to this stack's bus", async () => {
    const cloneset = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'contract-cs', namespace: 'default' }, spec: { replicas: 1 } };
    const r = await webhook.invoke(functionUrlEvent('observe', review('CREATE', cloneset, { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'clonesets', kind: 'CloneSet' })));
    expect(verdict(r.result as Answer)).toEqual({ statusCode: 200, allowed: true });
    await expect.poll(() => events.requests.length).toBeGreaterThan(0);
    const entry = (events.requests[0]!.body.Entries as { EventBusName: string; Detail: string }[])[0]!;
    expect(entry.EventBusName).toBe(`${STACK}-changes`);
    expect(JSON.parse(entry.Detail)).toMatchObject({ clusterId: CLUSTER, kind: 'CloneSet', name: 'contract-cs' });
  });
});

describe('ReconcileFunction as the template deploys it', () => {
  it('runs a scheduled resync against the cluster', async () => {
    // As after `install`: its namespace holds the reconcilers' leases.
    const kube = await testKube();
    await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: DEFAULT_NAMESPACE } }, FIELD_MANAGER);
    kube.close();
    const reconcile = start('ReconcileFunction');
    const r = await reconcile.invoke(fixture('scheduled-event.json'));
    expect(r.error, reconcile.stderr()).toBeUndefined();
    expect(r.result, JSON.stringify(r.result)).toMatchObject({ ok: true, trigger: 'schedule' });
  });
});
