// The Node webhook server serves /metrics, /readyz and /healthz on its own HTTPS port, beside the
// webhooks, and counts the admissions it answers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki, issueServingCert } from '../../test/cluster/pki.js';
import { fetchTrustingCa } from '../../src/edge-state/ca-fetch.js';
import { nodeSha256 } from './ports.js';
import { startNodeServer } from './server.js';
import { answersAfterIdle } from '../../test/cluster/keep-alive-probe.js';

const dir = mkdtempSync(join(tmpdir(), 'ks-node-server-'));
const SECRET = 'node-path-secret';
let server: Awaited<ReturnType<typeof startNodeServer>>;
let get: ReturnType<typeof fetchTrustingCa>;

beforeAll(async () => {
  const pki = ensurePki(dir);
  const cert = issueServingCert(dir, 'server', ['localhost'], ['127.0.0.1']);
  const kubeconfig = join(dir, 'kubeconfig');
  // Never contacted: the probe endpoint reads no state.
  writeFileSync(kubeconfig, [
    'apiVersion: v1', 'kind: Config', 'current-context: c',
    'clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1", insecure-skip-tls-verify: true } }]',
    'users: [{ name: u, user: { token: abc } }]', 'contexts: [{ name: c, context: { cluster: c, user: u } }]',
  ].join('\n'));
  server = await startNodeServer({
    clusterId: 'c1', registryJson: JSON.stringify([{ clusterId: 'c1', webhookSecrets: [{ sha256: nodeSha256(SECRET) }], syncTokens: [] }]),
    tlsCert: readFileSync(cert.cert, 'utf8'), tlsKey: readFileSync(cert.key, 'utf8'), port: 0, kubeconfigPath: kubeconfig, features: [],
  });
  get = fetchTrustingCa(readFileSync(pki.caCert, 'utf8'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Node webhook server', () => {
  it('serves Prometheus metrics on its HTTPS port, counting the admissions it answered', async () => {
    const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {
      uid: 'u1', kind: { group: '', version: 'v1', kind: 'PodTemplate' }, resource: { group: '', version: 'v1', resource: 'podtemplates' },
      operation: 'CREATE', namespace: 'default', name: 'p', userInfo: { username: 'u' }, object: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'p' } } } };
    const answer = await get(`${server.url}/clusters/c1/${SECRET}/probe`, { method: 'POST', body: JSON.stringify(review), headers: { 'content-type': 'application/json' } });
    expect(((await answer.json()) as { response: { allowed: boolean } }).response.allowed).toBe(false);
    const metrics = await get(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^ks_admissions_total\{endpoint="probe",verdict="denied",code="403"\} [1-9]/m);
  });

  it('answers on a connection left idle for 6 s (Node closes it at 5 s by default; the API server keeps it 90 s)', async () => {
    expect(await answersAfterIdle(server.url, 6_000)).toBe(true);
  }, 30_000);

  it('/readyz is 200 with the state ages (it reads live); /healthz is 200', async () => {
    const ready = await get(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, reasons: [] });
    expect(await (await get(`${server.url}/healthz`)).json()).toEqual({ ok: true });
  });
});
