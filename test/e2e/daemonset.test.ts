// Advanced DaemonSet end to end on a real API server, fake nodes and a fake kubelet: its webhooks
// on the production Worker, and its controller through the Node loop (watches as triggers, the
// full resync set to an hour so that nothing here waits for it). Users' steps follow each other
// with no sleep and no push in between; tests wait with `eventually`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { daemonSetReconciler } from '../../src/daemonset/controller/reconciler.js';
import { daemonSetRevisionData } from '../../src/daemonset/revisions.js';
import type { StoredDaemonSet as DaemonSet } from '../../src/daemonset/types.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { deniedBy } from './support/disrupt.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually, kubectl } from './support/kube.js';
import { ADS, POOL, daemonSetOf, dsOf, live, nodeOf, placementViolations, podLine, podsOf, rolledOut, type DsObj } from './support/daemonset.js';

const VKRUISE = 'vkruise.kruise-serverless.io';
let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('ads', [daemonSetFeature]);
  await env.resync(); // the install's first push, as `npm start` and `install` make before the webhooks go live
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [daemonSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ads-loop-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const seed = (file: string): DsObj => {
  const obj = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as DsObj;
  return { ...obj, metadata: { ...obj.metadata, namespace: env.ns } };
};
const pods = (name: string) => podsOf(env.kube, env.ns, name);
const ds = (name: string) => dsOf(env.kube, env.ns, name);
const ref = (name: string): KubeObject => ({ ...ADS, metadata: { name, namespace: env.ns } });
/** A new image for the first container, the rest of it unchanged (a merge patch replaces the whole list). */
const image = async (name: string, img: string) => {
  const containers = ((await ds(name)).spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers;
  return env.kube.patch(ref(name), { spec: { template: { spec: { containers: [{ ...containers[0], image: img }, ...containers.slice(1)] } } } });
};
const nodesOf = (pool: string, n: number) => Array.from({ length: n }, (_, i) => `ads-${pool}-${i + 1}`);
const addPool = (pool: string, names: string[]) => env.kubelet.addNodes(names.map((name) => ({ name, labels: { [POOL]: pool } })));
const nodeRef = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });

/** Waits until every node in `nodes` runs exactly one available pod at `img`, with status to match. */
const waitRolledOut = (name: string, nodes: readonly string[], img: string, ms = 60_000) =>
  eventually(`${name}: ${nodes.length} pods at ${img}`, () => rolledOut(env.kube, env.ns, name, nodes, img), ms, 50).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${(await pods(name)).map(podLine).join('\n')}\n${JSON.stringify((await ds(name)).status)}`);
  });

describe('the Advanced DaemonSet webhooks', () => {
  it('default as OpenKruise: RollingUpdate Standard, maxUnavailable 1, maxSurge 0, burstReplicas 250, revisionHistoryLimit 10; Surging becomes Standard with maxSurge 1', async () => {
    const plain = await env.kube.create(daemonSetOf(env.ns, 'defaulted', { pool: 'none' }));
    expect(plain.spec).toMatchObject({ burstReplicas: 250, revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } } });
    const surging = await env.kube.create(daemonSetOf(env.ns, 'surging', { pool: 'none', rollingUpdate: { rollingUpdateType: 'Surging' } }));
    expect(surging.spec).toMatchObject({ updateStrategy: { rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 } } });
  });

  it('refuse as OpenKruise: 500 on create with the field errors, 422 on an update of a fixed field', async () => {
    const bad = daemonSetOf(env.ns, 'mismatch', { pool: 'none' });
    (bad.spec as { selector: unknown }).selector = { matchLabels: { app: 'other' } };
    expect(await attempt(env.kube.create(bad))).toBe(`500 ${deniedBy(VKRUISE, 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"mismatch"}: `selector` does not match template `labels`')}`);
    const surge = daemonSetOf(env.ns, 'surge-inplace', { pool: 'none', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxSurge: 1, maxUnavailable: 0 } });
    expect(await attempt(env.kube.create(surge))).toBe(`500 ${deniedBy(VKRUISE, 'spec.updateStrategy.rollingUpdate.maxSurge: Required value: must be 0 for InPlaceIfPossible type')}`);
    const both = daemonSetOf(env.ns, 'both', { pool: 'none', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } });
    expect(await attempt(env.kube.create(both))).toBe(`500 ${deniedBy(VKRUISE, 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero')}`);
    expect(await attempt(env.kube.patch(ref('defaulted'), { spec: { selector: { matchLabels: { app: 'defaulted', x: 'y' } }, template: { metadata: { labels: { app: 'defaulted', x: 'y' } } } } })))
      .toBe(`422 ${deniedBy(VKRUISE, "spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle',  'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden")}`);
    for (const name of ['defaulted', 'surging']) await env.kube.delete(ref(name));
  });
});

describe('seed 002: the Advanced DaemonSet examples', () => {
  it('03 then 04: a pod on every node with the columns kubectl shows; a node-label selector updates only that node’s pod', async () => {
    const nodes = (await env.kube.list<KubeObject>('v1', 'Node')).items.map((n) => n.metadata!.name!).sort();
    const t0 = Date.now();
    await env.kube.create(seed('002-daemonset-rolling-update-standard.yaml'));
    await waitRolledOut('nginx', nodes, 'nginx:1.7.9');
    const t1 = Date.now();
    // kubectl get daemon: the printer columns.
    const table = await kubectl('get', 'daemon', 'nginx', '-n', env.ns);
    console.log(`seed 03: ${nodes.length} pods ready ${t1 - t0} ms after the create; kubectl get daemon took ${Date.now() - t1} ms`);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE/);
    expect(table.split('\n')[1]).toMatch(new RegExp(`^nginx\\s+${nodes.length}\\s+${nodes.length}\\s+${nodes.length}\\s+${nodes.length}\\s+${nodes.length}\\s`));
    const before = new Map(live(await pods('nginx')).map((p) => [nodeOf(p), p.metadata.name]));
    // 04: the canary node's hostname in rollingUpdate.selector, and the image changed.
    const canary = 'ads-node-a';
    const next = seed('002-daemonset-rolling-update-node-selector.yaml');
    const spec = next.spec as { updateStrategy: { rollingUpdate: { selector: { matchLabels: Record<string, string> } } } };
    spec.updateStrategy.rollingUpdate.selector.matchLabels['kubernetes.io/hostname'] = canary;
    await env.kube.patch(ref('nginx'), { spec: next.spec });
    const t2 = Date.now();
    const done = await eventually('only the canary node updated', async () => {
      const s = (await ds('nginx')).status;
      const now = live(await pods('nginx'));
      return s?.updatedNumberScheduled === 1 && s.numberAvailable === nodes.length && now.length === nodes.length ? now : undefined;
    }, 30_000, 50);
    console.log(`seed 04: the canary node's pod replaced ${Date.now() - t2} ms after the apply`);
    for (const p of done) {
      if (nodeOf(p) === canary) {
        expect(p.spec?.containers[0]!.image).toBe('nginx');
        expect(p.metadata.name).not.toBe(before.get(canary));
      } else expect(p.metadata.name).toBe(before.get(nodeOf(p)));
    }
    const events = (await env.kube.list<KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string } }>('v1', 'Event', { namespace: env.ns })).items.filter((e) => e.involvedObject?.name === 'nginx');
    expect(events.map((e) => `${e.reason}: ${e.message}`)).toEqual(expect.arrayContaining([`SuccessfulDelete: Deleted pod: ${before.get(canary)}`, expect.stringMatching(/^SuccessfulCreate: Created pod: nginx-/)]));
    await env.kube.delete(ref('nginx'), { propagationPolicy: 'Foreground' });
    await eventually('nginx gone', async () => ((await env.kube.list('v1', 'Pod', { namespace: env.ns, labelSelector: 'k8s-app=nginx' })).items.length === 0 ? true : undefined), 30_000, 100);
  });

  it('05: InPlaceIfPossible changes the image in place: the same pods, restarted once, an in-place Event each', async () => {
    const nodes = (await env.kube.list<KubeObject>('v1', 'Node')).items.map((n) => n.metadata!.name!).sort();
    await env.kube.create(seed('002-daemonset-inplace-update.yaml'));
    await waitRolledOut('nginx-inplace', nodes, 'nginx:1.7.9');
    const before = new Map(live(await pods('nginx-inplace')).map((p) => [p.metadata.name, p.metadata.uid]));
    for (const p of live(await pods('nginx-inplace'))) expect(p.spec?.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
    await image('nginx-inplace', 'nginx');
    await waitRolledOut('nginx-inplace', nodes, 'nginx');
    const after = live(await pods('nginx-inplace'));
    expect(new Map(after.map((p) => [p.metadata.name, p.metadata.uid]))).toEqual(before);
    for (const p of after) expect(p.status?.containerStatuses?.[0]?.restartCount).toBe(1);
    const events = (await env.kube.list<KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string } }>('v1', 'Event', { namespace: env.ns })).items.filter((e) => e.involvedObject?.name === 'nginx-inplace' && e.reason === 'SuccessfulUpdatePodInPlace');
    expect(events.map((e) => e.message).join(' ')).toContain('in-place');
    await env.kube.delete(ref('nginx-inplace'), { propagationPolicy: 'Foreground' });
    await eventually('nginx-inplace gone', async () => ((await env.kube.list('v1', 'Pod', { namespace: env.ns, labelSelector: 'k8s-app=nginx' })).items.length === 0 ? true : undefined), 30_000, 100);
  });

  it('partition 10 and paused: nothing is updated, a new node still gets its pod; unpaused, partition keeps that many old', async () => {
    const nodes = nodesOf('part', 3);
    await addPool('part', nodes.slice(0, 2));
    const obj = seed('002-daemonset-partition-paused.yaml');
    const spec = obj.spec as { template: { spec: Record<string, unknown> }; updateStrategy: Record<string, unknown> };
    spec.template.spec.nodeSelector = { [POOL]: 'part' };
    spec.updateStrategy = { type: 'RollingUpdate' };
    await env.kube.create(obj);
    await waitRolledOut('sample-ds-partition', nodes.slice(0, 2), 'nginx:alpine');
    await env.kube.patch(ref('sample-ds-partition'), { spec: { updateStrategy: { rollingUpdate: { partition: 10, paused: true } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } } } });
    await addPool('part', [nodes[2]!]);
    const added = await eventually('the new node’s pod', async () => live(await pods('sample-ds-partition')).find((p) => nodeOf(p) === nodes[2] && p.status?.phase === 'Running'), 30_000, 50);
    expect(added.spec?.containers[0]!.image).toBe('nginx:2');
    await eventually('status: 3 nodes, 1 updated', async () => {
      const st = (await ds('sample-ds-partition')).status;
      return st?.desiredNumberScheduled === 3 && st.currentNumberScheduled === 3 && st.updatedNumberScheduled === 1 ? st : undefined;
    }, 30_000, 50);
    expect(live(await pods('sample-ds-partition')).filter((p) => p.spec?.containers[0]!.image === 'nginx:alpine')).toHaveLength(2);
    // Unpaused with partition 1 of 3: one more node updated, one stays old.
    await env.kube.patch(ref('sample-ds-partition'), { spec: { updateStrategy: { rollingUpdate: { partition: 1, paused: false } } } });
    await eventually('2 of 3 updated', async () => {
      const st = (await ds('sample-ds-partition')).status;
      return st?.updatedNumberScheduled === 2 && st.numberAvailable === 3 ? true : undefined;
    }, 30_000, 50);
    expect(live(await pods('sample-ds-partition')).filter((p) => p.spec?.containers[0]!.image === 'nginx:alpine')).toHaveLength(1);
  });
});

describe('daemonset.kruise.io/progressive-create-pod', () => {
  it('partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', async () => {
    const nodes = nodesOf('prog', 3);
    await addPool('prog', nodes);
    const obj = seed('002-daemonset-partition-paused.yaml');
    const spec = obj.spec as { template: { spec: Record<string, unknown> }; updateStrategy: Record<string, unknown> };
    spec.template.spec.nodeSelector = { [POOL]: 'prog' };
    spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } };
    await env.kube.create({ ...obj, metadata: { ...obj.metadata, name: 'progressive', annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' } } });
    await eventually('status: 3 desired, 1 scheduled', async () => {
      const st = (await ds('progressive')).status;
      return st?.desiredNumberScheduled === 3 && st.currentNumberScheduled === 1 ? st : undefined;
    }, 30_000, 50);
    expect(live(await pods('progressive')).map(nodeOf)).toEqual([nodes[0]]);
    await env.kube.patch(ref('progressive'), { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await waitRolledOut('progressive', nodes, 'nginx:alpine');
  });
});

describe('nodes', () => {
  it('a node added, relabelled, tainted, cordoned: pods follow at once (no resync runs)', async () => {
    const name = 'trig';
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'trig' }));
    const [n1, n2, n3] = nodesOf('trig', 3) as [string, string, string];
    const on = async (node: string) => live(await pods(name)).filter((p) => nodeOf(p) === node);
    const t0 = Date.now();
    await addPool('trig', [n1]);
    await eventually('a pod on the new node', async () => ((await on(n1)).length === 1 ? true : undefined), 10_000, 20);
    console.log(`node added → its pod created: ${Date.now() - t0} ms`);
    // Relabelled out of the pool: the pod goes; back in: it comes back.
    await env.kube.patch(nodeRef(n1), { metadata: { labels: { [POOL]: 'elsewhere' } } });
    await eventually('the pod gone', async () => ((await on(n1)).length === 0 ? true : undefined), 10_000, 20);
    await env.kube.patch(nodeRef(n1), { metadata: { labels: { [POOL]: 'trig' } } });
    await eventually('the pod back', async () => ((await on(n1)).length === 1 ? true : undefined), 10_000, 20);
    // A NoSchedule taint keeps a running pod; NoExecute evicts it.
    await env.kube.patch(nodeRef(n1), { spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] } });
    await addPool('trig', [n2]);
    await eventually('a pod on the second node', async () => ((await on(n2)).length === 1 ? true : undefined), 10_000, 20);
    expect(await on(n1)).toHaveLength(1);
    await env.kube.patch(nodeRef(n1), { spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoExecute' }] } });
    await eventually('the NoExecute node’s pod gone', async () => ((await on(n1)).length === 0 ? true : undefined), 10_000, 20);
    // A cordoned node still runs daemon pods (the native daemon tolerations).
    await env.kubelet.addNodes([{ name: n3, labels: { [POOL]: 'trig' } }]);
    await env.kube.patch(nodeRef(n3), { spec: { unschedulable: true } });
    await eventually('a running pod on the cordoned node', async () => ((await on(n3)).some((p) => p.status?.phase === 'Running') ? true : undefined), 10_000, 20);
    const s = await eventually('status', async () => {
      const st = (await ds(name)).status;
      // The status is written from what a run observed; the run after the NoExecute pod is gone counts it out.
      return st?.desiredNumberScheduled === 2 && st.numberAvailable === 2 && st.numberMisscheduled === 0 ? st : undefined;
    }, 10_000, 50);
    expect(s).toMatchObject({ currentNumberScheduled: 2, numberMisscheduled: 0, numberUnavailable: 0 });
    await env.kubelet.removeNodes([n1, n2, n3]);
  });

  it('a node that disappears mid-rollout does not wedge it', async () => {
    const name = 'gone';
    const nodes = nodesOf('gone', 4);
    await addPool('gone', nodes);
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'gone' }));
    await waitRolledOut(name, nodes, 'app:1');
    await image(name, 'app:2');
    await env.kubelet.removeNodes([nodes[0]!]);
    // The deleted node's pod is left to the pod GC; the other three nodes finish the rollout.
    await eventually('3 nodes updated and available', async () => {
      const s = (await ds(name)).status;
      const rest = live(await pods(name)).filter((p) => nodeOf(p) !== nodes[0]);
      return s?.desiredNumberScheduled === 3 && s.updatedNumberScheduled === 3 && s.numberAvailable === 3 && rest.length === 3 && rest.every((p) => p.spec?.containers[0]!.image === 'app:2') ? true : undefined;
    }, 30_000, 50);
  });
});

describe('rolling updates', () => {
  it('maxSurge: the new pod first, the old one gone once it is ready — never two of one revision on a node, no old pod left (kruise#1012)', async () => {
    const name = 'surge';
    const nodes = nodesOf('surge', 3);
    await addPool('surge', nodes);
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'surge', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }));
    await waitRolledOut(name, nodes, 'app:1');
    const found: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const now = await pods(name);
        found.push(...placementViolations(now, 2));
        const down = nodes.filter((n) => !live(now).some((p) => nodeOf(p) === n && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')));
        if (down.length) found.push(`nodes without a ready pod: ${down.join(' ')}`);
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    await image(name, 'app:2');
    await waitRolledOut(name, nodes, 'app:2');
    await image(name, 'app:3');
    await waitRolledOut(name, nodes, 'app:3');
    sampling = false;
    await sampler;
    expect(found).toEqual([]);
  });

  it('the preDelete hook holds a pod in PreparingDelete until the user’s label is gone', async () => {
    const name = 'hooked';
    const [node] = nodesOf('hook', 1) as [string];
    await addPool('hook', [node]);
    await env.kube.create(daemonSetOf(env.ns, name, { pool: 'hook', extra: { lifecycle: { preDelete: { labelsHandler: { 'example.com/hold': 'true' } } } } }));
    await waitRolledOut(name, [node], 'app:1');
    const [pod] = live(await pods(name)) as [Pod];
    await env.kube.patch(pod, { metadata: { labels: { 'example.com/hold': 'true' } } });
    await image(name, 'app:2');
    await eventually('PreparingDelete', async () => ((await env.kube.get<Pod>('v1', 'Pod', pod.metadata.name, env.ns)).metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingDelete' ? true : undefined), 10_000, 20);
    expect((await env.kube.get<Pod>('v1', 'Pod', pod.metadata.name, env.ns)).metadata.deletionTimestamp).toBeUndefined();
    await env.kube.patch(pod, { metadata: { labels: { 'example.com/hold': null } } });
    await waitRolledOut(name, [node], 'app:2');
  });
});

describe('revisions and labels', () => {
  it('a revision holding the same template bytes is reused under its own name: a DaemonSet OpenKruise ran does not roll', async () => {
    const name = 'takeover';
    const [node] = nodesOf('take', 1) as [string];
    await addPool('take', [node]);
    const obj = daemonSetOf(env.ns, name, { pool: 'take', annotations: { 'deprecated.daemonset.template.generation': '3' } });
    // The revision as OpenKruise left it (its spew-based hash cannot be computed here; any name does).
    const data = JSON.parse(daemonSetRevisionData(obj as unknown as DaemonSet)) as unknown;
    await env.kube.create({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: `${name}-5d8f9c7b6`, namespace: env.ns, labels: { app: name, 'controller-revision-hash': '5d8f9c7b6' } }, data, revision: 1 });
    await env.kube.create(obj);
    const done = await waitRolledOut(name, [node], 'app:1');
    expect(done.status?.daemonSetHash).toBe('5d8f9c7b6');
    const [pod] = live(await pods(name)) as [Pod];
    expect(pod.metadata.labels).toMatchObject({ 'controller-revision-hash': '5d8f9c7b6', 'pod-template-generation': '3' });
    // The template changes: the generation annotation goes up, as the apps/v1 API server does it.
    const revisions = (await env.kube.list<KubeObject & { revision: number; metadata: { ownerReferences?: { uid: string }[] } }>('apps/v1', 'ControllerRevision', { namespace: env.ns, labelSelector: `app=${name}` })).items;
    expect(revisions.map((r) => r.metadata.name)).toEqual([`${name}-5d8f9c7b6`]);
    expect(revisions[0]!.metadata.ownerReferences?.[0]?.uid).toBe(done.metadata.uid);
    // A new template: a new revision named with the engine's FNV hash, pods follow.
    await image(name, 'app:2');
    const next = await waitRolledOut(name, [node], 'app:2');
    expect(next.status?.daemonSetHash).not.toBe('5d8f9c7b6');
    expect(next.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('4');
    expect(live(await pods(name))[0]!.metadata.labels?.['pod-template-generation']).toBe('4');
    expect(await env.kube.get('apps/v1', 'ControllerRevision', `${name}-${next.status!.daemonSetHash}`, env.ns)).toMatchObject({ revision: 2 });
  });
});

describe('migration from apps/v1', () => {
  it('a native DaemonSet deleted with propagationPolicy Orphan and re-created as an Advanced one: its pods are adopted, not restarted', async () => {
    const name = 'migrated';
    const nodes = nodesOf('mig', 2);
    await addPool('mig', nodes);
    const advanced = daemonSetOf(env.ns, name, { pool: 'mig' });
    const native = { ...advanced, apiVersion: 'apps/v1', spec: { ...advanced.spec, updateStrategy: { type: 'RollingUpdate' } } };
    const nativeRef = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace: env.ns } };
    await env.kube.create(native);
    type NativePod = Pod & { metadata: { uid: string; ownerReferences?: { uid: string }[] } };
    const nativePods = await eventually(`${name}: the native DaemonSet's pods ready`, async () => {
      const ps = (await env.kube.list<NativePod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${name}` })).items;
      return ps.length === 2 && ps.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ? ps : undefined;
    }, 60_000);
    const nativeHash = nativePods[0]!.metadata.labels?.['controller-revision-hash'];
    // kubectl-kruise migrate copies the stored template, with the API server's pod defaults: the
    // revision data is then byte-equal and the native revision is reused (OpenKruise defaults no
    // template field, so a hand-written copy would make a new revision).
    const stored = await env.kube.get<DsObj>('apps/v1', 'DaemonSet', name, env.ns);
    const migrated = { ...advanced, spec: { ...advanced.spec, template: stored.spec.template } };
    // kubectl delete --cascade=orphan: the DaemonSet goes once the garbage collector has orphaned its pods.
    await env.kube.delete(nativeRef, { propagationPolicy: 'Orphan' });
    await eventually(`${name}: the native DaemonSet gone`, async () => ((await env.kube.get('apps/v1', 'DaemonSet', name, env.ns).catch(() => undefined)) ? undefined : true), 30_000);
    await env.kube.create(migrated);
    const done = await waitRolledOut(name, nodes, 'app:1');
    expect(done.status?.daemonSetHash).toBe(nativeHash);
    const after = (await pods(name)) as NativePod[];
    expect(after.map((p) => p.metadata.uid).sort()).toEqual(nativePods.map((p) => p.metadata.uid).sort());
    expect(after.every((p) => p.metadata.ownerReferences?.[0]?.uid === done.metadata.uid)).toBe(true);
  });
});
