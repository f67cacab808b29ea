import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeLambdaHandler } from './index.js';
import { nodeSha256 } from '../node/ports.js';

const ROOT = join(import.meta.dirname, '..', '..');
const event = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'lambda', 'function-url-event.json'), 'utf8')) as Record<string, unknown>;
const healthz = { ...event, rawPath: '/healthz', body: undefined, isBase64Encoded: false,
  requestContext: { ...(event.requestContext as object), http: { ...((event.requestContext as { http: object }).http), method: 'GET', path: '/healthz' } } };

const kubeconfig = [
  'apiVersion: v1', 'kind: Config', 'current-context: c',
  'clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1", insecure-skip-tls-verify: true } }]',
  'users: [{ name: u, user: { token: abc } }]',
  'contexts: [{ name: c, context: { cluster: c, user: u } }]',
].join('\n');

describe('the webhook Lambda handler', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ks-lambda-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds its app again on the next invocation after a failed start', async () => {
    const path = join(dir, 'kubeconfig');
    const handler = makeLambdaHandler([], { KS_CLUSTER_ID: 'c1', KS_CLUSTERS_JSON: '[]', KUBECONFIG: path });
    await expect(handler(healthz as never, {} as never)).rejects.toThrow();
    writeFileSync(path, kubeconfig);
    const out = (await handler(healthz as never, {} as never)) as { statusCode: number; body: string };
    expect([out.statusCode, JSON.parse(out.body)]).toEqual([200, { ok: true }]);
  });

  it('says which cluster settings are missing', async () => {
    const handler = makeLambdaHandler([], { KS_CLUSTER_ID: 'c1', AWS_REGION: 'us-east-1' });
    await expect(handler(healthz as never, {} as never)).rejects.toThrow('no cluster configured: set KUBECONFIG, KS_KUBECONFIG_SECRET_ARN, or KS_EKS_CLUSTER');
  });

  it('writes the admission\'s decision line and its EMF metrics to stdout when the invocation ends', async () => {
    const path = join(dir, 'kubeconfig-emf');
    writeFileSync(path, kubeconfig);
    const secret = 'emf-path-secret';
    const registry = JSON.stringify([{ clusterId: 'c1', webhookSecrets: [{ sha256: nodeSha256(secret) }], syncTokens: [] }]);
    const lines: string[] = [];
    const handler = makeLambdaHandler([], { KS_CLUSTER_ID: 'c1', KS_CLUSTERS_JSON: registry, KUBECONFIG: path }, (l) => lines.push(l));
    const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {
      uid: 'u1', kind: { group: '', version: 'v1', kind: 'PodTemplate' }, resource: { group: '', version: 'v1', resource: 'podtemplates' },
      operation: 'CREATE', namespace: 'default', name: 'p', userInfo: { username: 'u' }, object: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'p' } } } };
    const url = `/clusters/c1/${secret}/probe`;
    const post = { ...event, rawPath: url, body: JSON.stringify(review), requestContext: { ...(event.requestContext as object), http: { ...((event.requestContext as { http: object }).http), path: url } } };
    const out = (await handler(post as never, {} as never)) as { statusCode: number; body: string };
    expect(JSON.parse(out.body).response.allowed).toBe(false);

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const decision = parsed.find((l) => l.msg === 'admission');
    expect(decision).toMatchObject({ level: 'info', clusterId: 'c1', endpoint: 'probe', verdict: 'denied', code: 403, fallbacks: [] });
    const admissions = parsed.find((l) => 'ks_admissions_total' in l) as { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } } & Record<string, unknown>;
    expect(admissions._aws.CloudWatchMetrics).toEqual([{ Namespace: 'KruiseServerless', Dimensions: [['endpoint', 'verdict', 'code'], ['endpoint'], ['verdict'], ['code'], []], Metrics: [{ Name: 'ks_admissions_total', Unit: 'Count' }] }]);
    expect(admissions).toMatchObject({ endpoint: 'probe', verdict: 'denied', code: '403', ks_admissions_total: 1 });
    expect(parsed.find((l) => 'ks_admission_duration_seconds' in l)).toMatchObject({ endpoint: 'probe', verdict: 'denied' });
    expect(lines.join('\n')).not.toContain(secret);

    // Flushed: the next invocation writes only its own.
    lines.length = 0;
    await handler(healthz as never, {} as never);
    expect(lines.filter((l) => l.includes('ks_admissions_total'))).toEqual([]);
  });
});
