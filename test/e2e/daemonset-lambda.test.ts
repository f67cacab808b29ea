// Advanced DaemonSet on the Lambda path: every reconcile runs in the production Lambda handler,
// triggered as AWS triggers it — the ObjectChanged events the Worker publishes when it admits the
// DaemonSet, a Node (the node observer) or a status change of one of its pods, and the SQS
// wake-ups runs ask for. Users act with no sleep and no push in between; the one-minute schedule
// never fires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Pod } from './support/edge-env.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';
import { ADS, POOL, daemonSetOf, dsOf, live, nodeOf, placementViolations, podLine, podsOf, rolledOut } from './support/daemonset.js';

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('adsl', [daemonSetFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

const NODES = ['adsl-pool-1', 'adsl-pool-2'];
const ref = (name: string): KubeObject => ({ ...ADS, metadata: { name, namespace: env.ns } });
const runsOf = (name: string) => lambda.summaries.flatMap((s) => s.runs.filter((r) => r.reconciler === 'DaemonSet' && (r.scope === 'all' || r.scope.some((o) => o.endsWith(`/${name}`)))));
const waitRolledOut = (name: string, nodes: readonly string[], img: string) =>
  eventually(`${name}: ${nodes.length} pods at ${img}`, () => rolledOut(env.kube, env.ns, name, nodes, img), 60_000, 50).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${(await podsOf(env.kube, env.ns, name)).map(podLine).join('\n')}\n${JSON.stringify((await dsOf(env.kube, env.ns, name)).status)}`);
  });

describe('Advanced DaemonSet through the Lambda', () => {
  it('created: a pod per node and the status, written by the Lambda', async () => {
    await env.kubelet.addNodes(NODES.map((name) => ({ name, labels: { [POOL]: 'lam' } })));
    await env.kube.create(daemonSetOf(env.ns, 'lam', { pool: 'lam', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 } }));
    await waitRolledOut('lam', NODES, 'app:1');
    expect(runsOf('lam').some((r) => r.acted && r.applied > 0)).toBe(true);
  });

  it('a node added, then tainted NoExecute: its pod comes and goes from the node observer’s events, with the SQS wake-ups stalled', async () => {
    lambda.stallWakeUps(true);
    try {
      const started = Date.now();
      await env.kubelet.addNodes([{ name: 'adsl-pool-3', labels: { [POOL]: 'lam' } }]);
      await eventually('a pod on the new node', async () => (live(await podsOf(env.kube, env.ns, 'lam')).some((p) => nodeOf(p) === 'adsl-pool-3') ? true : undefined), 10_000, 20);
      console.log(`node added → its pod created through the Lambda: ${Date.now() - started} ms`);
      expect(lambda.published).toContainEqual(expect.objectContaining({ apiVersion: 'v1', kind: 'Node', name: 'adsl-pool-3' }));
      await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'adsl-pool-3' } }, { spec: { taints: [{ key: 'gone', effect: 'NoExecute' }] } });
      await eventually('the pod gone from the tainted node', async () => (live(await podsOf(env.kube, env.ns, 'lam')).some((p) => nodeOf(p) === 'adsl-pool-3') ? undefined : true), 10_000, 20);
    } finally {
      lambda.stallWakeUps(false);
      await env.kubelet.removeNodes(['adsl-pool-3']);
    }
  });

  it('an image change under InPlaceIfPossible completes in place, driven by its pods’ status events (the 3 s wake-ups stay as the net)', async () => {
    const before = new Map(live(await podsOf(env.kube, env.ns, 'lam')).filter((p) => NODES.includes(nodeOf(p))).map((p) => [p.metadata.name, p.metadata.uid]));
    const started = Date.now();
    await env.kube.patch(ref('lam'), { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } } });
    await waitRolledOut('lam', NODES, 'app:2');
    const timeline = lambda.finished.filter((f) => f.at >= started).map((f) => `+${f.at - started} ms ${f.summary.trigger} ${f.summary.runs.map((r) => `${r.reconciler} acted=${r.acted} applied=${r.applied}`).join(' ')}`);
    const events = lambda.received.filter((e) => e.at >= started).map((e) => `+${e.at - started} ms ${String(e.detail.kind)} ${String(e.detail.reason)}`);
    console.log(`in-place rollout of 2 nodes through the Lambda: ${Date.now() - started} ms\nevents:\n  ${events.join('\n  ')}\ninvocations:\n  ${timeline.join('\n  ')}`);
    const after = live(await podsOf(env.kube, env.ns, 'lam'));
    expect(new Map(after.map((p) => [p.metadata.name, p.metadata.uid]))).toEqual(before);
    expect(lambda.received.filter((e) => e.at >= started && e.detail.kind === 'DaemonSet' && e.detail.reason === 'pod-status').length).toBeGreaterThan(0);
  });

  it('maxSurge with a node selector, then partition, then paused: each step as the Node loop does it, no old pod left beside an available new one', async () => {
    const name = 'lsurge';
    const nodes = ['adsl-surge-1', 'adsl-surge-2', 'adsl-surge-3'];
    await env.kubelet.addNodes(nodes.map((n) => ({ name: n, labels: { [POOL]: 'lsurge', ...(n.endsWith('-1') ? { canary: 'yes' } : {}) } })));
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'lsurge', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }));
    await waitRolledOut(name, nodes, 'app:1');
    const found: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        found.push(...placementViolations(await podsOf(env.kube, env.ns, name), 2));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    const images = async () => Object.fromEntries(live(await podsOf(env.kube, env.ns, name)).map((p) => [nodeOf(p), p.spec?.containers[0]!.image]));
    // Only the canary node.
    await env.kube.patch(ref(name), { spec: { updateStrategy: { rollingUpdate: { selector: { matchLabels: { canary: 'yes' } } } }, template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } } });
    await eventually('the canary updated', async () => {
      const s = (await dsOf(env.kube, env.ns, name)).status;
      const now = await images();
      return s?.updatedNumberScheduled === 1 && s.numberAvailable === 3 && Object.keys(now).length === 3 && now['adsl-surge-1'] === 'app:2' ? now : undefined;
    }, 30_000, 50);
    // No selector, partition 1: two of three updated (the canary, then the highest name: the lowest other node stays old).
    await env.kube.patch(ref(name), { spec: { updateStrategy: { rollingUpdate: { selector: null, partition: 1 } } } });
    const partitioned = await eventually('2 of 3 updated', async () => {
      const s = (await dsOf(env.kube, env.ns, name)).status;
      const now = await images();
      return s?.updatedNumberScheduled === 2 && s.numberAvailable === 3 && Object.keys(now).length === 3 && Object.values(now).filter((i) => i === 'app:1').length === 1 ? now : undefined;
    }, 30_000, 50);
    expect(Object.values(partitioned).sort()).toEqual(['app:1', 'app:2', 'app:2']);
    // Paused: a new node still gets its pod, at the current revision; nothing else moves.
    await env.kube.patch(ref(name), { spec: { updateStrategy: { rollingUpdate: { partition: 0, paused: true } } } });
    await env.kubelet.addNodes([{ name: 'adsl-surge-4', labels: { [POOL]: 'lsurge' } }]);
    await eventually('the new node’s pod', async () => ((await images())['adsl-surge-4'] === 'app:2' ? true : undefined), 30_000, 50);
    expect(Object.values(await images()).filter((i) => i === 'app:1')).toHaveLength(1);
    await env.kube.patch(ref(name), { spec: { updateStrategy: { rollingUpdate: { paused: false } } } });
    await waitRolledOut(name, [...nodes, 'adsl-surge-4'], 'app:2');
    sampling = false;
    await sampler;
    expect(found).toEqual([]);
    await env.kubelet.removeNodes([...nodes, 'adsl-surge-4']);
  });

  it('the preDelete hook, and a node deleted mid-rollout', async () => {
    const name = 'lhook';
    const nodes = ['adsl-hook-1', 'adsl-hook-2', 'adsl-hook-3'];
    await env.kubelet.addNodes(nodes.map((n) => ({ name: n, labels: { [POOL]: 'lhook' } })));
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'lhook', extra: { lifecycle: { preDelete: { labelsHandler: { 'example.com/hold': 'true' } } } } }));
    await waitRolledOut(name, nodes, 'app:1');
    const held = live(await podsOf(env.kube, env.ns, name)).find((p) => nodeOf(p) === 'adsl-hook-3')!;
    await env.kube.patch(held, { metadata: { labels: { 'example.com/hold': 'true' } } });
    await env.kube.patch(ref(name), { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } } });
    await eventually('PreparingDelete', async () => ((await env.kube.get<Pod>('v1', 'Pod', held.metadata.name, env.ns)).metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingDelete' ? true : undefined), 30_000, 50);
    // A node goes away while the held pod blocks the rollout; releasing the hook lets the rest finish.
    await env.kubelet.removeNodes(['adsl-hook-1']);
    await env.kube.patch(held, { metadata: { labels: { 'example.com/hold': null } } });
    await waitRolledOut(name, nodes.slice(1), 'app:2');
    await env.kubelet.removeNodes(nodes.slice(1));
  });

  it('daemonset.kruise.io/progressive-create-pod: partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', async () => {
    const name = 'lprog';
    const nodes = ['adsl-prog-1', 'adsl-prog-2', 'adsl-prog-3'];
    await env.kubelet.addNodes(nodes.map((n) => ({ name: n, labels: { [POOL]: 'lprog' } })));
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'lprog', rollingUpdate: { partition: 2 }, annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' } }));
    await eventually('status: 3 desired, 1 scheduled', async () => {
      const st = (await dsOf(env.kube, env.ns, name)).status;
      return st?.desiredNumberScheduled === 3 && st.currentNumberScheduled === 1 ? st : undefined;
    }, 30_000, 50);
    expect(live(await podsOf(env.kube, env.ns, name)).map(nodeOf)).toEqual([nodes[0]]);
    await env.kube.patch(ref(name), { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await waitRolledOut(name, nodes, 'app:1');
    expect(runsOf(name).some((r) => r.acted && r.applied > 0)).toBe(true);
    await env.kubelet.removeNodes(nodes);
  });
});
