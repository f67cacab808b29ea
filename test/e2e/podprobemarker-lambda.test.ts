// PodProbeMarker on the Lambda path: a pod has reported its probe's result as a condition (as a
// virtual kubelet's runtime does); creating the PodProbeMarker publishes a change event, and the
// production Lambda handler marks the pod by its policy. And as users mostly act: the
// PodProbeMarker first, then its pod (whose creation the Worker publishes for the PodProbeMarkers it
// lists), whose reported condition the Lambda reads again every probe period (its runs' SQS
// wake-ups: nothing sends a pod's status change to the Lambda). No resync between the steps; the
// one-minute schedule never fires. PUB is registered as in production: its pod state is what makes
// the Worker register observe-pod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podProbeMarkerFeature } from '../../src/podprobemarker/index.js';
import { pubFeature } from '../../src/pub/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';
import { startGate, type Gate } from './support/gate-webhook.js';
import { DEBOUNCE_WINDOW_MS } from '../../src/edge-state/debounce.js';

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('ppml', [podProbeMarkerFeature, pubFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

describe('PodProbeMarker through the Lambda', () => {
  it('created over a pod that reported its condition: the pod gets the policy\'s labels', async () => {
    await env.createPod('room-0', { app: 'room' });
    await env.waitReady(['room-0']);
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'room-0', namespace: env.ns } }, { status: { conditions: [{ type: 'game.kruise.io/idle', status: 'False' }] } }, 'strategic', 'status');
    await env.kube.create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'room', namespace: env.ns },
      spec: {
        selector: { matchLabels: { app: 'room' } },
        probes: [{ name: 'idle', containerName: 'main', podConditionType: 'game.kruise.io/idle', probe: { exec: { command: ['/idle.sh'] } }, markerPolicy: [{ state: 'Succeeded', labels: { idle: 'true' } }, { state: 'Failed', labels: { idle: 'false' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } }] }],
      },
    } as KubeObject);
    const marked = await eventually('room-0 marked busy', async () => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'room-0', env.ns);
      return p.metadata.labels?.idle === 'false' ? p : undefined;
    }, 20_000, 50).catch(async (e: unknown) => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'room-0', env.ns);
      throw new Error(`${String(e)}\npod: ${JSON.stringify({ labels: p.metadata.labels, conditions: p.status?.conditions })}\n${lambda.describeRuns()}`);
    });
    expect(marked.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost']).toBe('100');
  });

  it('created before its pod: the condition the pod reports later marks it, read again every probe period (1 s here)', async () => {
    await env.kube.create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'game', namespace: env.ns },
      spec: {
        selector: { matchLabels: { app: 'game' } },
        probes: [{ name: 'healthy', containerName: 'main', podConditionType: 'game.kruise.io/healthy', probe: { exec: { command: ['bash', '/data/probe.sh'] }, periodSeconds: 1 }, markerPolicy: [{ state: 'Succeeded', labels: { 'game.kruise.io/healthy': 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } }] }],
      },
    } as KubeObject);
    const created = await env.createPod('game-0', { app: 'game' });
    expect(created.metadata.annotations?.['kruise.io/podprobemarker-list']).toBe('game');
    await env.waitReady(['game-0']);
    // The condition is reported later (as a pod's runtime does, once its probe has run): after the
    // runs of every event published for game (its creation, the pod's) are over and the Worker's
    // debounce window has closed with nothing held, so no event-started run can see it: only a
    // wake-up can.
    const gameEvents = () => lambda.received.filter((e) => e.detail.kind === 'PodProbeMarker' && e.detail.name === 'game');
    await eventually('every event for game handled, none held', async () => {
      const got = gameEvents();
      const last = Math.max(...got.map((e) => e.at));
      return got.length && Date.now() - last > DEBOUNCE_WINDOW_MS && got.every((e) => lambda.finished.some((f) => f.summary.eventId === e.id)) ? true : undefined;
    }, 10_000, 20);
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'game-0', namespace: env.ns } }, { status: { conditions: [{ type: 'game.kruise.io/healthy', status: 'True' }] } }, 'strategic', 'status');
    const reported = Date.now();
    const marked = await eventually('game-0 marked healthy', async () => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'game-0', env.ns);
      return p.metadata.labels?.['game.kruise.io/healthy'] === 'true' ? p : undefined;
    }, 20_000, 50);
    console.log(`reported condition → marked through the Lambda: ${Date.now() - reported} ms`);
    expect(marked.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost']).toBe('10');
    // Marked by a run an SQS wake-up started (its summary lands once the invocation ends), with no event since.
    expect(gameEvents().filter((e) => e.at >= reported)).toEqual([]);
    const timeline = () => [
      ...lambda.received.filter((e) => e.at >= reported - 5_000).map((e) => `${e.at - reported} ms event ${String(e.detail.kind)} ${String(e.detail.name)} ${String(e.detail.reason ?? '')}`),
      ...lambda.finished.filter((f) => f.at >= reported - 5_000).map((f) => `${f.at - reported} ms run ${f.summary.trigger} ${f.summary.runs.map((r) => `${r.reconciler} applied=${r.applied}`).join(' ')}`),
    ].join('\n  ');
    await eventually('the wake-up run that marked it', async () => (lambda.finished.some((f) => f.at >= reported && f.summary.trigger === 'requeue' && f.summary.runs.some((r) => r.reconciler === 'PodProbeMarker' && r.applied > 0)) ? true : undefined), 10_000, 20)
      .catch((e: unknown) => {
        throw new Error(`${String(e)}\n  ${timeline()}`);
      });
    console.log(`timeline around the report:\n  ${timeline()}`);
  });
});

describe('an event that reaches the Lambda before its write commits', () => {
  // Another validating webhook holds the PodProbeMarker's creation after ours has answered (and
  // published its event): the Lambda's run for it must wait for the commit, not find nothing and stop.
  const GATE = `ppml-e2e-gate-${Math.random().toString(36).slice(2, 8)}`;
  let gate: Gate;

  beforeAll(async () => {
    gate = await startGate({
      kube: env.kube, name: GATE, objectSelector: { matchLabels: { [GATE]: 'hold' } },
      rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['podprobemarkers'], operations: ['CREATE'] }],
    });
  });
  afterAll(async () => {
    await gate?.close();
  });

  it('created over a reporting pod while another webhook holds it: the run waits for the commit and marks the pod', async () => {
    await env.createPod('held-0', { app: 'held' });
    await env.waitReady(['held-0']);
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'held-0', namespace: env.ns } }, { status: { conditions: [{ type: 'game.kruise.io/idle', status: 'True' }] } }, 'strategic', 'status');
    const ppm = (name: string): KubeObject => ({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name, namespace: env.ns, labels: { [GATE]: 'hold' } },
      spec: {
        selector: { matchLabels: { app: 'held' } },
        probes: [{ name: 'idle', containerName: 'main', podConditionType: 'game.kruise.io/idle', probe: { exec: { command: ['/idle.sh'] } }, markerPolicy: [{ state: 'Succeeded', labels: { [name]: 'idle' } }] }],
      },
    } as KubeObject);
    // The API server takes up a new webhook configuration a moment later: a dry run shows when.
    await eventually('the gate webhook in effect', async () => {
      await env.kube.create(ppm('probe'), { dryRun: 'All' });
      return gate.seen > 0 ? true : undefined;
    }, 30_000, 50);

    gate.holdNext(1);
    const created = env.kube.create(ppm('held'));
    await gate.held(1);
    const event = await eventually('the Lambda invoked for the held creation', async () => {
      const e = lambda.received.find((r) => r.detail['kind'] === 'PodProbeMarker' && r.detail['name'] === 'held');
      return e && lambda.finished.some((f) => f.summary.eventId === e.id) ? e : undefined;
    }, 10_000, 20);
    expect(lambda.finished.find((f) => f.summary.eventId === event.id)?.summary).toMatchObject({ runs: [], message: `PodProbeMarker ${env.ns}/held create not committed yet: the runs wait for it` });
    gate.release(0);
    await created;
    await eventually('held-0 marked idle', async () => ((await env.kube.get<Pod>('v1', 'Pod', 'held-0', env.ns)).metadata.labels?.['held'] === 'idle' ? true : undefined), 15_000, 50)
      .catch((e: unknown) => {
        throw new Error(`${String(e)}\n${lambda.describeRuns()}`);
      });
  });
});
