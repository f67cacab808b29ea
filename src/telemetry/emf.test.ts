import { describe, expect, it } from 'vitest';
import { EmfMetrics } from './emf.js';

describe('EMF lines', () => {
  it('one line per metric and label set, counters summed, observations as a value array, with the _aws block CloudWatch reads', () => {
    const emf = new EmfMetrics('KruiseServerless', () => 1_700_000_000_000);
    emf.count('admissions', { endpoint: 'mutate-pod', verdict: 'allowed', code: '200' });
    emf.count('admissions', { endpoint: 'mutate-pod', verdict: 'allowed', code: '200' });
    emf.observe('apiQueueWait', {}, 0.001);
    emf.observe('apiQueueWait', {}, 0.002);
    emf.set('stateAge', { collection: 'pods' }, 3);
    emf.set('stateAge', { collection: 'pods' }, 4);
    expect(emf.flush().map((l) => JSON.parse(l) as unknown)).toEqual([
      { _aws: { Timestamp: 1_700_000_000_000, CloudWatchMetrics: [{ Namespace: 'KruiseServerless', Dimensions: [['endpoint', 'verdict', 'code'], ['endpoint'], ['verdict'], ['code'], []], Metrics: [{ Name: 'ks_admissions_total', Unit: 'Count' }] }] },
        endpoint: 'mutate-pod', verdict: 'allowed', code: '200', ks_admissions_total: 2 },
      { _aws: { Timestamp: 1_700_000_000_000, CloudWatchMetrics: [{ Namespace: 'KruiseServerless', Dimensions: [[]], Metrics: [{ Name: 'ks_api_queue_wait_seconds', Unit: 'Seconds' }] }] },
        ks_api_queue_wait_seconds: [0.001, 0.002] },
      { _aws: { Timestamp: 1_700_000_000_000, CloudWatchMetrics: [{ Namespace: 'KruiseServerless', Dimensions: [['collection'], []], Metrics: [{ Name: 'ks_state_age_seconds', Unit: 'Seconds' }] }] },
        collection: 'pods', ks_state_age_seconds: 4 },
    ]);
    expect(emf.flush()).toEqual([]);
  });

  it('at most 100 values per line', () => {
    const emf = new EmfMetrics();
    for (let i = 0; i < 250; i++) emf.observe('apiSeconds', { verb: 'GET' }, i);
    const lines = emf.flush().map((l) => JSON.parse(l) as { ks_api_request_duration_seconds: number[] });
    expect(lines.map((l) => l.ks_api_request_duration_seconds.length)).toEqual([100, 100, 50]);
  });
});
