import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../kube/errors.js';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import { applyPlan, isStaleTarget } from './act.js';
import type { Write } from './types.js';

describe('isStaleTarget', () => {
  it.each([
    ['a conflict (stale resourceVersion)', new KubeApiError(409, 'Conflict', 'PATCH …: 409 the object has been modified'), true],
    ['the object deleted since it was observed (its namespace being deleted)', new KubeApiError(404, 'NotFound', 'PATCH …/podunavailablebudgets/ev/status: 404 not found'), true],
    ['a refusal', new KubeApiError(403, 'Forbidden', 'PATCH …: 403 forbidden'), false],
    ['broken I/O', new Error('socket hang up'), false],
  ])('%s', (_name, e, want) => {
    expect(isStaleTarget(e)).toBe(want);
  });
});

describe('applyPlan: a write’s failureEvent', () => {
  const regarding = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'job', namespace: 'ns' };
  const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' } });
  const quota = 'pods "job-b" is forbidden: exceeded quota: q, requested: cpu=1, used: cpu=1, limited: cpu=1';
  const fake = () => {
    const events: { reason?: string; type?: string; message?: string }[] = [];
    const kube = {
      create: async (o: KubeObject) => {
        if (o.kind === 'Event') {
          events.push(o as never);
          return o;
        }
        if (o.metadata?.name === 'job-b') throw new KubeApiError(403, 'Forbidden', `POST /api/v1/namespaces/ns/pods: 403 ${quota}`, { kind: 'Status', message: quota });
        if (o.metadata?.name === 'job-c') throw new KubeApiError(409, 'AlreadyExists', 'POST …: 409 already exists');
        return o;
      },
    } as unknown as KubeHttp;
    return { kube, events };
  };
  const write = (name: string): Write => ({
    op: 'create', object: pod(name), reason: 'r',
    event: { regarding, type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${name}` },
    failureEvent: { regarding, type: 'Warning', reason: 'FailedCreate', message: 'Error creating: ' },
  });

  it('is told with the API server’s message when the write is refused, never for an applied write or a conflict', async () => {
    const { kube, events } = fake();
    await applyPlan(kube, { writes: [write('job-a'), write('job-b'), write('job-c')], status: [], events: [] }, { now: () => new Date('2026-01-01T00:00:00Z'), component: 'test' });
    expect(events.map((e) => `${e.type} ${e.reason}: ${e.message}`)).toEqual(['Normal SuccessfulCreate: Created pod: job-a', `Warning FailedCreate: Error creating: ${quota}`]);
  });
});

describe('applyPlan: a write to an object gone since it was observed', () => {
  it('a patch or update answered 404 counts as a stale target (the next run decides afresh), not a failure', async () => {
    const gone = async () => {
      throw new KubeApiError(404, 'NotFound', 'PATCH /api/v1/namespaces/ns/pods/web-0: 404 pods "web-0" not found');
    };
    const kube = { patch: gone, request: gone, pathFor: async () => '/api/v1/namespaces/ns/pods/web-0' } as unknown as KubeHttp;
    const target = { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'web-0' };
    const writes: Write[] = [
      { op: 'patch', target, patch: { metadata: { labels: { a: 'b' } } }, patchType: 'merge', reason: 'label' },
      { op: 'update', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'ns' } }, reason: 'replace' },
    ];
    const result = await applyPlan(kube, { writes, status: [], events: [] }, { now: () => new Date(0), component: 'test' });
    expect(result).toMatchObject({ applied: 0, conflicts: 2, failed: [] });
  });
});

describe('applyPlan: a patch of a subresource', () => {
  it('goes to that subresource of the target', async () => {
    const calls: unknown[][] = [];
    const kube = { patch: async (...args: unknown[]) => (calls.push(args), {}) } as unknown as KubeHttp;
    const target = { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'web-0' };
    const writes: Write[] = [
      { op: 'patch', target, patch: { spec: {} }, patchType: 'strategic', subresource: 'ephemeralcontainers', reason: 'inject' },
      { op: 'patch', target, patch: { metadata: {} }, patchType: 'merge', reason: 'label' },
    ];
    const result = await applyPlan(kube, { writes, status: [], events: [] }, { now: () => new Date(0), component: 'test' });
    expect(result).toMatchObject({ applied: 2, failed: [] });
    expect(calls.map((c) => [c[2], c[3]])).toEqual([['strategic', 'ephemeralcontainers'], ['merge', undefined]]);
  });
});
