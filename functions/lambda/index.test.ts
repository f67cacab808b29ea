import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeLambdaHandler } from './index.js';

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
});
