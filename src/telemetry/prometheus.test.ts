import { describe, expect, it } from 'vitest';
import { Health } from './health.js';
import { PrometheusMetrics } from './prometheus.js';
import { METRICS } from './catalog.js';
import { observabilityResponse, parseMetricsPort } from './node.js';

describe('the Prometheus metrics', () => {
  it('lists every catalog metric before anything is recorded', async () => {
    const text = (await new PrometheusMetrics(() => new Health().snapshot(), Date.now, { processMetrics: false }).expose()).body;
    for (const m of Object.values(METRICS)) expect(text).toContain(`# TYPE ${m.name} ${m.type}`);
  });

  it('exposes what is recorded: counters, histograms in seconds, gauges, and push and tick ages computed at scrape time', async () => {
    const health = new Health();
    let now = 10_000;
    const prom = new PrometheusMetrics(() => health.snapshot(), () => now, { processMetrics: false });
    prom.count('admissions', { endpoint: 'mutate-pod', verdict: 'allowed', code: '200' });
    prom.count('admissions', { endpoint: 'mutate-pod', verdict: 'allowed', code: '200' });
    prom.observe('admissionSeconds', { endpoint: 'mutate-pod', verdict: 'allowed' }, 0.004);
    prom.set('stateAge', { collection: 'pods' }, 2.5);
    health.pushed('pods', 4_000);
    health.tick(9_000);
    now = 12_000;
    const text = (await prom.expose()).body;
    expect(text).toContain('ks_admissions_total{endpoint="mutate-pod",verdict="allowed",code="200"} 2');
    expect(text).toContain('ks_admission_duration_seconds_bucket{le="0.005",endpoint="mutate-pod",verdict="allowed"} 1');
    expect(text).toContain('ks_admission_duration_seconds_bucket{le="0.0025",endpoint="mutate-pod",verdict="allowed"} 0');
    expect(text).toContain('ks_state_age_seconds{collection="pods"} 2.5');
    expect(text).toContain('ks_push_age_seconds{collection="pods"} 8');
    expect(text).toContain('ks_loop_tick_age_seconds 3');
  });
});

describe('the observability routes', () => {
  const prom = new PrometheusMetrics(() => new Health().snapshot(), Date.now, { processMetrics: false });
  const get = (path: string, method = 'GET') => observabilityResponse(new Request(`http://x${path}`, { method }), prom);

  it('/metrics in the text format, /healthz, and nothing else', async () => {
    const metrics = await get('/metrics');
    expect(metrics?.headers.get('content-type')).toContain('text/plain');
    expect(await metrics?.text()).toContain('ks_admissions_total');
    expect(await (await get('/healthz'))?.json()).toEqual({ ok: true });
    expect(await get('/clusters/c1/secret/mutate-pod', 'POST')).toBeUndefined();
    expect(await get('/other')).toBeUndefined();
  });

  it('KS_METRICS_PORT: a port, 0, "off", or a clear error', () => {
    expect(parseMetricsPort(undefined, 9090)).toBe(9090);
    expect(parseMetricsPort('9464', 9090)).toBe(9464);
    expect(parseMetricsPort('0', 9090)).toBe(0);
    expect(parseMetricsPort('off', 9090)).toBe('off');
    expect(() => parseMetricsPort('http', 9090)).toThrow('KS_METRICS_PORT "http": expected a port number (0: any free port) or "off"');
    expect(() => parseMetricsPort('70000', 9090)).toThrow('KS_METRICS_PORT "70000"');
  });
});
