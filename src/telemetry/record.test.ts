import { afterEach, describe, expect, it } from 'vitest';
import { jsonLogger } from './log.js';
import { RecordingMetrics } from './metrics.js';
import { configureTelemetry, parseDecisionSample, resetTelemetry, telemetry } from './telemetry.js';
import { recordAdmission, recordApiCall, recordLoopTick, recordPush, recordReconcileRun, recordStateRead } from './record.js';
import type { AdmissionRecord } from './admission-record.js';

const allowed: AdmissionRecord = { clusterId: 'c1', endpoint: 'mutate-pod', verdict: 'allowed', code: 200, latencyMs: 1.234, fallbacks: [], operation: 'CREATE', kind: 'Pod', namespace: 'ns', name: 'web-0' };

function setup(opts: { sample?: number; rolls?: number[] } = {}) {
  const metrics = new RecordingMetrics();
  const lines: Record<string, unknown>[] = [];
  const rolls = [...(opts.rolls ?? [])];
  configureTelemetry({
    metrics,
    log: jsonLogger({ write: (_l, line) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
    ...(opts.sample === undefined ? {} : { decisionSample: opts.sample }),
    random: () => rolls.shift() ?? 0.5,
  });
  return { metrics, lines };
}

afterEach(() => resetTelemetry());

describe('the decision line', () => {
  it('one per admission by default: endpoint, verdict, code, latency, fallbacks, cluster and the object\'s identity, never its content', () => {
    const { lines } = setup();
    recordAdmission(allowed);
    expect(lines).toEqual([{ level: 'info', time: expect.any(String), msg: 'admission', clusterId: 'c1', endpoint: 'mutate-pod', verdict: 'allowed', code: 200, latencyMs: 1.23, fallbacks: [], operation: 'CREATE', kind: 'Pod', namespace: 'ns', name: 'web-0' }]);
  });

  it('sampled when quiet: plain allows at the sample rate; every denial, fallback and malformed review always', () => {
    const { lines } = setup({ sample: 0.25, rolls: [0.2, 0.3, 0.9, 0.99, 0.99, 0.99] });
    recordAdmission(allowed); // 0.2 < 0.25: logged
    recordAdmission(allowed); // 0.3: not
    recordAdmission(allowed); // 0.9: not
    recordAdmission({ ...allowed, verdict: 'denied', code: 403, message: 'no' });
    recordAdmission({ ...allowed, fallbacks: [{ feature: 'pub', reason: 'stale' }] });
    recordAdmission({ ...allowed, verdict: 'invalid', code: 400 });
    expect(lines.map((l) => [l.level, l.verdict, l.code, l.fallbacks])).toEqual([
      ['info', 'allowed', 200, []],
      ['info', 'denied', 403, []],
      ['warn', 'allowed', 200, ['pub:stale']],
      ['info', 'invalid', 400, []],
    ]);
  });

  it('a 5xx denial is a warning', () => {
    const { lines } = setup();
    recordAdmission({ ...allowed, verdict: 'denied', code: 503, message: 'state missing' });
    expect(lines[0]).toMatchObject({ level: 'warn', code: 503, message: 'state missing' });
  });

  it('sample 0 logs only what went wrong', () => {
    const { lines } = setup({ sample: 0, rolls: [0] });
    recordAdmission(allowed);
    expect(lines).toEqual([]);
  });

  it('KS_DECISION_LOG_SAMPLE: 0 to 1, unset is 1, else a clear error', () => {
    expect(parseDecisionSample(undefined)).toBe(1);
    expect(parseDecisionSample('0.1')).toBe(0.1);
    expect(parseDecisionSample('0')).toBe(0);
    expect(() => parseDecisionSample('10%')).toThrow('KS_DECISION_LOG_SAMPLE "10%": expected a number from 0');
    expect(() => parseDecisionSample('2')).toThrow('KS_DECISION_LOG_SAMPLE "2"');
  });
});

describe('the metrics recorded', () => {
  it('an admission: its count by endpoint, verdict and code, its latency in seconds, each fallback by feature and reason', () => {
    const { metrics } = setup();
    recordAdmission({ ...allowed, verdict: 'denied', code: 503, latencyMs: 20, fallbacks: [{ feature: 'pub', reason: 'stale' }, { feature: 'workloadspread', reason: 'missing' }] });
    expect(metrics.records.map((r) => [r.key, r.labels, r.value])).toEqual([
      ['admissions', { endpoint: 'mutate-pod', verdict: 'denied', code: '503' }, 1],
      ['admissionSeconds', { endpoint: 'mutate-pod', verdict: 'denied' }, 0.02],
      ['fallbacks', { endpoint: 'mutate-pod', feature: 'pub', reason: 'stale' }, 1],
      ['fallbacks', { endpoint: 'mutate-pod', feature: 'workloadspread', reason: 'missing' }, 1],
    ]);
  });

  it('reconcile runs by result, failed writes as errors, and a run that threw', () => {
    const { metrics } = setup();
    recordReconcileRun('CloneSet', { acted: true, dryRun: false, failedWrites: 0 }, 100);
    recordReconcileRun('CloneSet', { acted: true, dryRun: false, failedWrites: 2 }, 100);
    recordReconcileRun('CloneSet', { acted: false, dryRun: false, failedWrites: 0 }, 5);
    recordReconcileRun('SidecarSet', { threw: new Error('list failed') }, 7);
    expect(metrics.of('reconcileRuns').map((r) => `${r.labels.kind}:${r.labels.result}`)).toEqual(['CloneSet:ok', 'CloneSet:failed', 'CloneSet:skipped', 'SidecarSet:failed']);
    expect([metrics.total('reconcileErrors', { kind: 'CloneSet' }), metrics.total('reconcileErrors', { kind: 'SidecarSet' })]).toEqual([2, 1]);
    expect(metrics.of('reconcileSeconds').map((r) => r.value)).toEqual([0.1, 0.1, 0.005, 0.007]);
  });

  it('API calls by verb and code, their latency and queue wait; pushes and state reads feed the health record', () => {
    const { metrics } = setup();
    recordApiCall('GET', 200, 3, 12);
    recordApiCall('PATCH', 0, 0, 30_000);
    expect(metrics.of('apiRequests').map((r) => r.labels)).toEqual([{ verb: 'GET', code: '200' }, { verb: 'PATCH', code: '0' }]);
    expect(metrics.of('apiQueueWait').map((r) => r.value)).toEqual([0.003, 0]);
    recordPush('sidecarsets', true, 1000);
    recordPush('pods', false, 1000);
    recordStateRead('sidecarsets', 2500);
    recordLoopTick(4000);
    expect(metrics.of('pushes').map((r) => r.labels)).toEqual([{ collection: 'sidecarsets', result: 'ok' }, { collection: 'pods', result: 'failed' }]);
    expect(metrics.of('stateAge')).toMatchObject([{ labels: { collection: 'sidecarsets' }, value: 2.5 }]);
    expect(telemetry().health.snapshot()).toEqual({ lastTickAt: 4000, pushedAt: { sidecarsets: 1000 }, stateAgeMs: { sidecarsets: 2500 } });
  });

  it('a failing sink never fails the admission', () => {
    setup();
    configureTelemetry({ admissionSinks: [() => { throw new Error('quota'); }] });
    expect(() => recordAdmission(allowed)).not.toThrow();
  });
});
