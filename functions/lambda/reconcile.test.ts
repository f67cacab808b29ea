import { GetSecretValueCommand, type GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubeSourceFromEnv, makeReconcileLambda, reconcileLogLine, requeueQueueFromEnv, resyncSecondsFromEnv } from './reconcile.js';
import { makeReconcileHandler } from '../../src/aws/reconcile-handler.js';
import { emptyPlan, type Reconciler, type RunReport } from '../../src/reconcile/types.js';

describe('kubeSourceFromEnv', () => {
  const caData = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n').toString('base64');
  const kubeconfigYaml = [
    'apiVersion: v1', 'kind: Config', 'current-context: c',
    'clusters: [{ name: c, cluster: { server: "https://10.0.0.1:6443", certificate-authority-data: ' + caData + ' } }]',
    'users: [{ name: u, user: { token: abc } }]',
    'contexts: [{ name: c, context: { cluster: c, user: u } }]',
  ].join('\n');

  it('EKS: builds a client from the endpoint, CA and a minted token, without network', async () => {
    const source = kubeSourceFromEnv({
      KS_EKS_CLUSTER: 'prod', KS_EKS_ENDPOINT: 'https://ABCDEF.gr7.us-east-1.eks.amazonaws.com', KS_EKS_CA_DATA: caData,
      AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token',
    });
    const kube = await source();
    expect(await source()).toBe(kube); // the token is cached, so is the client
    kube.close();
  });

  it('secret: reads the kubeconfig through the client it is given', async () => {
    const sent: GetSecretValueCommand[] = [];
    const stub = { send: async (c: GetSecretValueCommand): Promise<GetSecretValueCommandOutput> => (sent.push(c), { $metadata: {}, SecretString: kubeconfigYaml }) };
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:kruise-kubeconfig-AbCdEf';
    const source = kubeSourceFromEnv({ KS_KUBECONFIG_SECRET_ARN: arn }, () => stub);
    const kube = await source();
    await source();
    expect(sent.map((c) => c.input)).toEqual([{ SecretId: arn }]);
    kube.close();
  });

  it('names what is missing', () => {
    expect(() => kubeSourceFromEnv({ KS_EKS_CLUSTER: 'prod', AWS_REGION: 'us-east-1' })).toThrow('missing: KS_EKS_ENDPOINT, KS_EKS_CA_DATA');
  });
});

describe('environment', () => {
  it('KS_REQUEUE_QUEUE_URL: none → no queue; the Region from AWS_REGION or the queue URL', () => {
    expect(requeueQueueFromEnv({})).toBeUndefined();
    expect(requeueQueueFromEnv({ KS_REQUEUE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/q' })).toBeDefined();
    expect(() => requeueQueueFromEnv({ KS_REQUEUE_QUEUE_URL: 'http://127.0.0.1:9324/123456789012/q' })).toThrow("set AWS_REGION, the queue's Region");
  });

  it.each([
    [undefined, 60],
    ['0', 0],
    ['300', 300],
  ])('KS_RESYNC_SECONDS=%s → %d', (value, want) => {
    expect(resyncSecondsFromEnv(value === undefined ? {} : { KS_RESYNC_SECONDS: value })).toBe(want);
  });

  it.each(['-1', '1.5', 'a minute', ''])('KS_RESYNC_SECONDS=%j is refused', (value) => {
    expect(() => resyncSecondsFromEnv({ KS_RESYNC_SECONDS: value })).toThrow('expected whole seconds');
  });
});

describe('the reconcile Lambda\'s stdout', () => {
  const scheduled = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'lambda', 'scheduled-event.json'), 'utf8')) as unknown;
  const reconciler = (kind: string): Reconciler => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind, observe: async () => undefined, decide: () => emptyPlan() });
  const run = async (r: Reconciler): Promise<RunReport> => {
    if (r.kind === 'SidecarSet') throw new Error('list failed');
    return { reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 1, conflicts: 0, failed: [{ write: 'patch CloneSet default/web', error: 'conflict' }], apiCalls: 3, durationMs: 5 };
  };

  it('the invocation summary as a JSON log line, then its EMF metrics: runs by kind and result, errors, durations', async () => {
    const lines: string[] = [];
    const handler = makeReconcileLambda({}, async () => makeReconcileHandler({ reconcilers: [reconciler('CloneSet'), reconciler('SidecarSet')], run, clusterId: 'example', log: reconcileLogLine }), (l) => lines.push(l));
    await handler(scheduled);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ level: 'warn', msg: 'reconcile invocation', summary: { ok: false, trigger: 'schedule' } });
    const metric = (name: string, dims: Record<string, string>) => parsed.find((l) => name in l && Object.entries(dims).every(([k, v]) => l[k] === v));
    expect(metric('ks_reconcile_runs_total', { kind: 'CloneSet', result: 'failed' })).toMatchObject({ ks_reconcile_runs_total: 1 });
    expect(metric('ks_reconcile_runs_total', { kind: 'SidecarSet', result: 'failed' })).toMatchObject({ ks_reconcile_runs_total: 1 });
    expect(metric('ks_reconcile_errors_total', { kind: 'CloneSet' })).toMatchObject({ ks_reconcile_errors_total: 1 });
    const runs = metric('ks_reconcile_runs_total', { kind: 'CloneSet' }) as { _aws: { CloudWatchMetrics: { Namespace: string }[] } };
    expect(runs._aws.CloudWatchMetrics[0]!.Namespace).toBe('KruiseServerless');
    expect(metric('ks_reconcile_duration_seconds', { kind: 'SidecarSet' })).toBeDefined();
  });
});
