import { describe, expect, it } from 'vitest';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { V1PodSpec } from '@kubernetes/client-node';
import type { BroadcastJobStatus } from '../../api/apps/broadcastjob.js';
import type { StoredBroadcastJob } from '../types.js';
import { decideBroadcastJobs, TERMINATING_REQUEUE_MS, WAITING_REQUEUE_MS } from './decide.js';
import { isOverRestartLimit, newJobPod, podsByState } from './pods.js';

const NOW = new Date('2026-01-01T00:00:10Z');
const START = '2026-01-01T00:00:00Z';
const alloc = { cpu: '4', memory: '8Gi', pods: '110' };
const node = (name: string, spec: Node['spec'] = {}, labels: Record<string, string> = {}, allocatable: Record<string, string> = alloc): Node =>
  ({ metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec, status: { allocatable } });

function job(spec: Partial<StoredBroadcastJob['spec']> = {}, status?: BroadcastJobStatus, podSpec: Partial<V1PodSpec> = {}): StoredBroadcastJob {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob',
    metadata: { name: 'bcj', namespace: 'ns', uid: 'uid-1', resourceVersion: '5' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }], ...podSpec } }, completionPolicy: { type: 'Always' }, failurePolicy: { type: 'FailFast' }, ...spec },
    ...(status ? { status } : {}),
  };
}
const running: BroadcastJobStatus = { startTime: START, phase: 'running' };

function pod(j: StoredBroadcastJob, nodeName: string, phase = 'Running', extra: { restarts?: number; deleting?: boolean } = {}): Pod {
  const p = newJobPod(j, nodeName, `bcj-${nodeName}`);
  return {
    ...p,
    metadata: { ...p.metadata, uid: `uid-${nodeName}`, ...(extra.deleting ? { deletionTimestamp: START } : {}) },
    spec: { ...p.spec, nodeName },
    status: { phase, containerStatuses: [{ name: 'main', restartCount: extra.restarts ?? 0 }] },
  };
}

const decide = (j: StoredBroadcastJob, nodes: Node[], pods: Pod[], now = NOW) => decideBroadcastJobs({ jobs: [j], nodes, podsByJob: new Map([['uid-1', pods]]) }, now);
type Plan = ReturnType<typeof decide>;
const pinnedNode = (p: Pod) => ((p.spec.affinity as { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { matchFields: { values: string[] }[] }[] } } }).nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]!.matchFields[0]!.values[0]);
const creates = (plan: Plan) => plan.writes.flatMap((w) => (w.op === 'create' ? [pinnedNode(w.object as unknown as Pod)] : []));
const deletes = (plan: Plan) => plan.writes.flatMap((w) => (w.op === 'delete' ? [`${w.target.kind}/${w.target.name}`] : []));
const status = (plan: Plan) => plan.status[0]?.status as StoredBroadcastJob['status'] | undefined;
const reasons = (plan: Plan) => [...plan.events, ...plan.writes.flatMap((w) => (w.event ? [w.event] : []))].map((e) => e.reason);
const nodes3 = [node('n1'), node('n2'), node('n3')];

describe('placement', () => {
  it.each([
    ['every plain node', job(), nodes3, ['n1', 'n2', 'n3']],
    ['nodeSelector', job({}, undefined, { nodeSelector: { pool: 'a' } }), [node('n1', {}, { pool: 'a' }), node('n2')], ['n1']],
    ['template nodeName', job({}, undefined, { nodeName: 'n2' }), nodes3, ['n2']],
    ['required node affinity', job({}, undefined, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] }] } } } }), [node('n1', {}, { zone: 'z1' }), node('n2', {}, { zone: 'z2' })], ['n1']],
    ['NoSchedule taint not tolerated', job(), [node('n1', { taints: [{ key: 'k', effect: 'NoSchedule' }] }), node('n2')], ['n2']],
    ['NoExecute taint tolerated', job({}, undefined, { tolerations: [{ key: 'k', operator: 'Exists' }] }), [node('n1', { taints: [{ key: 'k', effect: 'NoExecute' }] })], ['n1']],
    ['PreferNoSchedule is no bar', job(), [node('n1', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] })], ['n1']],
    ['cordoned', job(), [node('n1', { unschedulable: true }), node('n2')], ['n2']],
    ['cordoned, unschedulable tolerated', job({}, undefined, { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), [node('n1', { unschedulable: true })], ['n1']],
    ['requests beyond allocatable', job({}, undefined, { containers: [{ name: 'main', image: 'x', resources: { requests: { cpu: '6' } } }] }), [node('n1'), node('n2', {}, {}, { cpu: '8', memory: '8Gi', pods: '110' })], ['n2']],
  ])('%s', (_name, j, nodes, want) => {
    const plan = decide(j, nodes, []);
    expect(creates(plan)).toEqual(want);
    expect(status(plan)).toMatchObject({ desired: want.length, active: want.length, succeeded: 0, failed: 0, phase: 'running', startTime: '2026-01-01T00:00:10Z' });
    expect(plan.requeueAfterMs).toBe(WAITING_REQUEUE_MS);
  });

  it('pods are pinned, labelled and controlled by the job, with a name derived from the job and node', () => {
    const plan = decide(job(), [node('n1')], []);
    const created = plan.writes[0]!.op === 'create' ? (plan.writes[0]!.object as unknown as Pod) : undefined;
    expect(created?.metadata.labels).toEqual({ 'broadcastjob-name': 'bcj', 'broadcastjob-controller-uid': 'uid-1' });
    expect(created?.metadata['ownerReferences']).toEqual([{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'bcj', uid: 'uid-1', controller: true, blockOwnerDeletion: true }]);
    expect(created?.metadata.name).toMatch(/^bcj-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(decide(job(), [node('n1')], []).writes[0]).toEqual(plan.writes[0]);
    expect(reasons(plan)).toEqual(['SuccessfulCreate']);
  });

  it('a pod whose node no longer fits goes (a NoExecute taint, a cordon); a NoSchedule-tolerating pod stays', () => {
    const j = job({}, running);
    const plan = decide(j, [node('n1', { taints: [{ key: 'k', effect: 'NoExecute' }] }), node('n2', { unschedulable: true }), node('n3')], [pod(j, 'n1'), pod(j, 'n2'), pod(j, 'n3')]);
    expect(deletes(plan)).toEqual(['Pod/bcj-n1', 'Pod/bcj-n2']);
    expect(status(plan)).toMatchObject({ desired: 1, active: 1 });
    expect(reasons(plan)).toEqual(['SuccessfulDelete', 'SuccessfulDelete']);
  });
});

describe('parallelism', () => {
  const nodes = Array.from({ length: 5 }, (_, i) => node(`n${i + 1}`));
  it.each([
    ['2', 2, [], ['n1', 'n2']],
    ['2 with one active', 2, ['n1'], ['n2']],
    ['40% of 5 rounds up to 2', '40%', [], ['n1', 'n2']],
    ['unset: every node', undefined, [], ['n1', 'n2', 'n3', 'n4', 'n5']],
    ['0', 0, [], []],
  ])('%s', (_name, parallelism, activeOn: string[], want) => {
    const j = job(parallelism === undefined ? {} : { parallelism }, running);
    expect(creates(decide(j, nodes, activeOn.map((n) => pod(j, n))))).toEqual(want);
  });

  it('finished pods make room; more active than allowed is a Warning, no create', () => {
    const j = job({ parallelism: 2 }, running);
    expect(creates(decide(j, nodes, [pod(j, 'n1', 'Succeeded'), pod(j, 'n2')]))).toEqual(['n3']);
    const over = decide(job({ parallelism: 1 }, running), nodes, [pod(j, 'n1'), pod(j, 'n2')]);
    expect(creates(over)).toEqual([]);
    expect(reasons(over)).toEqual(['TooManyActivePods']);
  });
});

describe('completion', () => {
  it('Always: complete once every desired node’s pod has ended (Complete condition, phase, completion time, JobComplete)', () => {
    const j = job({}, running);
    const plan = decide(j, nodes3, [pod(j, 'n1', 'Succeeded'), pod(j, 'n2', 'Succeeded'), pod(j, 'n3', 'Succeeded')]);
    expect(status(plan)).toMatchObject({ phase: 'completed', active: 0, succeeded: 3, failed: 0, desired: 3, completionTime: '2026-01-01T00:00:10Z', conditions: [{ type: 'Complete', status: 'True', reason: 'Complete', message: 'Job completed, 3 pods succeeded, 0 pods failed' }] });
    expect(plan.events).toEqual([expect.objectContaining({ type: 'Normal', reason: 'JobComplete', message: 'Job ns/bcj is completed, 3 pods succeeded, 0 pods failed' })]);
    expect(plan.requeueAfterMs).toBeUndefined();
  });

  it('not complete while a node has no pod or a running one; no nodes: pending', () => {
    const j = job({}, running);
    expect(status(decide(j, nodes3, [pod(j, 'n1', 'Succeeded'), pod(j, 'n2', 'Succeeded')]))?.phase).toBe('running');
    expect(status(decide(j, nodes3, [pod(j, 'n1', 'Succeeded'), pod(j, 'n2', 'Succeeded'), pod(j, 'n3')]))?.phase).toBe('running');
    expect(status(decide(j, [], []))).toMatchObject({ phase: 'running', desired: 0 });
  });

  it('Never: stays running when every pod has ended, and a new node gets a pod', () => {
    const j = job({ completionPolicy: { type: 'Never' } }, running);
    const plan = decide(j, [...nodes3, node('n4')], [pod(j, 'n1', 'Succeeded'), pod(j, 'n2', 'Succeeded'), pod(j, 'n3', 'Succeeded')]);
    expect(creates(plan)).toEqual(['n4']);
    expect(status(plan)).toMatchObject({ phase: 'running', succeeded: 3, active: 1, desired: 4 });
    expect(status(decide(j, nodes3, [pod(j, 'n1', 'Succeeded'), pod(j, 'n2', 'Succeeded'), pod(j, 'n3', 'Succeeded')]))?.phase).toBe('running');
  });

  it('ttlSecondsAfterFinished: a wake-up at the TTL; then the pods go; then the job', () => {
    const done: BroadcastJobStatus = { ...running, phase: 'completed', completionTime: '2026-01-01T00:00:05Z', conditions: [{ type: 'Complete', status: 'True' }] };
    const j = job({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 } }, done);
    const pods = [pod(j, 'n1', 'Succeeded'), pod(j, 'n2', 'Succeeded')];
    const waiting = decide(j, nodes3, pods);
    expect(waiting.writes).toEqual([]);
    expect(waiting.requeueAfterMs).toBe(25_000);
    const expired = new Date('2026-01-01T00:00:35Z');
    const first = decide(j, nodes3, pods, expired);
    expect(deletes(first)).toEqual(['Pod/bcj-n1', 'Pod/bcj-n2']);
    expect(first.requeueAfterMs).toBe(TERMINATING_REQUEUE_MS);
    // Pods already being deleted finish on their own: the job goes.
    expect(deletes(decide(j, nodes3, [pod(j, 'n1', 'Succeeded', { deleting: true })], expired))).toEqual(['BroadcastJob/bcj']);
    const last = decide(j, nodes3, [], expired);
    expect(last.writes).toEqual([{ op: 'delete', target: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'bcj', namespace: 'ns' }, preconditions: { uid: 'uid-1' }, reason: expect.any(String) }]);
  });

  it('a finished job without a TTL is left alone', () => {
    const j = job({}, { ...running, phase: 'completed', completionTime: START, conditions: [{ type: 'Complete', status: 'True' }] });
    expect(decide(j, nodes3, [])).toEqual({ writes: [], status: [], events: [] });
  });
});

describe('the active deadline', () => {
  it('a new job asks to be woken at its deadline', () => {
    const plan = decide(job({ parallelism: 0, completionPolicy: { type: 'Always', activeDeadlineSeconds: 10 } }), nodes3, []);
    expect(status(plan)?.startTime).toBe('2026-01-01T00:00:10Z');
    expect(plan.requeueAfterMs).toBe(10_000);
  });

  it('before it: the remaining time; at it: Failed DeadlineExceeded, running pods deleted and counted failed', () => {
    const j = job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 10 } }, running);
    const pods = [pod(j, 'n1'), pod(j, 'n2', 'Succeeded'), pod(j, 'n3')];
    expect(decide(j, nodes3, pods, new Date('2026-01-01T00:00:04Z')).requeueAfterMs).toBe(6_000);
    const plan = decide(j, nodes3, pods);
    expect(deletes(plan)).toEqual(['Pod/bcj-n1', 'Pod/bcj-n3']);
    expect(status(plan)).toMatchObject({ phase: 'failed', active: 0, succeeded: 1, failed: 2, completionTime: '2026-01-01T00:00:10Z', conditions: [{ type: 'Failed', status: 'True', reason: 'Failed', message: 'Job ns/bcj was active longer than specified deadline' }] });
    expect(plan.events).toContainEqual(expect.objectContaining({ type: 'Warning', reason: 'DeadlineExceeded', message: 'Job ns/bcj was active longer than specified deadline: 1 pods succeeded, 2 pods failed' }));
    expect(plan.requeueAfterMs).toBeUndefined();
  });

  it('Never ignores it (the webhook refuses it anyway)', () => {
    const j = job({ completionPolicy: { type: 'Never', activeDeadlineSeconds: 1 } }, running);
    expect(status(decide(j, nodes3, [pod(j, 'n1')]))?.phase).toBe('running');
  });
});

describe('failure policy', () => {
  const failedOne = (j: StoredBroadcastJob) => [pod(j, 'n1', 'Failed'), pod(j, 'n2'), pod(j, 'n3', 'Succeeded')];
  it('FailFast (default): the job fails and its active pods go', () => {
    const j = job({ failurePolicy: {} }, running);
    const plan = decide(j, nodes3, failedOne(j));
    expect(deletes(plan)).toEqual(['Pod/bcj-n2']);
    expect(status(plan)).toMatchObject({ phase: 'failed', active: 0, failed: 2, succeeded: 1, conditions: [{ type: 'Failed', message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found' }] });
    expect(reasons(plan)).toEqual(['failed pod is found', 'SuccessfulDelete']);
  });

  it('Continue: the job goes on, and completes with the failed pod counted', () => {
    const j = job({ failurePolicy: { type: 'Continue' } }, running);
    expect(status(decide(j, nodes3, failedOne(j)))).toMatchObject({ phase: 'running', failed: 1, active: 1 });
    const all = [pod(j, 'n1', 'Failed'), pod(j, 'n2', 'Succeeded'), pod(j, 'n3', 'Succeeded')];
    expect(status(decide(j, nodes3, all))).toMatchObject({ phase: 'completed', conditions: [{ type: 'Complete', message: 'Job completed, 2 pods succeeded, 1 pods failed' }] });
  });

  it('Pause: phase paused, no more pods, one Paused event; a failed job stays failed', () => {
    const j = job({ failurePolicy: { type: 'Pause' } }, running);
    const plan = decide(j, [...nodes3, node('n4')], failedOne(j));
    expect(creates(plan)).toEqual([]);
    expect(status(plan)?.phase).toBe('paused');
    expect(reasons(plan)).toEqual(['Paused']);
    expect(decide(job({ failurePolicy: { type: 'Pause' } }, { ...running, phase: 'paused', failed: 1, active: 1, succeeded: 1, desired: 4 }), [...nodes3, node('n4')], failedOne(j))).toEqual({ writes: [], status: [], events: [] });
    const failedJob = job({}, { ...running, phase: 'failed' });
    expect(creates(decide(failedJob, [...nodes3, node('n4')], []))).toEqual([]);
  });

  it('restartLimit: an OnFailure pod restarted more often counts as failed, and FailFast keeps it', () => {
    const j = job({ failurePolicy: { type: 'Continue', restartLimit: 2 } }, running, { restartPolicy: 'OnFailure' });
    const p = (n: string, restarts: number) => pod(j, n, 'Running', { restarts });
    expect(isOverRestartLimit(p('n1', 2), 2)).toBe(false);
    expect(isOverRestartLimit(p('n1', 3), 2)).toBe(true);
    expect(podsByState([p('n1', 3), p('n2', 0)], 2)).toMatchObject({ failed: [expect.anything()], active: [expect.anything()] });
    const failFast = job({ failurePolicy: { type: 'FailFast', restartLimit: 2 } }, running, { restartPolicy: 'OnFailure' });
    const plan = decide(failFast, nodes3, [p('n1', 3), p('n2', 0), p('n3', 0)]);
    expect(status(plan)).toMatchObject({ phase: 'failed', failed: 3, active: 0 });
    // The pod past its limit is failed, not active: it is kept, with its logs (OpenKruise's deleteJobPods deletes active pods only).
    expect(deletes(plan)).toEqual(['Pod/bcj-n2', 'Pod/bcj-n3']);
  });
});

describe('paused', () => {
  it('spec.paused: phase paused, no creates; unpaused: Continue and creates', () => {
    const nodes = [node('n1')];
    const paused = decide(job({ paused: true }, running), nodes, []);
    expect(creates(paused)).toEqual([]);
    expect(status(paused)?.phase).toBe('paused');
    const resumed = decide(job({}, { ...running, phase: 'paused' }), nodes, []);
    expect(creates(resumed)).toEqual(['n1']);
    expect(status(resumed)?.phase).toBe('running');
    expect(reasons(resumed)).toContain('Continue');
  });
});

it('a status unchanged is not written', () => {
  const j = job({}, { ...running, active: 1, failed: 0, succeeded: 0, desired: 1 });
  expect(decide(j, [node('n1')], [pod(j, 'n1')])).toEqual({ writes: [], status: [], events: [] });
});
