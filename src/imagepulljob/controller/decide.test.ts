import { describe, expect, it } from 'vitest';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { defaultedImagePullJob } from '../defaults.js';
import type { StoredImagePullJob } from '../types.js';
import { decideImagePullJobs } from './decide.js';
import type { ImagePullJobObserved } from './observe.js';

const NOW = new Date('2026-01-01T00:01:00Z');
const node = (name: string, labels: Record<string, string> = {}): Node => ({ metadata: { name, labels } });
const nodes = ['n0', 'n1', 'n2', 'n3'].map((n) => node(n, { pool: 'a' }));

function job(spec: Partial<StoredImagePullJob['spec']> = {}, status?: StoredImagePullJob['status']): StoredImagePullJob {
  return defaultedImagePullJob({ metadata: { name: 'j', namespace: 'ns', uid: 'u1', resourceVersion: '5' }, spec: { image: 'app:2', ...spec }, ...(status ? { status } : {}) }) as StoredImagePullJob;
}

type PodState = 'pulling' | 'pulled' | 'backoff' | 'ended';
function pod(nodeName: string, attempt: number, state: PodState, created = '2026-01-01T00:00:50Z'): Pod {
  const statuses = state === 'pulled' ? [{ name: 'pull', imageID: 'sha256:x' }] : state === 'backoff' ? [{ name: 'pull', imageID: '', state: { waiting: { reason: 'ImagePullBackOff' } } }] : [];
  return {
    metadata: { name: `p-${nodeName}-${attempt}`, namespace: 'ns', uid: `uid-${nodeName}-${attempt}`, creationTimestamp: created, labels: { 'imagepulljob.kruise-serverless.io/attempt': String(attempt) } },
    spec: { nodeName, containers: [{ name: 'pull', image: 'app:2' }] },
    status: { phase: state === 'pulled' ? 'Succeeded' : state === 'ended' ? 'Failed' : 'Pending', containerStatuses: statuses },
  };
}

const observed = (j: StoredImagePullJob, pods: Pod[] = [], selected: Pod[] = []): ImagePullJobObserved => ({ jobs: [j], nodes, podsByJob: new Map([['u1', pods]]), selectedPods: new Map([['u1', selected]]) });
const creates = (p: ReturnType<typeof decideImagePullJobs>) => p.writes.filter((w) => w.op === 'create').map((w) => (w.op === 'create' ? `${(w.object.spec as { nodeName: string }).nodeName}/${(w.object.metadata?.labels as Record<string, string>)['imagepulljob.kruise-serverless.io/attempt']}` : ''));
const deletes = (p: ReturnType<typeof decideImagePullJobs>) => p.writes.filter((w) => w.op === 'delete').map((w) => (w.op === 'delete' ? w.target.name : ''));

describe('decideImagePullJobs', () => {
  it('creates pull pods on the first nodes within parallelism (default 1), and records the start', () => {
    const one = decideImagePullJobs(observed(job()), NOW);
    expect(creates(one)).toEqual(['n0/0']);
    expect(one.status[0]?.status).toMatchObject({ startTime: NOW.toISOString().replace('.000', ''), desired: 4, active: 1, succeeded: 0, failed: 0, message: 'job is running, progress 0.0%' });
    expect(creates(decideImagePullJobs(observed(job({ parallelism: 3 })), NOW))).toEqual(['n0/0', 'n1/0', 'n2/0']);
    expect(creates(decideImagePullJobs(observed(job({ parallelism: 0 })), NOW))).toEqual([]);
  });

  it('the pull pod: pinned by nodeName, the job\'s secrets and pull policy, the timeout as its deadline', () => {
    const plan = decideImagePullJobs(observed(job({ pullSecrets: ['s'], imagePullPolicy: 'Always', pullPolicy: { timeoutSeconds: 30 } })), NOW);
    const w = plan.writes[0]!;
    expect(w.op === 'create' && w.object).toMatchObject({
      metadata: { namespace: 'ns', labels: { 'imagepulljob.kruise-serverless.io/name': 'j', 'imagepulljob.kruise-serverless.io/controller-uid': 'u1' }, ownerReferences: [{ kind: 'ImagePullJob', uid: 'u1', controller: true }] },
      spec: { nodeName: 'n0', restartPolicy: 'Never', activeDeadlineSeconds: 30, imagePullSecrets: [{ name: 's' }], tolerations: [{ operator: 'Exists' }], containers: [{ image: 'app:2', imagePullPolicy: 'Always', command: ['/ks-pull/true'] }] },
    });
  });

  it('the same observation plans the same pod names (a doubled run collides instead of pulling twice); IfNotPresent by default', () => {
    const names = (plan: ReturnType<typeof decideImagePullJobs>) => plan.writes.map((w) => (w.op === 'create' ? w.object.metadata?.name : ''));
    const a = decideImagePullJobs(observed(job({ parallelism: 4 })), NOW);
    expect(names(a)).toEqual(names(decideImagePullJobs(observed(job({ parallelism: 4 })), NOW)));
    expect(new Set(names(a)).size).toBe(4);
    const w = a.writes[0]!;
    expect(w.op === 'create' && (w.object.spec as { containers: { imagePullPolicy: string }[] }).containers[0]!.imagePullPolicy).toBe('IfNotPresent');
  });

  it('a pulled node frees its slot; all pulled: complete, with a TTL wake-up', () => {
    const pods = nodes.map((n) => pod(n.metadata.name, 0, 'pulled'));
    const plan = decideImagePullJobs(observed(job({ parallelism: 2, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 } }), pods), NOW);
    expect(plan.writes).toEqual([]);
    expect(plan.status[0]?.status).toMatchObject({ desired: 4, active: 0, succeeded: 4, failed: 0, completionTime: '2026-01-01T00:01:00Z', message: 'job has completed' });
    expect(plan.requeueAfterMs).toBe(30_000);
    const next = decideImagePullJobs(observed(job({ parallelism: 2 }), pods.slice(0, 1)), NOW);
    expect(creates(next)).toEqual(['n1/0', 'n2/0']);
  });

  it('a failed attempt is retried (the next attempt, the old one stopped) until backoffLimit, then the node fails', () => {
    const retry = decideImagePullJobs(observed(job({ pullPolicy: { backoffLimit: 1 } }), [pod('n0', 0, 'backoff')]), NOW);
    expect(creates(retry)).toEqual(['n0/1']);
    expect(deletes(retry)).toEqual(['p-n0-0']);
    expect(retry.writes[0]?.event?.message).toBe('Node n0: attempt 0 failed (pull: ImagePullBackOff); retrying, attempt 1 of 2');
    const spent = decideImagePullJobs(observed(job({ pullPolicy: { backoffLimit: 1 } }), [pod('n0', 0, 'ended'), pod('n0', 1, 'backoff')]), NOW);
    expect(creates(spent)).toEqual(['n1/0']);
    expect(spent.status[0]?.status).toMatchObject({ active: 1, failed: 1, failedNodes: ['n0'] });
    expect(spent.events.map((e) => e.message)).toEqual(['Node n0: attempt 1 failed (pull: ImagePullBackOff); no retries left']);
  });

  it('an attempt older than the timeout without an answer fails; until then its timeout is a wake-up', () => {
    const young = decideImagePullJobs(observed(job({ pullPolicy: { timeoutSeconds: 20, backoffLimit: 0 } }), [pod('n0', 0, 'pulling', '2026-01-01T00:00:50Z')]), NOW);
    expect(young.requeueAfterMs).toBe(10_000);
    expect(young.status[0]?.status).toMatchObject({ active: 1 });
    const old = decideImagePullJobs(observed(job({ pullPolicy: { timeoutSeconds: 5, backoffLimit: 0 } }), [pod('n0', 0, 'pulling', '2026-01-01T00:00:50Z')]), NOW);
    expect(old.status[0]?.status).toMatchObject({ failed: 1, failedNodes: ['n0'] });
  });

  it('past activeDeadlineSeconds: complete, unfinished nodes failed, pods stopped', () => {
    const j = job({ parallelism: 1, completionPolicy: { type: 'Always', activeDeadlineSeconds: 30 } }, { startTime: '2026-01-01T00:00:00Z', desired: 4 });
    const plan = decideImagePullJobs(observed(j, [pod('n0', 0, 'pulled'), pod('n1', 0, 'pulling')]), NOW);
    expect(creates(plan)).toEqual([]);
    expect(deletes(plan)).toEqual(['p-n1-0']);
    expect(plan.status[0]?.status).toMatchObject({ completionTime: '2026-01-01T00:01:00Z', succeeded: 1, failed: 3, failedNodes: ['n1', 'n2', 'n3'], message: 'job exceeds activeDeadlineSeconds' });
  });

  it('finished: waits for the TTL, then the job goes', () => {
    const j = (ttl: number) => job({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: ttl } }, { completionTime: '2026-01-01T00:00:30Z', desired: 1, succeeded: 1 });
    expect(decideImagePullJobs(observed(j(60)), NOW)).toMatchObject({ writes: [], status: [], requeueAfterMs: 30_000 });
    expect(decideImagePullJobs(observed(j(10)), NOW).writes).toMatchObject([{ op: 'delete', target: { kind: 'ImagePullJob', name: 'j' }, preconditions: { uid: 'u1' } }]);
  });

  it('Never: no completion; selectors by names, labels and pods', () => {
    const never = decideImagePullJobs(observed(job({ completionPolicy: { type: 'Never' } }), nodes.map((n) => pod(n.metadata.name, 0, 'pulled'))), NOW);
    expect(never.status[0]?.status).toMatchObject({ succeeded: 4, message: 'job is running, progress 100.0%' });
    expect(never.status[0]?.status.completionTime).toBeUndefined();
    expect(decideImagePullJobs(observed(job({ selector: { names: ['n2', 'gone'] } })), NOW).status[0]?.status).toMatchObject({ desired: 1 });
    expect(creates(decideImagePullJobs(observed(job({ selector: { matchLabels: { pool: 'b' } } })), NOW))).toEqual([]);
    const app = (name: string, nodeName: string, phase = 'Running'): Pod => ({ metadata: { name, namespace: 'ns', labels: { app: 'web' } }, spec: { nodeName, containers: [] }, status: { phase } });
    const byPods = decideImagePullJobs(observed(job({ podSelector: { matchLabels: { app: 'web' } }, parallelism: 5 }), [], [app('a', 'n3'), app('b', 'n3'), app('c', 'n1', 'Succeeded')]), NOW);
    expect(creates(byPods)).toEqual(['n3/0']);
  });

  it('no target node: an Always job completes at once, as OpenKruise\'s does', () => {
    expect(decideImagePullJobs(observed(job({ selector: { names: ['gone'] } })), NOW).status[0]?.status).toMatchObject({ desired: 0, completionTime: '2026-01-01T00:01:00Z' });
  });
});

describe('nodes whose kubelet lists the image (status.images)', () => {
  const withImages = (name: string, names: string[][]): Node => ({ metadata: { name, labels: { pool: 'a' } }, status: { images: names.map((n) => ({ names: n, sizeBytes: 1 })) } });
  const filler = (n: number) => Array.from({ length: n }, (_, i) => [`docker.io/library/other${i}:1`]);
  const run = (j: StoredImagePullJob, ns: Node[]) => decideImagePullJobs({ jobs: [j], nodes: ns, podsByJob: new Map([['u1', []]]), selectedPods: new Map([['u1', []]]) }, NOW);

  it('count as succeeded with no pull pod; a node not listing it gets one', () => {
    const ns = [withImages('n0', [['docker.io/library/app@sha256:' + 'a'.repeat(64), 'docker.io/library/app:2']]), withImages('n1', [['docker.io/library/app:1']])];
    const plan = run(job({ parallelism: 2 }), ns);
    expect(creates(plan)).toEqual(['n1/0']);
    expect(plan.status[0]?.status).toMatchObject({ desired: 2, succeeded: 1, active: 1 });
  });

  it('a job done on every node completes at once', () => {
    const plan = run(job(), [withImages('n0', [['docker.io/library/app:2']])]);
    expect(creates(plan)).toEqual([]);
    expect(plan.status[0]?.status).toMatchObject({ desired: 1, succeeded: 1, completionTime: expect.any(String) });
  });

  it('a full list of 50 without the image is no proof it is absent: the node pulls', () => {
    expect(creates(run(job(), [withImages('n0', filler(50))]))).toEqual(['n0/0']);
    expect(creates(run(job(), [withImages('n0', [...filler(49), ['docker.io/library/app:2']])]))).toEqual([]);
  });

  it('digests compare by digest, a tag-less image as :latest, and imagePullPolicy Always pulls anyway', () => {
    const digest = 'sha256:' + 'b'.repeat(64);
    expect(creates(run(job({ image: `app@${digest}` }), [withImages('n0', [[`docker.io/library/app@${digest}`]])]))).toEqual([]);
    expect(creates(run(job({ image: `app@${digest}` }), [withImages('n0', [['docker.io/library/app@sha256:' + 'c'.repeat(64)]])]))).toEqual(['n0/0']);
    expect(creates(run(job({ image: 'app' }), [withImages('n0', [['docker.io/library/app:latest']])]))).toEqual([]);
    expect(creates(run(job({ imagePullPolicy: 'Always' }), [withImages('n0', [['docker.io/library/app:2']])]))).toEqual(['n0/0']);
  });
});

describe('sandboxConfig', () => {
  it('its labels and annotations go on the pull pods; the job’s own labels win', () => {
    const plan = decideImagePullJobs(observed(job({ sandboxConfig: { labels: { team: 'a', 'imagepulljob.kruise-serverless.io/attempt': '9' }, annotations: { note: 'x' } } })), NOW);
    const created = plan.writes.find((w) => w.op === 'create');
    const meta = created?.op === 'create' ? created.object.metadata : undefined;
    expect(meta?.labels).toMatchObject({ team: 'a', 'imagepulljob.kruise-serverless.io/attempt': '0' });
    expect(meta?.annotations).toEqual({ note: 'x' });
  });

  it('a CloneSet’s pre-download job keeps its sandbox labels (the template’s) off the pull pods', () => {
    const j = job({ sandboxConfig: { labels: { app: 'web' } } });
    j.metadata.ownerReferences = [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', controller: true, uid: 'cs' } as never];
    const created = decideImagePullJobs(observed(j), NOW).writes.find((w) => w.op === 'create');
    const labels = (created?.op === 'create' ? created.object.metadata?.labels : { app: 'no create' }) as Record<string, string> | undefined;
    expect(labels?.['app']).toBeUndefined();
    expect(created).toBeDefined();
  });
});
