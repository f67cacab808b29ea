import { describe, expect, it } from 'vitest';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { computeStatus } from './status.js';

const NOW = new Date('2026-01-01T00:10:00Z');
const job = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>) => ({
  metadata: { name: 'ej', namespace: 'ns' },
  spec: { selector: {}, template: { ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }, ...spec },
  ...(status ? { status } : {}),
});
const pod = (...statuses: V1ContainerStatus['state'][]): V1Pod => ({
  status: { ephemeralContainerStatuses: statuses.map((state) => ({ name: 'debug', image: 'busybox', imageID: '', ready: false, restartCount: 0, state })) },
});
const running = pod({ running: {} });
const done = pod({ terminated: { exitCode: 0, finishedAt: new Date() } });
const failed = pod({ terminated: { exitCode: 1 } });
const notYet = pod();

describe('EphemeralJob status (OpenKruise calculateStatus)', () => {
  it('no pod matched: Waiting with MatchedEmpty after Initialized', () => {
    const s = computeStatus(job(), [], NOW);
    expect(s.phase).toBe('Waiting');
    expect(s.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([['Initialized', 'Initialized', undefined], ['MatchedEmpty', 'MatchEmpty', 'job match no pods']]);
  });
  it('counts pods by their ephemeral containers and succeeds when replicas succeeded', () => {
    expect(computeStatus(job({ replicas: 2 }), [done, running, notYet], NOW)).toMatchObject({ match: 3, succeeded: 1, running: 1, waiting: 0, failed: 0, phase: 'Running' });
    const s = computeStatus(job({ replicas: 2 }), [done, done, notYet], NOW);
    expect(s).toMatchObject({ phase: 'Succeeded', completionTime: '2026-01-01T00:10:00Z' });
    expect(s.conditions?.at(-1)).toMatchObject({ type: 'JobSucceeded', message: 'job success to run all tasks' });
  });
  it('a failed container fails its pod, and a failure is reported as CreateFailed', () => {
    const s = computeStatus(job({ replicas: 1 }), [failed], NOW);
    expect(s).toMatchObject({ failed: 1, phase: 'Failed' });
    expect(s.conditions?.find((c) => c.type === 'JobFailed')).toMatchObject({ reason: 'CreateFailed', message: 'EphemeralJob ns/ej failed to create ephemeral container' });
  });
  it('active too long: Failed with DeadlineExceeded; paused wins over running', () => {
    const late = computeStatus(job({ activeDeadlineSeconds: 60 }, { startTime: '2026-01-01T00:00:00Z' }), [running], NOW);
    expect(late.phase).toBe('Failed');
    expect(late.conditions?.at(-1)).toMatchObject({ reason: 'DeadlineExceeded', message: 'EphemeralJob ns/ej was active longer than specified deadline' });
    expect(computeStatus(job({ activeDeadlineSeconds: 6000 }, { startTime: '2026-01-01T00:00:00Z' }), [running], NOW).phase).toBe('Running');
    expect(computeStatus(job({ paused: true }), [running], NOW).phase).toBe('Paused');
  });
  it('no ephemeral containers in the template: Error', () => {
    const s = computeStatus({ ...job(), spec: { selector: {}, template: { ephemeralContainers: [] } } }, [running], NOW);
    expect(s.phase).toBe('Error');
    expect(s.conditions?.at(-1)).toMatchObject({ type: 'JobError', message: 'job spec invalid fields.' });
  });
});
