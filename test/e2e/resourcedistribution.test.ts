// ResourceDistribution end to end on a real API server: the reconciler (through the runtime,
// with leases), the garbage collector for deletion, the validating webhook through the Node
// adapter, kills at random points, concurrent invocations, the Lambda handler with real
// EventBridge event shapes, and the Node loop reacting to a watch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { resourceDistributionReconciler } from '../../src/resourcedistribution/reconciler.js';
import { resourceDistributionFeature } from '../../src/resourcedistribution/index.js';
import { ANNOTATION_FROM, ANNOTATION_HASH, ANNOTATION_TIMESTAMP } from '../../src/resourcedistribution/types.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { runLoop } from '../../src/reconcile/loop.js';
import type { RunReport, Scope } from '../../src/reconcile/types.js';
import { makeReconcileHandler } from '../../src/aws/reconcile-handler.js';
import { startNodeServer } from '../../functions/node/server.js';
import { sha256Hex } from '../../src/edge-state/auth.js';
import { webhookEndpoints } from '../../src/registry.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists } from '../../src/kube/errors.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './support/kube.js';
import { caPem, localServingCert } from './support/tls.js';

const kc = testKubeConfig();
const RD = 'apps.kruise.io/v1alpha1';
let kube: KubeHttp;
const namespaces: string[] = [];
let lease = 0;

type ConfigMap = KubeObject & { data?: Record<string, string>; metadata: { name: string; namespace: string; annotations?: Record<string, string>; labels?: Record<string, string>; ownerReferences?: { kind: string; name: string; uid: string }[]; resourceVersion: string } };
type Rd = KubeObject & { metadata: { name: string; uid: string; generation: number }; status?: { desired?: number; succeeded?: number; failed?: number; observedGeneration?: number; conditions?: { type: string; status: string; failedNamespace?: string[] }[] } };

/** A run through the runtime, with a short lease so killed runs are taken over quickly. */
const run = (scope: Scope = { kind: 'all' }, identity = `e2e-${++lease}`, k: KubeHttp = kube): Promise<RunReport> =>
  runReconciler(k, resourceDistributionReconciler, { scope, identity, leaseDurationSeconds: 2 });

async function ns(prefix: string, labels: Record<string, string> = {}): Promise<string> {
  const name = await createNamespace(kc, prefix, labels);
  namespaces.push(name);
  return name;
}

function rd(name: string, targets: Record<string, unknown>, data: Record<string, string> = { color: 'blue' }, resourceName = `${name}-cm`) {
  return { apiVersion: RD, kind: 'ResourceDistribution', metadata: { name }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: resourceName }, data }, targets } };
}

const copies = async (name: string): Promise<ConfigMap[]> =>
  (await kube.list<ConfigMap>('v1', 'ConfigMap', { fieldSelector: `metadata.name=${name}` })).items.filter((c) => namespaces.includes(c.metadata.namespace));
const readRd = (name: string) => kube.get<Rd>(RD, 'ResourceDistribution', name);
const cleanup: KubeObject[] = [];

beforeAll(async () => {
  kube = await testKube();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
});

afterAll(async () => {
  for (const o of cleanup) await kube.delete(o).catch(() => undefined);
  for (const n of namespaces) await deleteNamespace(kc, n);
  await uninstallClusterSide(kube).catch(() => undefined);
  kube.close();
});

describe('ResourceDistribution reconciler', () => {
  let a = '', b = '', c = '', missing = '';
  const name = 'rd-targets';
  beforeAll(async () => {
    a = await ns('rd-a', { group: 'rd-e2e' });
    b = await ns('rd-b', { group: 'rd-e2e' });
    c = await ns('rd-c', { group: 'rd-e2e' });
    missing = `rd-missing-${Date.now()}`;
    const obj = rd(name, { includedNamespaces: { list: [{ name: a }, { name: missing }] }, namespaceLabelSelector: { matchLabels: { group: 'rd-e2e' } }, excludedNamespaces: { list: [{ name: c }] } });
    cleanup.push(obj);
    await kube.create(obj);
  });

  it('copies the resource into every target namespace, with OpenKruise annotations and an owner reference', async () => {
    const report = await run();
    expect(report.acted).toBe(true);
    expect(report.failed).toEqual([]);
    const got = await copies(`${name}-cm`);
    expect(got.map((x) => x.metadata.namespace).sort()).toEqual([a, b].sort());
    const owner = await readRd(name);
    for (const cm of got) {
      expect(cm.data).toEqual({ color: 'blue' });
      expect(cm.metadata.annotations?.[ANNOTATION_FROM]).toBe(name);
      expect(cm.metadata.annotations?.[ANNOTATION_HASH]).toMatch(/^[0-9a-f]{64}$/);
      expect(cm.metadata.annotations?.[ANNOTATION_TIMESTAMP]).toBeTruthy();
      expect(cm.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ResourceDistribution', name, uid: owner.metadata.uid })]);
    }
  });

  it('reports desired/succeeded/failed, the missing namespace, and observedGeneration', async () => {
    const status = (await readRd(name)).status!;
    expect(status).toMatchObject({ desired: 3, succeeded: 2, failed: 1, observedGeneration: 1 });
    const notExists = status.conditions?.find((x) => x.type === 'NamespaceNotExists');
    expect(notExists?.failedNamespace).toEqual([missing]);
  });

  it('does nothing when nothing changed', async () => {
    const before = (await copies(`${name}-cm`)).map((x) => x.metadata.resourceVersion).sort();
    const report = await run();
    expect(report.plan.writes).toEqual([]);
    expect((await copies(`${name}-cm`)).map((x) => x.metadata.resourceVersion).sort()).toEqual(before);
  });

  it('updates copies when the resource changes, and only then', async () => {
    await kube.patch({ apiVersion: RD, kind: 'ResourceDistribution', metadata: { name } }, { spec: { resource: { data: { color: 'green' } } } });
    const report = await run();
    expect(report.plan.writes.filter((w) => w.op === 'update')).toHaveLength(2);
    for (const cm of await copies(`${name}-cm`)) expect(cm.data).toEqual({ color: 'green' });
    expect((await readRd(name)).status?.observedGeneration).toBe(2);
  });

  it('removes copies from namespaces that stop matching and picks up new ones', async () => {
    await kube.patch({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: b } }, { metadata: { labels: { group: 'elsewhere' } } });
    const d = await ns('rd-d', { group: 'rd-e2e' });
    await run();
    expect((await copies(`${name}-cm`)).map((x) => x.metadata.namespace).sort()).toEqual([a, d].sort());
  });

  it('never overwrites a same-named resource it did not create, and reports the conflict', async () => {
    const e = await ns('rd-e', { group: 'rd-e2e' });
    await kube.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-cm`, namespace: e }, data: { mine: 'yes' } });
    await run();
    const foreign = await kube.get<ConfigMap>('v1', 'ConfigMap', `${name}-cm`, e);
    expect(foreign.data).toEqual({ mine: 'yes' });
    const conflict = (await readRd(name)).status?.conditions?.find((x) => x.type === 'ConflictOccurred');
    expect(conflict?.failedNamespace).toContain(e);
  });

  it('is cleaned up by the garbage collector when the ResourceDistribution is deleted', async () => {
    await kube.delete({ apiVersion: RD, kind: 'ResourceDistribution', metadata: { name } }, { propagationPolicy: 'Background' });
    await eventually('copies garbage-collected', async () => ((await copies(`${name}-cm`)).filter((x) => x.metadata.annotations?.[ANNOTATION_FROM] === name).length === 0 ? true : undefined), 60_000, 250);
  });

  it('distributes to all namespaces but kube-system and kube-public with allNamespaces', async () => {
    const obj = rd('rd-all', { allNamespaces: true }, { k: 'v' }, 'rd-all-cm');
    cleanup.push(obj);
    await kube.create(obj);
    await run();
    const all = (await kube.list<ConfigMap>('v1', 'ConfigMap', { fieldSelector: 'metadata.name=rd-all-cm' })).items.map((x) => x.metadata.namespace);
    expect(all).not.toContain('kube-system');
    expect(all).not.toContain('kube-public');
    expect(all).toContain('default');
    expect(all).toEqual(expect.arrayContaining(namespaces.slice(0, 1)));
    await kube.delete(obj);
  });
});

describe('convergence', () => {
  it('converges from a run killed at a random point, for 20 seeds, with nothing duplicated or lost', async () => {
    const targets = [await ns('rd-kill-1', { kill: 'yes' }), await ns('rd-kill-2', { kill: 'yes' }), await ns('rd-kill-3', { kill: 'yes' })];
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let s = 0; s < 20; s++) {
      const name = `rd-kill-${s}`;
      const obj = rd(name, { namespaceLabelSelector: { matchLabels: { kill: 'yes' } } }, { seed: String(s) });
      cleanup.push(obj);
      await kube.create(obj);
      // The killed invocation: after a random number of API calls, every further call fails —
      // sometimes before the request is sent, sometimes after it was applied (response lost).
      const k = await testKube();
      const limit = 1 + Math.floor(rand() * 14);
      const afterSend = rand() < 0.5;
      let calls = 0;
      const original = k.request.bind(k);
      k.request = (async (method: string, path: string, init?: object) => {
        calls += 1;
        if (calls > limit) {
          if (afterSend) await original(method, path, init);
          throw new Error('killed');
        }
        return original(method, path, init);
      }) as typeof k.request;
      await run({ kind: 'all' }, `killed-${s}`, k).catch(() => undefined);
      k.close();
      // The next invocation takes over once the killed one's 2 s lease expires, and converges.
      await eventually(`seed ${s} converged`, async () => {
        const report = await run();
        if (!report.acted) return undefined;
        const got = await copies(`${name}-cm`);
        const status = (await readRd(name)).status;
        return got.length === 3 && status?.succeeded === 3 ? { got, status } : undefined;
      }, 20_000, 500).then(({ got }) => {
        expect(got.map((x) => x.metadata.namespace).sort()).toEqual([...targets].sort());
        for (const cm of got) expect(cm.data).toEqual({ seed: String(s) });
      });
      await kube.delete(obj);
    }
  }, 300_000);

  it('two concurrent invocations never both act', async () => {
    const t = await ns('rd-conc', { conc: 'yes' });
    const obj = rd('rd-conc', { namespaceLabelSelector: { matchLabels: { conc: 'yes' } } });
    cleanup.push(obj);
    await kube.create(obj);
    const k2 = await testKube();
    const [r1, r2] = await Promise.all([run({ kind: 'all' }, 'conc-1'), run({ kind: 'all' }, 'conc-2', k2)]);
    k2.close();
    expect([r1.acted, r2.acted].filter(Boolean)).toHaveLength(1);
    expect((await copies('rd-conc-cm')).map((x) => x.metadata.namespace)).toEqual([t]);
  });
});

describe('triggers', () => {
  it('the Lambda handler runs on a scheduled event and on an ObjectChanged event', async () => {
    const t = await ns('rd-lambda', { lambda: 'yes' });
    const obj = rd('rd-lambda', { namespaceLabelSelector: { matchLabels: { lambda: 'yes' } } });
    cleanup.push(obj);
    await kube.create(obj);
    const handler = makeReconcileHandler({
      reconcilers: [resourceDistributionReconciler], clusterId: 'e2e-cluster',
      run: (r, scope) => runReconciler(kube, r, { scope, identity: `lambda-${++lease}` }),
    });
    const scheduled = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'scheduled-event.json'), 'utf8')) as Record<string, unknown>;
    const out1 = (await handler(scheduled as never, {} as never)) as { ok: boolean; runs: { acted: boolean }[] };
    expect(out1.ok).toBe(true);
    expect(out1.runs[0]?.acted).toBe(true);
    expect((await copies('rd-lambda-cm')).map((x) => x.metadata.namespace)).toEqual([t]);

    await kube.patch({ apiVersion: RD, kind: 'ResourceDistribution', metadata: { name: 'rd-lambda' } }, { spec: { resource: { data: { color: 'red' } } } });
    const changed = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'object-changed-event.json'), 'utf8')) as { detail: Record<string, unknown> };
    const event = { ...changed, detail: { ...changed.detail, clusterId: 'e2e-cluster', apiVersion: RD, kind: 'ResourceDistribution', name: 'rd-lambda' } };
    delete (event.detail as { namespace?: string }).namespace;
    const out2 = (await handler(event as never, {} as never)) as { ok: boolean; runs: { acted: boolean; scope: unknown }[] };
    expect(out2.ok).toBe(true);
    expect(out2.runs).toHaveLength(1);
    expect((await copies('rd-lambda-cm'))[0]?.data).toEqual({ color: 'red' });
  });

  it('the Node loop reacts to a spec change through its watch, not its timer', async () => {
    const t = await ns('rd-loop', { loop: 'yes' });
    const obj = rd('rd-loop', { namespaceLabelSelector: { matchLabels: { loop: 'yes' } } });
    cleanup.push(obj);
    await kube.create(obj);
    const stop = new AbortController();
    const loop = runLoop({
      kube, reconcilers: [resourceDistributionReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
      run: (r, scope) => runReconciler(kube, r, { scope, identity: `loop-${++lease}`, leaseDurationSeconds: 5 }),
    });
    try {
      await eventually('first copy', async () => ((await copies('rd-loop-cm')).length === 1 ? true : undefined), 20_000);
      await kube.patch({ apiVersion: RD, kind: 'ResourceDistribution', metadata: { name: 'rd-loop' } }, { spec: { resource: { data: { color: 'watched' } } } });
      await eventually('copy updated by a watch-triggered run', async () => ((await copies('rd-loop-cm'))[0]?.data?.color === 'watched' ? true : undefined), 20_000);
      const late = await ns('rd-loop-late', { loop: 'yes' });
      await eventually('new namespace picked up (trigger kind)', async () => ((await copies('rd-loop-cm')).some((x) => x.metadata.namespace === late) ? true : undefined), 20_000);
      expect((await copies('rd-loop-cm')).map((x) => x.metadata.namespace).sort()).toEqual([t, late].sort());
    } finally {
      stop.abort();
      await loop;
    }
  });
});

describe('validating webhook (Node adapter)', () => {
  it('rejects an invalid ResourceDistribution through the API server', async () => {
    const secret = 'd'.repeat(64);
    const registryJson = JSON.stringify([{ clusterId: 'e2e-cluster', webhookSecrets: [{ sha256: await sha256Hex(secret) }], syncTokens: [] }]);
    const tls = localServingCert();
    const server = await startNodeServer({ clusterId: 'e2e-cluster', registryJson, tlsCert: tls.cert, tlsKey: tls.key, port: 0, kubeconfigPath: inject('kubeconfig'), features: [resourceDistributionFeature] });
    try {
      await applyClusterSide(kube, renderClusterSide({ baseUrl: server.url, clusterId: 'e2e-cluster', secret, caBundle: caPem(), endpoints: webhookEndpoints([resourceDistributionFeature]), crds: [] }));
      const bad = { ...rd('rd-bad', {}), spec: { resource: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, targets: {} } };
      await expect(kube.create(bad)).rejects.toThrow(/denied the request/);
      const good = rd('rd-good', { includedNamespaces: { list: [{ name: 'default' }] } });
      cleanup.push(good);
      await kube.create(good);
    } finally {
      await uninstallClusterSide(kube).catch(() => undefined);
      await server.close();
    }
  });
});
