import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { registryFromJson } from '../../src/edge-state/file-registry.js';
import { resetTelemetry } from '../../src/telemetry/telemetry.js';
import { nodeSha256 } from '../node/ports.js';
import { configureWorkerTelemetry } from './analytics.js';
import type { AnalyticsEngineDataset, Env } from './platform.js';

const SECRET = 'worker-path-secret';
const app = () => buildApp({
  endpoints: [],
  registry: registryFromJson(JSON.stringify([{ clusterId: 'c1', webhookSecrets: [{ sha256: nodeSha256(SECRET) }], syncTokens: [] }])),
  state: () => ({ collection: async () => undefined }),
  hash: nodeSha256,
});
const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {
  uid: 'u1', kind: { group: '', version: 'v1', kind: 'PodTemplate' }, resource: { group: '', version: 'v1', resource: 'podtemplates' },
  operation: 'CREATE', namespace: 'default', name: 'p', userInfo: { username: 'u' }, object: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'p' } } } };
const admitOne = () => app().request(`/clusters/c1/${SECRET}/probe`, { method: 'POST', body: JSON.stringify(review), headers: { 'content-type': 'application/json' } });
const env = (more: Partial<Env>) => ({ CLUSTERS: {} as Env['CLUSTERS'], LEDGERS: {} as Env['LEDGERS'], ...more }) as Env;

afterEach(() => {
  resetTelemetry();
  vi.restoreAllMocks();
});

describe('the Worker\'s Analytics Engine data points', () => {
  it('writes one data point per admission to the ADMISSIONS dataset: cluster, endpoint, verdict, fallbacks; latency, code, fallback count', async () => {
    const points: Parameters<AnalyticsEngineDataset['writeDataPoint']>[0][] = [];
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    configureWorkerTelemetry(env({ ADMISSIONS: { writeDataPoint: (p) => void points.push(p) } }));
    const res = await admitOne();
    expect(res.status).toBe(200);
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({ indexes: ['c1'], blobs: ['c1', 'probe', 'denied', ''] });
    expect(points[0]!.doubles!.slice(1)).toEqual([403, 0]);
    expect(points[0]!.doubles![0]).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(points)).not.toContain(SECRET);
  });

  it('without the binding writes nothing and answers as usual', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    configureWorkerTelemetry(env({}));
    const res = await admitOne();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: { allowed: boolean } }).response.allowed).toBe(false);
  });

  it('a malformed KS_LOG_LEVEL is reported and ignored; decision lines are JSON on the console', async () => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((l: string) => void out.push(l));
    vi.spyOn(console, 'error').mockImplementation((l: string) => void out.push(l));
    configureWorkerTelemetry(env({ KS_LOG_LEVEL: 'loud' }));
    await admitOne();
    const lines = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'setting ignored', problem: 'KS_LOG_LEVEL "loud": expected one of debug, info, warn, error' });
    expect(lines[1]).toMatchObject({ level: 'info', msg: 'admission', endpoint: 'probe', verdict: 'denied', code: 403 });
  });

  it('a dataset that throws does not fail the admission', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    configureWorkerTelemetry(env({ ADMISSIONS: { writeDataPoint: () => { throw new Error('quota'); } } }));
    expect((await admitOne()).status).toBe(200);
  });
});
