// EphemeralJob end to end on the real API server (1.20, EphemeralContainers gate on, so the
// legacy `EphemeralContainers` subresource shape), fake nodes and the fake kubelet, which reports
// ephemeral container statuses: the webhook on the production Worker refuses invalid templates
// with OpenKruise's messages; the reconciler runs in the Node loop (full resync set to an hour so
// nothing here waits for it). Users' steps follow each other with no sleep; tests wait with `eventually`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { ephemeralJobFeature } from '../../src/ephemeraljob/index.js';
import { ephemeralJobReconciler } from '../../src/ephemeraljob/controller/reconciler.js';
import type { KubeObject } from '../../src/kube/http.js';
import { isNotFound } from '../../src/kube/errors.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { applyPlan } from '../../src/reconcile/act.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';

const EJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob' } as const;
const EXITS = '/ks-ejob/true';
type Status = { phase?: string; match?: number; succeeded?: number; failed?: number; running?: number; waiting?: number; startTime?: string; completionTime?: string; conditions?: { type: string; reason?: string; message?: string }[] };
type Job = KubeObject & { metadata: { name: string; uid?: string }; status?: Status };
type Pod = V1Pod & KubeObject;

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('ejob', [ephemeralJobFeature]);
  env.kubelet.exitOnStart(EXITS);
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [ephemeralJobReconciler as Reconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ejob-loop-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const container = (command: string[]) => ({ name: 'debug', image: 'busybox', command });
const create = (name: string, app: string, spec: Record<string, unknown> = {}, command = ['sleep', '3600']) =>
  env.kube.create<Job>({ ...EJ, metadata: { name, namespace: env.ns }, spec: { selector: { matchLabels: { app } }, template: { ephemeralContainers: [container(command)] }, ...spec } });
const job = (name: string) => env.kube.get<Job>(EJ.apiVersion, EJ.kind, name, env.ns);
const pod = (name: string) => env.kube.get<Pod>('v1', 'Pod', name, env.ns);
const injected = async (names: string[]) => (await Promise.all(names.map(pod))).filter((p) => (p.spec?.ephemeralContainers ?? []).length > 0).map((p) => p.metadata?.name ?? '');
const waitStatus = (name: string, what: string, ok: (s: Status) => boolean, ms = 30_000) =>
  eventually(`${name}: ${what}`, async () => {
    const j = await job(name);
    return j.status && ok(j.status) ? j : undefined;
  }, ms, 50).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${JSON.stringify((await job(name)).status)}`);
  });

describe('EphemeralJob webhook', () => {
  it.each([
    ['a container without image', [{ name: 'debug' }], 'ephemeralContainers[0].image: Required value'],
    ['ports on an ephemeral container', [{ name: 'debug', image: 'busybox', ports: [{ containerPort: 80 }] }], 'ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container'],
    ['two containers of one name', [{ name: 'a', image: 'x' }, { name: 'a', image: 'x' }], 'ephemeralContainers[1].name: Duplicate value: "a"'],
  ])('refuses %s', async (_what, containers, message) => {
    const answer = await attempt(env.kube.create({ ...EJ, metadata: { name: 'refused', namespace: env.ns }, spec: { selector: { matchLabels: { app: 'web' } }, replicas: 1, template: { ephemeralContainers: containers } } }));
    expect(answer).toContain(message);
  });
});

describe('EphemeralJob reconciler (Node loop)', () => {
  it('injects into the matching pods parallelism at a time, up to replicas, and succeeds when they all exit 0', async () => {
    await Promise.all([env.createPod('par-1', { app: 'par' }), env.createPod('par-2', { app: 'par' }), env.createPod('par-3', { app: 'par' }), env.createPod('par-x', { app: 'other' })]);
    const j = await create('par', 'par', { replicas: 2, parallelism: 1 });
    const names = ['par-1', 'par-2', 'par-3', 'par-x'];
    const [first] = await eventually('one pod injected', async () => {
      const done = await injected(names);
      return done.length ? done : undefined;
    });
    await waitStatus('par', 'one running', (s) => s.running === 1);
    // parallelism 1: the next pod waits for this one's container to end.
    expect(await injected(names)).toEqual([first]);
    const ec = (await pod(first!)).spec?.ephemeralContainers?.[0];
    expect(ec).toMatchObject({ name: 'debug', image: 'busybox', command: ['sleep', '3600'] });
    expect(ec?.env).toContainEqual({ name: 'KRUISE_EJOB_ID', value: j.metadata.uid });

    env.kubelet.failContainer(env.ns, first!, 'debug', 0);
    const [, second] = await eventually('a second pod injected', async () => {
      const done = await injected(names);
      return done.length === 2 ? [first, done.find((n) => n !== first)] : undefined;
    });
    env.kubelet.failContainer(env.ns, second!, 'debug', 0);
    const s = (await waitStatus('par', 'Succeeded', (st) => st.phase === 'Succeeded')).status!;
    expect(s).toMatchObject({ match: 2, succeeded: 2, failed: 0, running: 0 });
    expect(s.completionTime).toBeTruthy();
    expect(s.conditions?.map((c) => c.type)).toEqual(expect.arrayContaining(['Initialized', 'JobSucceeded']));
    // replicas 2: the third pod, and the pod the selector does not match, got nothing.
    expect((await injected(names)).sort()).toEqual([first, second].sort());
  });

  it('a container that exits non-zero counts as failed, and fails the job', async () => {
    await env.createPod('fail-1', { app: 'fail' });
    env.kubelet.failContainer(env.ns, 'fail-1', 'debug', 1);
    await create('fail', 'fail', { replicas: 1 });
    const s = (await waitStatus('fail', 'Failed', (st) => st.phase === 'Failed')).status!;
    expect(s).toMatchObject({ match: 1, failed: 1, succeeded: 0 });
    expect(s.conditions?.find((c) => c.type === 'JobFailed')).toMatchObject({ reason: 'CreateFailed', message: `EphemeralJob ${env.ns}/fail failed to create ephemeral container` });
  });

  it('activeDeadlineSeconds: a job still running past it fails with DeadlineExceeded', async () => {
    await env.createPod('dl-1', { app: 'dl' });
    await create('dl', 'dl', { activeDeadlineSeconds: 2 });
    await waitStatus('dl', 'running', (st) => st.running === 1);
    const s = (await waitStatus('dl', 'Failed', (st) => st.phase === 'Failed')).status!;
    expect(s.conditions?.find((c) => c.type === 'JobFailed')).toMatchObject({ reason: 'DeadlineExceeded', message: `EphemeralJob ${env.ns}/dl was active longer than specified deadline` });
    expect(Date.parse(s.completionTime!) - Date.parse(s.startTime!)).toBeGreaterThanOrEqual(2000);
  });

  it('ttlSecondsAfterFinished: a finished job is deleted', async () => {
    await env.createPod('ttl-1', { app: 'ttl' });
    await create('ttl', 'ttl', { ttlSecondsAfterFinished: 2 }, [EXITS]);
    await waitStatus('ttl', 'Succeeded', (st) => st.phase === 'Succeeded');
    await eventually('ttl deleted', async () => (await job('ttl').then(() => false, (e: unknown) => isNotFound(e))) || undefined);
  });

  it('a pod created later that the selector matches gets the containers too', async () => {
    await env.createPod('late-1', { app: 'late' });
    await create('late', 'late', { parallelism: 5 });
    await waitStatus('late', 'one running', (st) => st.running === 1 && st.match === 1);
    await env.createPod('late-2', { app: 'late' });
    await waitStatus('late', 'two running', (st) => st.running === 2 && st.match === 2);
    expect((await injected(['late-1', 'late-2'])).sort()).toEqual(['late-1', 'late-2']);
  });

  it('two runs that decided from the same state inject the containers once: the second meets a changed pod, a conflict', async () => {
    await env.createPod('twice-1', { app: 'twice' });
    // The kubelet's writes done first: either run would otherwise meet a changed pod.
    await env.waitReady(['twice-1']);
    // Paused in the cluster, so the loop injects nothing; the two runs decide as if it were not.
    const j = await create('twice', 'twice', { paused: true });
    await waitStatus('twice', 'Paused', (st) => st.phase === 'Paused');
    const observed = await ephemeralJobReconciler.observe(env.kube, { kind: 'objects', objects: [{ namespace: env.ns, name: 'twice' }] }, { serverVersion: () => env.kube.request('GET', '/version') });
    observed.jobs = observed.jobs.map((o) => ({ ...o, spec: { ...o.spec, paused: false } }));
    const plans = [0, 1].map(() => ephemeralJobReconciler.decide(observed, new Date()));
    expect(plans.map((p) => p.writes.filter((w) => w.op === 'patch').length)).toEqual([1, 1]);
    const opts = { now: () => new Date(), component: 'ejob-e2e' };
    const results = await Promise.all(plans.map((p) => applyPlan(env.kube, { ...p, status: [] }, opts)));
    expect(results.map((r) => [r.applied, r.conflicts, r.failed.length]).sort()).toEqual([[0, 1, 0], [1, 0, 0]]);
    const containers = (await pod('twice-1')).spec?.ephemeralContainers ?? [];
    expect(containers.map((c) => c.name)).toEqual(['debug']);
    expect(containers[0]?.env).toContainEqual({ name: 'KRUISE_EJOB_ID', value: j.metadata.uid });
  });
});
