// PodProbeMarker end to end on a real API server: validation and the pod webhook on the
// production Worker (reading the PodProbeMarkers the edge holds), and the reconciler through the
// Node loop with its own prober. Serverless mode: a pod gets its probes as an annotation at
// creation, its runtime (here the test) reports the result as the pod condition, and the loop marks
// the pod. Own probes: a pod whose IP is 127.0.0.1 (on a node no kubelet runs, so the test writes
// its status) is probed over tcp against a local server, which then goes away. Users' steps
// follow each other with no sleep; tests wait with `eventually`.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podProbeMarkerFeature } from '../../src/podprobemarker/index.js';
import { podProbeMarkerReconcilerFor } from '../../src/podprobemarker/controller/reconciler.js';
import { NetProber } from '../../src/podprobemarker/controller/prober.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';

const PPM = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker' } as const;
const BARE_NODE = 'ppm-node-without-kubelet';

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
let server: Server;

beforeAll(async () => {
  env = await startEdgeEnv('ppm', [podProbeMarkerFeature]);
  await env.kube.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: BARE_NODE } }).catch(() => undefined);
  await env.resync();
  server = createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [podProbeMarkerReconcilerFor({ prober: new NetProber() })] as Reconciler[], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ppm-loop-${r.kind}-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  server?.close();
  await env?.kube.delete({ apiVersion: 'v1', kind: 'Node', metadata: { name: BARE_NODE } }).catch(() => undefined);
  await env?.dispose();
});

const pod = (name: string) => env.kube.get<Pod>('v1', 'Pod', name, env.ns).catch(() => undefined);
const condition = (p: Pod | undefined, type: string) => p?.status?.conditions?.find((c) => c.type === type);

describe('PodProbeMarker', () => {
  it('refuses an invalid PodProbeMarker with OpenKruise\'s message', async () => {
    const probes = [{ name: 'Ready', containerName: 'main', podConditionType: 'x', probe: { tcpSocket: { port: 80 } } }];
    expect(await attempt(env.kube.create({ ...PPM, metadata: { name: 'bad', namespace: env.ns }, spec: { selector: { matchLabels: { app: 'x' } }, probes } }))).toContain('spec.probes: Invalid value: "Ready": probe name can\'t be Ready');
    expect(await attempt(env.kube.create({ ...PPM, metadata: { name: 'bad', namespace: env.ns }, spec: { selector: {}, probes: [{ ...probes[0], name: 'ok' }] } }))).toContain('spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for podProbeMarker.');
  });

  it('serverless mode: the pod carries its probes, and the condition its runtime reports marks it', async () => {
    await env.kube.create({
      ...PPM, metadata: { name: 'game', namespace: env.ns },
      spec: {
        selector: { matchLabels: { app: 'game' } },
        probes: [{ name: 'healthy', containerName: 'main', podConditionType: 'game.kruise.io/healthy', probe: { exec: { command: ['bash', '/data/probe.sh'] } }, markerPolicy: [{ state: 'Succeeded', labels: { 'game.kruise.io/healthy': 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } }] }],
      },
    } as KubeObject);
    const created = await env.createPod('game-0', { app: 'game' });
    expect(created.metadata.annotations?.['kruise.io/podprobe']).toBe('[{"name":"healthy","containerName":"main","probe":{"exec":{"command":["bash","/data/probe.sh"]}},"podConditionType":"game.kruise.io/healthy"}]');
    expect(created.metadata.annotations?.['kruise.io/podprobemarker-list']).toBe('game');
    await env.waitReady(['game-0']);
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'game-0', namespace: env.ns } }, { status: { conditions: [{ type: 'game.kruise.io/healthy', status: 'True' }] } }, 'strategic', 'status');
    const marked = await eventually('game-0 marked healthy', async () => {
      const p = await pod('game-0');
      return p?.metadata.labels?.['game.kruise.io/healthy'] === 'true' ? p : undefined;
    });
    expect(marked.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost']).toBe('10');
    const status = await eventually('matchedPods', async () => (await env.kube.get<KubeObject & { status?: { matchedPods?: number } }>(PPM.apiVersion, PPM.kind, 'game', env.ns)).status?.matchedPods);
    expect(status).toBe(1);
  });

  it('on the Node loop, probes a pod over tcp itself: the condition and labels follow the server', async () => {
    const port = (server.address() as AddressInfo).port;
    await env.kube.create({
      ...PPM, metadata: { name: 'tcp', namespace: env.ns },
      spec: {
        selector: { matchLabels: { app: 'probed' } },
        probes: [{ name: 'serving', containerName: 'main', podConditionType: 'e2e.kruise.io/serving', probe: { tcpSocket: { port }, periodSeconds: 1 }, markerPolicy: [{ state: 'Succeeded', labels: { serving: 'true' } }, { state: 'Failed', labels: { down: 'true' } }] }],
      },
    } as KubeObject);
    await env.kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probed', namespace: env.ns, labels: { app: 'probed' } }, spec: { nodeName: BARE_NODE, automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probed', namespace: env.ns } }, {
      status: {
        phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }], conditions: [{ type: 'Initialized', status: 'True' }],
        containerStatuses: [{ name: 'main', ready: true, restartCount: 0, image: 'app:1', imageID: '', state: { running: { startedAt } } }],
      },
    }, 'strategic', 'status');
    const up = await eventually('probed is serving', async () => {
      const p = await pod('probed');
      return condition(p, 'e2e.kruise.io/serving')?.status === 'True' && p?.metadata.labels?.serving === 'true' ? p : undefined;
    });
    expect(up.metadata.labels?.down).toBeUndefined();
    server.close();
    const down = await eventually('probed is down', async () => {
      const p = await pod('probed');
      return condition(p, 'e2e.kruise.io/serving')?.status === 'False' && p?.metadata.labels?.down === 'true' ? p : undefined;
    });
    expect(condition(down, 'e2e.kruise.io/serving')?.message).toContain(`dial tcp 127.0.0.1:${port}`);
    expect(down.metadata.labels?.serving).toBeUndefined();
  });
});
