import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetSecretValueCommand, type GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { emptyPlan, type Reconciler, type RunReport, type Scope } from '../../src/reconcile/types.js';
import { kubeSourceFromEnv, makeReconcileHandler } from './reconcile.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'lambda', name), 'utf8')) as Record<string, unknown>;
const scheduled = fixture('scheduled-event.json');
const changed = fixture('object-changed-event.json');
const withDetail = (detail: unknown) => ({ ...changed, detail });

const reconciler = (apiVersion: string, kind: string, triggers?: Reconciler['triggers']): Reconciler => ({
  apiVersion, kind, ...(triggers ? { triggers } : {}),
  observe: async () => undefined,
  decide: () => emptyPlan(),
});
const cloneSet = reconciler('apps.kruise.io/v1alpha1', 'CloneSet');
const sidecarSet = reconciler('apps.kruise.io/v1alpha1', 'SidecarSet');
const resourceDistribution = reconciler('apps.kruise.io/v1alpha1', 'ResourceDistribution', [{ apiVersion: 'v1', kind: 'Namespace' }]);
const all = [cloneSet, sidecarSet, resourceDistribution];

function fakeRun(fail?: (r: Reconciler) => Error | undefined) {
  const calls: { kind: string; scope: Scope }[] = [];
  const run = async (r: Reconciler, scope: Scope): Promise<RunReport> => {
    calls.push({ kind: r.kind, scope });
    const err = fail?.(r);
    if (err) throw err;
    return { reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 2, conflicts: 1, failed: [], apiCalls: 5, durationMs: 7 };
  };
  return { run, calls };
}

describe('makeReconcileHandler', () => {
  it('a Scheduled Event runs every reconciler over everything', async () => {
    const { run, calls } = fakeRun();
    const lines: string[] = [];
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example', log: (l) => lines.push(l) })(scheduled);
    expect(calls).toEqual(all.map((r) => ({ kind: r.kind, scope: { kind: 'all' } })));
    expect(summary).toEqual({
      ok: true,
      trigger: 'schedule',
      eventId: 'd3b1f0a2-6c4e-4b7a-9e55-1f2c3a4b5c6d',
      runs: all.map((r) => ({ reconciler: r.kind, apiVersion: r.apiVersion, scope: 'all', acted: true, applied: 2, conflicts: 1, failed: 0, apiCalls: 5, durationMs: 7 })),
    });
    expect(JSON.parse(lines[0]!)).toEqual(summary);
  });

  it('an ObjectChanged event runs only that kind, for that object', async () => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(changed);
    expect(calls).toEqual([{ kind: 'CloneSet', scope: { kind: 'objects', objects: [{ namespace: 'default', name: 'web' }] } }]);
    expect(summary).toMatchObject({ ok: true, trigger: 'object-changed', runs: [{ reconciler: 'CloneSet', scope: ['default/web'], applied: 2, conflicts: 1, apiCalls: 5 }] });
  });

  it.each([
    ['cluster-scoped object', { clusterId: 'example', kind: 'ResourceDistribution', apiVersion: 'apps.kruise.io/v1alpha1', name: 'rd', reason: 'created' },
      [{ kind: 'ResourceDistribution', scope: { kind: 'objects', objects: [{ name: 'rd' }] } }]],
    ['a trigger kind runs its reconciler in full', { clusterId: 'example', kind: 'Namespace', apiVersion: 'v1', name: 'team-a', reason: 'created' },
      [{ kind: 'ResourceDistribution', scope: { kind: 'all' } }]],
    ['same kind, other apiVersion: nothing', { clusterId: 'example', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1beta1', namespace: 'default', name: 'web', reason: 'updated' }, []],
    ['a kind nobody reconciles: nothing', { clusterId: 'example', kind: 'ConfigMap', apiVersion: 'v1', namespace: 'default', name: 'cm', reason: 'deleted' }, []],
  ])('%s', async (_name, detail, want) => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(withDetail(detail));
    expect(calls).toEqual(want);
    expect(summary.ok).toBe(true);
    expect(summary.message).toBe(want.length ? undefined : `no reconciler for ${detail.apiVersion} ${detail.kind}`);
  });

  it('ignores events for another cluster', async () => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'prod' })(changed);
    expect(calls).toEqual([]);
    expect(summary).toEqual({ ok: true, trigger: 'ignored', eventId: '7f9e2c41-0b5d-4e8a-a3c6-2d4f6e8a0b1c', message: 'event for cluster "example"; this function serves "prod"', runs: [] });
  });

  it.each([
    ['not an object', 'hello', 'event: expected an EventBridge event object'],
    ['null', null, 'event: expected an EventBridge event object'],
    ['no source', { 'detail-type': 'ObjectChanged', detail: {} }, 'event: "source" and "detail-type" must be strings (is this an EventBridge event?)'],
    ['detail missing fields', withDetail({ kind: 'CloneSet', name: 'web' }),
      'ObjectChanged event 7f9e2c41-0b5d-4e8a-a3c6-2d4f6e8a0b1c: detail: clusterId must be a non-empty string, apiVersion must be a non-empty string, reason must be a non-empty string'],
    ['detail not an object', withDetail('CloneSet/default/web'), 'ObjectChanged event 7f9e2c41-0b5d-4e8a-a3c6-2d4f6e8a0b1c: detail: must be an object'],
  ])('malformed (%s): an error in the result, no run', async (_name, event, message) => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(event);
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ ok: false, trigger: 'invalid', message, runs: [] });
  });

  it('ignores other EventBridge events', async () => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })({ ...scheduled, source: 'aws.ec2', 'detail-type': 'EC2 Instance State-change Notification' });
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ ok: true, trigger: 'ignored', message: 'unhandled event: source "aws.ec2", detail-type "EC2 Instance State-change Notification"' });
  });

  it('a run that throws is reported and the others still run', async () => {
    const { run, calls } = fakeRun((r) => (r.kind === 'SidecarSet' ? new Error('SidecarSet: observe failed: 503') : undefined));
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(scheduled);
    expect(calls.map((c) => c.kind)).toEqual(['CloneSet', 'SidecarSet', 'ResourceDistribution']);
    expect(summary.ok).toBe(false);
    expect(summary.runs[1]).toMatchObject({ reconciler: 'SidecarSet', acted: false, error: 'SidecarSet: observe failed: 503' });
    expect(summary.runs[2]).toMatchObject({ reconciler: 'ResourceDistribution', acted: true });
  });

  it('failed writes make the summary not ok', async () => {
    const run = async (r: Reconciler): Promise<RunReport> => ({
      reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 0, conflicts: 0, failed: [{ write: 'patch CloneSet default/web', error: '422' }], apiCalls: 3, durationMs: 1,
    });
    const summary = await makeReconcileHandler({ reconcilers: [cloneSet], run, clusterId: 'example' })(scheduled);
    expect(summary).toMatchObject({ ok: false, runs: [{ failed: 1 }] });
  });
});

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

describe('edge push after a scheduled resync', () => {
  it('pushes after a scheduled event and reports it, but not after an ObjectChanged event', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'lambda');
    const scheduled = JSON.parse(readFileSync(join(dir, 'scheduled-event.json'), 'utf8')) as unknown;
    const changed = JSON.parse(readFileSync(join(dir, 'object-changed-event.json'), 'utf8')) as { detail: Record<string, unknown> };
    let pushes = 0;
    const reconciler = { kind: String(changed.detail.kind), apiVersion: String(changed.detail.apiVersion), observe: async () => ({}), decide: () => ({ writes: [], status: [], events: [] }) };
    const handler = makeReconcileHandler({
      reconcilers: [reconciler], clusterId: String(changed.detail.clusterId),
      run: async (r) => ({ reconciler: r.kind, acted: true, dryRun: false, plan: { writes: [], status: [], events: [] }, applied: 0, conflicts: 0, failed: [], apiCalls: 1, durationMs: 1 }),
      afterResync: async () => { pushes += 1; return ['namespaces: patch 0/3']; },
    });
    expect(await handler(scheduled)).toMatchObject({ ok: true, trigger: 'schedule', pushed: ['namespaces: patch 0/3'] });
    expect((await handler(changed)).pushed).toBeUndefined();
    expect(pushes).toBe(1);
  });
});
