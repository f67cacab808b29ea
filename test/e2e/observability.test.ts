// The system as `npm start` wires it (startSystem): its process serves /metrics, /readyz and
// /healthz (KS_METRICS_PORT, any free port here). Deletions go to `validate-delete`, which this
// process answers (the Node webhook server, live reads); the reconcile loop runs and pushes to the
// edge. The counters for all of it move, and the process reports ready once every collection is pushed.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startSystem, type System } from '../../scripts/system.js';
import { KubeApiError } from '../../src/kube/errors.js';
import { eventually } from './support/kube.js';
import './provided.js';

let system: System;

beforeAll(async () => {
  system = await startSystem({ kubeconfig: inject('kubeconfig'), resyncSeconds: 5, guardian: false, log: () => undefined });
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

/** Prometheus text → the samples of one metric whose labels include `labels`, summed. */
function sum(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const held = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => held[k] === v)) total += Number(m[3]);
  }
  return total;
}

const scrape = async () => {
  const res = await fetch(`${system.metricsUrl}/metrics`);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};

it('counts the admissions it answers, the reconcile runs, API calls and pushes; /readyz reports push and loop ages', async () => {
  expect(system.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const before = await scrape();

  const ns = (name: string, protection?: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(protection ? { labels: { 'policy.kruise.io/delete-protection': protection } } : {}) } });
  const suffix = Date.now().toString(36);
  const kept = await system.kube.create(ns(`obs-kept-${suffix}`, 'Always'));
  const refused = await system.kube.delete(kept).then(() => undefined, (e: unknown) => (e instanceof KubeApiError ? e.status : e));
  expect(refused).toBe(403);
  // Cascading, with nothing in it: allowed (the webhook sees only labelled objects).
  await system.kube.delete(await system.kube.create(ns(`obs-free-${suffix}`, 'Cascading')));

  const after = await scrape();
  const denied = { endpoint: 'validate-delete', verdict: 'denied', code: '403' };
  const allowed = { endpoint: 'validate-delete', verdict: 'allowed' };
  expect(sum(after, 'ks_admissions_total', denied) - sum(before, 'ks_admissions_total', denied)).toBeGreaterThanOrEqual(1);
  expect(sum(after, 'ks_admissions_total', allowed) - sum(before, 'ks_admissions_total', allowed)).toBeGreaterThanOrEqual(1);
  expect(sum(after, 'ks_admission_duration_seconds_count', { endpoint: 'validate-delete' })).toBeGreaterThan(sum(before, 'ks_admission_duration_seconds_count', { endpoint: 'validate-delete' }));
  // This process's own API calls: the creates and deletes above (POST, DELETE) and the loop's LISTs.
  expect(sum(after, 'ks_api_requests_total', { verb: 'POST' }) - sum(before, 'ks_api_requests_total', { verb: 'POST' })).toBeGreaterThanOrEqual(2);
  expect(sum(after, 'ks_api_requests_total', { verb: 'GET' })).toBeGreaterThan(0);
  expect(sum(after, 'ks_api_queue_wait_seconds_count')).toBeGreaterThan(0);

  // The loop: its first resync's runs, and the pushes (the start's and the loop's own).
  const ready = await eventually('ready', async () => {
    const res = await fetch(`${system.metricsUrl}/readyz`);
    const body = (await res.json()) as { ready: boolean; loop?: { lastTickAgeSeconds: number | null }; pushes?: Record<string, { ageSeconds: number | null }> };
    return res.status === 200 ? body : undefined;
  }, 60_000, 200);
  expect(ready.ready).toBe(true);
  expect(typeof ready.loop?.lastTickAgeSeconds).toBe('number');
  expect(Object.keys(ready.pushes ?? {})).toContain('sidecarsets');
  expect(Object.values(ready.pushes ?? {}).every((p) => typeof p.ageSeconds === 'number')).toBe(true);

  const later = await eventually('a reconcile run counted', async () => {
    const text = await scrape();
    return sum(text, 'ks_reconcile_runs_total') > 0 ? text : undefined;
  }, 60_000, 200);
  expect(sum(later, 'ks_reconcile_duration_seconds_count')).toBeGreaterThan(0);
  expect(sum(later, 'ks_pushes_total', { result: 'ok' })).toBeGreaterThan(0);
  expect(later).toMatch(/^ks_push_age_seconds\{collection="sidecarsets"\} \d/m);
  expect(later).toMatch(/^ks_loop_tick_age_seconds \d/m);
  expect(await (await fetch(`${system.metricsUrl}/healthz`)).json()).toEqual({ ok: true });
}, 180_000);
