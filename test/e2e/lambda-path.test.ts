// Read-your-writes on the Lambda path, one case per feature: the configuration is created and
// acted on at once, with no sleep and no push in between, and every reconcile runs in the
// production Lambda handler, triggered as AWS triggers it — ObjectChanged events the Worker
// publishes (EventBridge stand-in, support/lambda-path.ts) and the SQS wake-ups runs ask for. The
// only push is the install's, before any configuration exists. Deletion protection's case is
// decided by the Lambda *webhook*, which reads the cluster live where the Worker cannot.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { makeLambdaHandler } from '../../functions/lambda/index.js';
import { sha256Hex } from '../../src/edge-state/auth.js';
import { deletionProtectionFeature } from '../../src/deletion-protection/index.js';
import { renderClusterSide } from '../../src/install/render.js';
import { KubeApiError } from '../../src/kube/errors.js';
import type { KubeObject } from '../../src/kube/http.js';
import { FEATURES, webhookEndpoints } from '../../src/registry.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { DEBOUNCE_WINDOW_MS } from '../../src/edge-state/debounce.js';
import { isReady, startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { expectSeed001AtPartition3 } from './support/seed001.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { evictPod } from './support/disrupt.js';
import { createNamespace, deleteNamespace, eventually, testKubeConfig } from './support/kube.js';
import { caPem, localServingCert } from './support/tls.js';

const kc = testKubeConfig();
let lambda: LambdaPath;
let env: EdgeEnv;

// Every feature but deletion protection on the Worker; that one is on the Lambda webhook below.
const WORKER_FEATURES = FEATURES.filter((f) => f !== deletionProtectionFeature);

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('lp', WORKER_FEATURES, { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
});

afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

const runsOf = (kind: string, name: string) =>
  lambda.summaries.flatMap((s) => s.runs.filter((r) => r.reconciler === kind && (r.scope === 'all' || r.scope.some((o) => o.endsWith(`/${name}`) || o === name))));

/**
 * Waits for a Lambda run of `kind` over `name` that wrote something. Its summary is recorded when
 * the handler returns, a moment after its last write is already visible to the test.
 */
const lambdaActedOn = (kind: string, name: string) =>
  eventually(`a Lambda run of ${kind} ${name} that wrote`, async () => (runsOf(kind, name).some((r) => r.acted && r.applied > 0) ? true : undefined), 10_000, 20);

/** The outcome of an eviction: 'evicted', or the status code the client sees. */
const evict = async (pod: string): Promise<string> => {
  const a = await evictPod(env.kube, env.ns, pod);
  return a.code === 201 ? 'evicted' : String(a.code);
};

describe('SidecarSet', () => {
  it('created with its pod at once: injected; an image change rolls the pod in place through the Lambda', async () => {
    const sidecarSet = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'lp-sidecar' },
      spec: { selector: { matchLabels: { app: 'lp-sidecar' } }, namespace: env.ns, containers: [{ name: 'proxy', image: 'proxy:1' }] },
    };
    await env.kube.create(sidecarSet);
    const pod = await env.createPod('lp-sidecar-pod', { app: 'lp-sidecar' });
    expect(pod.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['proxy=proxy:1', 'main=app:1']);
    await env.waitReady([pod.metadata.name]);

    await env.kube.patch(sidecarSet, { spec: { containers: [{ name: 'proxy', image: 'proxy:2' }] } });
    await eventually('the sidecar updated in place', async () => {
      const now = await env.kube.get<Pod>('v1', 'Pod', pod.metadata.name, env.ns);
      return now.spec?.containers.find((c) => c.name === 'proxy')?.image === 'proxy:2' ? now : undefined;
    }, 30_000, 50);
    await lambdaActedOn('SidecarSet', 'lp-sidecar');
    await env.kube.delete(sidecarSet);
  });
});

describe('PodUnavailableBudget', () => {
  it('created with its pods at once: stamps them; the budget and each disruption reach status through the Lambda', async () => {
    await env.createPub('lp-pub', { selector: { matchLabels: { app: 'lp-pub' } }, maxUnavailable: 1 });
    const names = ['lp-pub-0', 'lp-pub-1'];
    for (const n of names) {
      const pod = await env.createPod(n, { app: 'lp-pub' });
      expect(pod.metadata.annotations?.['kruise.io/related-pub']).toBe('lp-pub');
    }
    await env.waitReady(names);

    // The PUB's ObjectChanged event ran its controller on the Lambda, which comes back (an SQS
    // wake-up) until the starting pods are available.
    await eventually('the budget computed', async () => ((await env.pubStatus('lp-pub'))?.unavailableAllowed === 1 ? true : undefined), 30_000, 50);
    const evictedAt = Date.now();
    expect(await evict('lp-pub-0')).toBe('evicted');
    expect(await evict('lp-pub-1')).toBe('429');
    // The spent allowance is a ledger change the Worker publishes as an event for the PUB, whose run
    // writes status at once, long before the 3 s wake-up. (The disruptedPods entry lasts only until
    // the controller sees the pod terminating, as OpenKruise's does: the evidence is the count.)
    expect(lambda.published).toContainEqual({ clusterId: env.clusterId, apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', namespace: env.ns, name: 'lp-pub', reason: 'status' });
    await eventually('the disruption in status', async () => {
      const s = await env.pubStatus('lp-pub');
      return s?.currentAvailable === 1 ? s : undefined;
    }, 10_000, 20);
    console.log(`PUB status after the eviction: ${Date.now() - evictedAt} ms`);
  });
});

describe('WorkloadSpread', () => {
  it('created with its Deployment at once: pods placed, and each placement reaches status through the Lambda', async () => {
    const ws = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'lp-spread', namespace: env.ns },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'lp-spread' }, subsets: [{ name: 'subset-a', maxReplicas: 1 }, { name: 'subset-b' }] },
    };
    await env.kube.create(ws);
    await env.kube.create({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'lp-spread', namespace: env.ns },
      spec: { replicas: 2, selector: { matchLabels: { app: 'lp-spread' } },
        template: { metadata: { labels: { app: 'lp-spread' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } } },
    });
    const pods = await eventually('2 pods', async () => {
      const list = (await env.kube.list('v1', 'Pod', { namespace: env.ns, labelSelector: 'app=lp-spread' })).items as Pod[];
      return list.length === 2 ? list : undefined;
    }, 30_000, 50);
    const subsets = pods.map((p) => (JSON.parse(p.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}') as { subset?: string }).subset).sort();
    expect(subsets).toEqual(['subset-a', 'subset-b']);
    // Every placement is in status (as a pod being created, or counted) without waiting for a schedule.
    await eventually('both placements in status', async () => {
      const got = await env.kube.get<KubeObject & { status?: { subsetStatuses?: { name: string; replicas: number; creatingPods?: Record<string, string> }[] } }>(ws.apiVersion, ws.kind, ws.metadata.name, env.ns);
      const seen = (name: string) => {
        const s = got.status?.subsetStatuses?.find((x) => x.name === name);
        return s ? s.replicas + Object.keys(s.creatingPods ?? {}).length : 0;
      };
      return seen('subset-a') >= 1 && seen('subset-b') >= 1 ? true : undefined;
    }, 10_000, 50);
  });
});

describe('CloneSet', () => {
  it('created: its pods are created and its status written by the Lambda, woken by SQS until they are ready', async () => {
    await env.kube.create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'lp-clones', namespace: env.ns },
      spec: { replicas: 2, selector: { matchLabels: { app: 'lp-clones' } }, template: { metadata: { labels: { app: 'lp-clones' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } } },
    });
    const status = await eventually('2 ready in status', async () => {
      const got = await env.kube.get<KubeObject & { status?: { readyReplicas?: number; replicas?: number } }>('apps.kruise.io/v1alpha1', 'CloneSet', 'lp-clones', env.ns);
      return got.status?.readyReplicas === 2 ? got.status : undefined;
    }, 30_000, 50);
    expect(status.replicas).toBe(2);
    await lambdaActedOn('CloneSet', 'lp-clones');
  });
});

describe('Advanced StatefulSet', () => {
  it('seed 002 through the Lambda only: created in order of need, then an image change rolls web-4, web-3, web-2 first, in place', async () => {
    const seed = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', '002-statefulset-inplace-update.yaml'), 'utf8')) as KubeObject & { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    const relabel = (o: unknown) => JSON.parse(JSON.stringify(o).replaceAll('"app":"nginx"', '"app":"lp-asts"')) as typeof seed;
    const set = await env.kube.create({ ...relabel(seed), metadata: { name: 'lp-asts', namespace: env.ns } });
    type Status = { readyReplicas?: number; updatedReadyReplicas?: number; currentRevision?: string; updateRevision?: string; observedGeneration?: number };
    const status = async () => (await env.kube.get<KubeObject & { metadata: { generation?: number }; status?: Status }>('apps.kruise.io/v1beta1', 'StatefulSet', 'lp-asts', env.ns));
    await eventually('5 ready', async () => ((await status()).status?.readyReplicas === 5 ? true : undefined), 30_000, 50);
    const podsNow = async () => (await env.kube.list('v1', 'Pod', { namespace: env.ns, labelSelector: 'app=lp-asts' })).items as Pod[];
    const uids = new Map((await podsNow()).map((p) => [p.metadata.name, p.metadata.uid]));
    const [first, ...rest] = seed.spec.template.spec.containers;
    const patched = await env.kube.patch<KubeObject & { metadata: { generation?: number } }>(set, { spec: { template: { spec: { containers: [{ ...first, image: 'nginx:1.9.1' }, ...rest] } } } });
    // The order pods are first seen updated in (the three writes of a wave land one by one).
    const order: string[] = [];
    const pods = await eventually('all 5 updated in place and ready', async () => {
      const list = await podsNow();
      const updated = list.filter((p) => p.spec?.containers[0]?.image === 'nginx:1.9.1').map((p) => p.metadata.name).sort();
      for (const n of updated) if (!order.includes(n)) order.push(n);
      const got = await status();
      const s = got.status;
      return (s?.observedGeneration ?? 0) >= (patched.metadata.generation ?? 0) && s?.updatedReadyReplicas === 5 && s.currentRevision === s.updateRevision && list.every(isReady) ? list : undefined;
    }, 60_000, 20);
    expect(order.slice(0, 3).sort()).toEqual(['lp-asts-2', 'lp-asts-3', 'lp-asts-4']);
    expect(new Map(pods.map((p) => [p.metadata.name, p.metadata.uid]))).toEqual(uids);
    await lambdaActedOn('StatefulSet', 'lp-asts');
  });
});

describe('CloneSet pod status', () => {
  type CloneSetStatus = { readyReplicas?: number; replicas?: number };
  const NAME = 'lp-status';
  const readyInStatus = async () => (await env.kube.get<KubeObject & { status?: CloneSetStatus }>('apps.kruise.io/v1alpha1', 'CloneSet', NAME, env.ns)).status?.readyReplicas;
  const podStatusEvents = (after: number) => lambda.received.filter((e) => e.at >= after && e.detail.name === NAME && e.detail.reason === 'pod-status');
  /** The invocation an event caused, once it has finished. */
  const invocationOf = (eventId: string) => eventually(`the run for ${eventId}`, async () => lambda.finished.find((f) => f.summary.eventId === eventId), 10_000, 10);
  const podReady = async (pod: string, want: boolean) => eventually(`${pod} ready=${want}`, async () => (isReady(await env.kube.get<Pod>('v1', 'Pod', pod, env.ns)) === want ? Date.now() : undefined), 10_000, 10);
  const csReady = async (want: number) => eventually(`readyReplicas ${want}`, async () => ((await readyInStatus()) === want ? Date.now() : undefined), 10_000, 10);

  it('is observed for CloneSet pods only, by the entry the installer renders from the features', async () => {
    const config = await env.kube.get<KubeObject & { webhooks: Record<string, unknown>[] }>('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'kruise-serverless-validating');
    expect(config.webhooks.find((w) => w.name === 'cloneset.observe-pod-status.kruise-serverless.io')).toMatchObject({
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'], operations: ['UPDATE'] }],
      failurePolicy: 'Ignore',
      objectSelector: { matchExpressions: [{ key: 'apps.kruise.io/cloneset-instance-id', operator: 'Exists' }] },
    });
  });

  it('a pod going unready and ready runs its CloneSet at once, from the pod-status event, with the SQS wake-ups stalled', async () => {
    await env.kube.create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: NAME, namespace: env.ns },
      spec: { replicas: 3, selector: { matchLabels: { app: NAME } }, template: { metadata: { labels: { app: NAME } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } } },
    });
    await csReady(3);
    const pods = ((await env.kube.list('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${NAME}` })).items as Pod[]).map((p) => p.metadata.name).sort();
    expect(pods).toHaveLength(3);

    // From here on nothing comes back through SQS: only events can run the CloneSet.
    lambda.stallWakeUps(true);
    try {
      const latencies: string[] = [];
      for (const [step, ready, want] of [['unready', false, 2], ['ready again', true, 3]] as const) {
        const started = Date.now();
        env.kubelet.setReady(env.ns, pods[0]!, ready);
        const written = await podReady(pods[0]!, ready);
        const shown = await csReady(want);
        // The status may already show it from a run an earlier (debounced) event started; this
        // change's own event still follows within the window.
        const event = await eventually('a pod-status event', async () => podStatusEvents(started)[0], 5_000, 20);
        expect(event?.detail).toEqual({
          clusterId: env.clusterId, apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: env.ns, name: NAME, reason: 'pod-status',
          admitted: { apiVersion: 'v1', kind: 'Pod', namespace: env.ns, name: pods[0], operation: 'UPDATE', basedOn: expect.any(String) },
        });
        const run = await invocationOf(event!.id);
        expect(run.summary).toMatchObject({ trigger: 'object-changed', ok: true, runs: [{ reconciler: 'CloneSet', scope: [`${env.ns}/${NAME}`], acted: true }] });
        latencies.push(`${step} (ms after the kubelet was told; it writes within its 100 ms pass): pod status seen ${written - started}, event ${event!.at - started}, run done ${run.at - started}, CloneSet status shows it ${shown - started}`);
      }

      // A burst: all three pods change within one kubelet pass. The first change is published at
      // once; the rest are held by the cluster's Durable Object and published by its alarm, once.
      // (After the last step's window has closed: inside it, the whole burst would be held.)
      await new Promise((r) => setTimeout(r, DEBOUNCE_WINDOW_MS + 100));
      const burst = Date.now();
      for (const p of pods) env.kubelet.setReady(env.ns, p, false);
      await Promise.all(pods.map((p) => podReady(p, false)));
      const shown = await csReady(0);
      const events = await eventually('the held event', async () => (podStatusEvents(burst).length >= 2 ? podStatusEvents(burst) : undefined), 5_000, 10);
      await invocationOf(events[1]!.id);
      expect(podStatusEvents(burst)).toHaveLength(2);
      latencies.push(`burst of 3: events at +0 and +${events[1]!.at - events[0]!.at} ms (the held one, from the alarm), status shows 0 ready ${shown - burst} ms after the kubelet pass began`);
      expect(lambda.finished.filter((f) => f.at >= burst && f.summary.trigger === 'requeue')).toEqual([]);
      console.log(`CloneSet pod status → reconcile on the Lambda path:\n  ${latencies.join('\n  ')}`);
    } finally {
      lambda.stallWakeUps(false);
      for (const p of pods) env.kubelet.setReady(env.ns, p, true);
    }
    await csReady(3);
  });
});

describe('CloneSet strategies', () => {
  // Everything below runs only through the Lambda handler: the CloneSet change's ObjectChanged
  // event, its pods' status events, and the SQS wake-ups its runs ask for.
  type CsPod = Pod & { metadata: { labels: Record<string, string> } };
  const STATE = 'lifecycle.apps.kruise.io/state';
  const seed = (file: string, name: string, spec: Record<string, unknown> = {}): KubeObject => {
    const obj = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as KubeObject & { spec: Record<string, unknown> };
    return { ...obj, metadata: { ...obj.metadata, name, namespace: env.ns }, spec: { ...obj.spec, ...spec } };
  };
  const podsOf = async (app: string) => (await env.kube.list<CsPod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;
  const image = (p: Pod) => p.spec?.containers[0]?.image;
  const nginx = (tag: string) => ({ spec: { template: { spec: { containers: [{ name: 'nginx', image: `nginx:${tag}` }] } } } });
  type CsStatus = { replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; updateRevision?: string; currentRevision?: string };
  const csStatus = async (name: string) => (await env.kube.get<KubeObject & { status?: CsStatus }>('apps.kruise.io/v1alpha1', 'CloneSet', name, env.ns)).status;

  /** Exactly `n` pods, none terminating, all Ready, passing `check`; on timeout the pods' state in the error. */
  async function readyPods(app: string, n: number, check: (pods: CsPod[]) => boolean = () => true): Promise<CsPod[]> {
    try {
      return await eventually(`${app}: ${n} ready pods`, async () => {
        const pods = await podsOf(app);
        return pods.length === n && pods.every((p) => !p.metadata.deletionTimestamp && isReady(p)) && check(pods) ? pods : undefined;
      }, 60_000, 50);
    } catch (e) {
      const line = (p: CsPod) => `${p.metadata.name} ${p.metadata.labels['controller-revision-hash']} ${p.metadata.labels[STATE] ?? ''} ${p.metadata.deletionTimestamp ? 'terminating' : ''} ${image(p)} ${(p.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',')}`;
      throw new Error(`${(e as Error).message}\n${(await podsOf(app)).map(line).join('\n')}`);
    }
  }

  /** Samples the pods until stopped: the most alive and the fewest ready at once. */
  function sampler(app: string) {
    const seen = { maxLive: 0, minReady: Infinity };
    let on = true;
    const done = (async () => {
      while (on) {
        const pods = (await podsOf(app)).filter((p) => !p.metadata.deletionTimestamp);
        seen.maxLive = Math.max(seen.maxLive, pods.length);
        seen.minReady = Math.min(seen.minReady, pods.filter(isReady).length);
      }
    })();
    return { stop: async () => { on = false; await done; return seen; } };
  }

  it('seed 001 (5 replicas, maxSurge 20%, maxUnavailable 0, partition 3): one surge pod, 3 old + 2 new, never fewer than 5 ready; partition 0 then finishes', async () => {
    const NAME = 'lp-surge';
    const APP = 'sample-maxsurge-partition';
    const obj = await env.kube.create(seed('001-cloneset-maxsurge-partition.yaml', NAME));
    const before = await readyPods(APP, 5);
    const s = sampler(APP);
    await env.kube.patch(obj, nginx('1.25'));
    const partial = await readyPods(APP, 5, (pods) => pods.filter((p) => image(p) === 'nginx:1.25').length === 2);
    const seen = await s.stop();
    expectSeed001AtPartition3(before, partial, seen);
    const status = await eventually('status: 2 of 5 updated', async () => {
      const st = await csStatus(NAME);
      return st?.updatedReplicas === 2 && st.replicas === 5 && st.readyReplicas === 5 ? st : undefined;
    }, 20_000, 50);
    expect(status.currentRevision).not.toBe(status.updateRevision);

    const s2 = sampler(APP);
    await env.kube.patch(obj, { spec: { updateStrategy: { partition: 0 } } });
    await readyPods(APP, 5, (pods) => pods.every((p) => image(p) === 'nginx:1.25'));
    const seen2 = await s2.stop();
    expect(seen2.maxLive).toBe(6);
    expect(seen2.minReady).toBeGreaterThanOrEqual(5);
    await eventually('current = update revision', async () => {
      const st = await csStatus(NAME);
      return st?.currentRevision === st?.updateRevision && st?.updatedReadyReplicas === 5 ? true : undefined;
    }, 20_000, 50);
    expect(runsOf('CloneSet', NAME).filter((r) => r.error || r.failed > 0)).toEqual([]);
  });

  it('seed 000 inPlaceUpdate labelsHandler: PreparingUpdate until the label goes, updated in place to Updated, Normal once the label is back', async () => {
    const NAME = 'lp-hooked';
    const APP = 'sample-lifecycle-labels';
    const HOOK = 'example.io/block-unready';
    const obj = await env.kube.create(seed('000-cloneset-lifecycle-labels.yaml', NAME, { replicas: 1, updateStrategy: { type: 'InPlaceIfPossible' } }));
    const [pod] = await readyPods(APP, 1, (pods) => pods[0]!.metadata.labels[STATE] === 'Normal');
    const current = async () => (await podsOf(APP))[0]!;
    const inState = (state: string, extra: (p: CsPod) => boolean = () => true) =>
      eventually(`${NAME}'s pod ${state}`, async () => {
        const p = await current();
        return p.metadata.labels[STATE] === state && extra(p) ? p : undefined;
      }, 20_000, 20);
    // The user's controller holds the pod, and the user changes the image.
    await env.kube.patch(pod!, { metadata: { labels: { [HOOK]: 'true' } } });
    await env.kube.patch(obj, nginx('1.25'));
    expect(image(await inState('PreparingUpdate'))).toBe('nginx:alpine');
    // It lets the update go by removing its label…
    await env.kube.patch(await current(), { metadata: { labels: { [HOOK]: null } } });
    const updated = await inState('Updated', (p) => image(p) === 'nginx:1.25' && isReady(p));
    expect(updated.metadata.uid).toBe(pod!.metadata.uid);
    // …and takes the pod back by putting it on again.
    await env.kube.patch(updated, { metadata: { labels: { [HOOK]: 'true' } } });
    await inState('Normal');
  });
});

describe('Deletion protection on the Lambda webhook', () => {
  const secret = 'd'.repeat(64);
  const CONFIG = 'kruise-serverless-lambda-e2e';
  let server: Server;
  let ns = '';

  // An HTTPS front that hands each request to the Lambda handler as a function URL event.
  beforeAll(async () => {
    const handler = makeLambdaHandler([deletionProtectionFeature], {
      KS_CLUSTER_ID: env.clusterId,
      KS_CLUSTERS_JSON: JSON.stringify([{ clusterId: env.clusterId, webhookSecrets: [{ sha256: await sha256Hex(secret) }], syncTokens: [] }]),
      KUBECONFIG: inject('kubeconfig'),
    });
    const template = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'function-url-event.json'), 'utf8')) as Record<string, unknown> & { requestContext: { http: object } };
    server = createServer(localServingCert('lp-lambda'), (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0]!;
        const event = { ...template, rawPath: path, body, isBase64Encoded: false, requestContext: { ...template.requestContext, http: { ...template.requestContext.http, path } } };
        void (handler(event as never, {} as never) as Promise<{ statusCode: number; body: string }>).then((out) => {
          res.writeHead(out.statusCode, { 'content-type': 'application/json' }).end(out.body);
        });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    // As `install --endpoint-url validate-delete=<function URL>` renders it (here a second configuration).
    const rendered = renderClusterSide({
      baseUrl: env.worker.url, clusterId: env.clusterId, secret, crds: [],
      endpoints: webhookEndpoints([deletionProtectionFeature]).filter((e) => e.path === 'validate-delete'),
      overrides: { 'validate-delete': { baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caBundle: caPem() } },
    });
    const validating = rendered.find((o) => o.kind === 'ValidatingWebhookConfiguration')!;
    await env.kube.create({ ...validating, metadata: { name: CONFIG } });
  });

  afterAll(async () => {
    await env.kube.delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: CONFIG } }).catch(() => undefined);
    server?.close();
    if (ns) await deleteNamespace(kc, ns);
  });

  it('a namespace labelled Cascading after its pod: refused at once with OpenKruise’s message, allowed once the pod is gone', async () => {
    ns = await createNamespace(kc, 'lp-dp');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: ns } };
    await env.kube.create({ ...pod, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
    await env.kube.patch(namespace, { metadata: { labels: { 'policy.kruise.io/delete-protection': 'Cascading' } } });
    const refusal = await env.kube.delete(namespace).then(() => 'deleted', (e: unknown) => (e instanceof KubeApiError ? `${e.status} ${(e.body as { message?: string }).message}` : String(e)));
    expect(refusal).toBe('403 admission webhook "vdelete.kruise-serverless.io" denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and active pods 1>0');
    await env.kube.delete(pod, { gracePeriodSeconds: 0 });
    await env.kube.delete(namespace);
    ns = '';
  });

  it('a CRD created Cascading, then a custom resource: its deletion refused at once, allowed once none lives', async () => {
    const group = `gizmos.${Math.random().toString(36).slice(2, 8)}.lp-e2e.example.com`;
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `gizmos.${group}`, labels: { 'policy.kruise.io/delete-protection': 'Cascading' } },
      spec: { group, scope: 'Namespaced', names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
    await env.kube.create(crd);
    const cr = { apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'g', namespace: env.ns } };
    await eventually('the Gizmo CRD served', () => env.kube.create(cr), 30_000, 50);
    const refusal = await env.kube.delete(crd).then(() => 'deleted', (e: unknown) => (e instanceof KubeApiError ? `${e.status} ${(e.body as { message?: string }).message}` : String(e)));
    expect(refusal).toBe('403 admission webhook "vdelete.kruise-serverless.io" denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and active CRs 1>0');
    await env.kube.delete(cr);
    await env.kube.delete(crd);
  });
});
