// `npm run bench:daemonset`: an image change over 50 fake nodes, Advanced DaemonSet
// InPlaceIfPossible (our controller on the Node loop, in this process, its client counted) against
// a native apps/v1 DaemonSet (kube-controller-manager), both with maxUnavailable 10% and the same
// pod template, one after the other on the same quiet control plane ("bench-daemonset", its own,
// stopped at the end). Per rollout: wall time from the spec change to every node's pod running the
// new image and Ready, the status catching up, the controller's API writes per pod and the pods
// recreated. The native controller's writes are the API server's count (apiserver_request_total)
// less the writers we can count (the fake kubelet, this process's own client, our loop), the
// scheduler's (pods/binding, events.k8s.io) and the API server's own (endpoints). Goal (printed,
// never asserted): Advanced DaemonSet wall time ≤ 0.5× the native one.
import { join } from 'node:path';
import { KubeHttp, type KubeObject } from '../src/kube/http.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { installCrds } from '../src/kube/crds.js';
import { readCrdManifests } from '../src/kube/crd-manifests.js';
import { isAlreadyExists } from '../src/kube/errors.js';
import { daemonSetReconciler } from '../src/daemonset/controller/reconciler.js';
import { runLoop } from '../src/reconcile/loop.js';
import { runReconciler } from '../src/reconcile/runner.js';
import { HeldLeases } from '../src/reconcile/lease.js';
import { REPO_ROOT, startControlPlane, stopControlPlane } from '../test/cluster/control-plane.js';
import { FakeKubelet } from '../test/cluster/fake-kubelet.js';
import { apiserverRequests, countRequests, describeWrites, isWriteKey, minus, total, writesOf, type Tally } from './cloneset-counting.js';
import { IMAGE, createNamespace, podTemplate, sleep, until, type Pod } from './cloneset-cluster.js';

const CONTROL_PLANE = 'bench-daemonset';
const NODES = 50;
const MAX_UNAVAILABLE = '10%';
const TIMEOUT_MS = 300_000;
const SETTLE_MS = 3_000;
const GOAL = 0.5;

const started = performance.now();
const log = (m: string) => process.stderr.write(`[bench:daemonset ${((performance.now() - started) / 1000).toFixed(process.env.KS_BENCH_TRACE === '1' ? 2 : 0).padStart(4)} s] ${m}\n`);

type Workload = { label: string; controller: string; ns: string; object: KubeObject };
type Result = { label: string; controller: string; wallMs: number; statusMs: number; recreated: number; writes: Tally };

const ads = (ns: string, image: string): Workload => ({
  label: 'Advanced DaemonSet InPlaceIfPossible', controller: 'ours, Node loop', ns,
  object: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: podTemplate('agent', image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: MAX_UNAVAILABLE } } } },
});
const native = (ns: string, image: string): Workload => ({
  label: 'apps/v1 DaemonSet', controller: 'kube-controller-manager', ns,
  object: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: podTemplate('agent', image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE } } } },
});

const runs = (p: Pod, image: string) => p.spec.containers[0]?.image === image && p.status?.containerStatuses?.find((s) => s.name === 'main')?.image === image;
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const podsOf = async (kube: KubeHttp, ns: string) => (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: 'app=agent' })).items;
const done = (pods: Pod[], image: string) => pods.length === NODES && pods.every((p) => !p.metadata.deletionTimestamp && runs(p, image) && ready(p));

type Status = { observedGeneration?: number; desiredNumberScheduled?: number; updatedNumberScheduled?: number; numberAvailable?: number };
async function statusDone(kube: KubeHttp, w: Workload): Promise<boolean> {
  const got = await kube.get<KubeObject & { metadata: { generation?: number }; status?: Status }>(w.object.apiVersion!, w.object.kind!, 'agent', w.ns);
  const s = got.status ?? {};
  return (s.observedGeneration ?? 0) >= (got.metadata.generation ?? 0) && s.desiredNumberScheduled === NODES && s.updatedNumberScheduled === NODES && s.numberAvailable === NODES;
}

await stopControlPlane(CONTROL_PLANE);
const cp = await startControlPlane(CONTROL_PLANE, log);
const kubeconfig = loadKubeConfig(cp.kubeconfig);
const kube = await KubeHttp.fromKubeConfig(kubeconfig);
const own = countRequests(kube);
const kubeletKube = await KubeHttp.fromKubeConfig(kubeconfig);
const kubeletTally = countRequests(kubeletKube);
const loopKube = await KubeHttp.fromKubeConfig(kubeconfig);
const loopTally = countRequests(loopKube);
const kubelet = new FakeKubelet(kubeletKube, 100);
const stop = new AbortController();
let loop: Promise<void> | undefined;
const results: Result[] = [];
try {
  await installCrds(kube, readCrdManifests(join(REPO_ROOT, 'infra', 'crds')));
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
  await kubelet.addNodes(Array.from({ length: NODES }, (_, i) => ({ name: `ds-node-${String(i).padStart(2, '0')}` })));
  kubelet.start();
  const held = new HeldLeases();
  loop = runLoop({
    kube: loopKube, reconcilers: [daemonSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(loopKube, r, { scope, identity: 'bench-ads', heldLeases: held }),
    log: (m) => log(`[loop] ${m}`),
    // KS_BENCH_TRACE=1: one line per run (when it ended, how long, what it wrote).
    onReport: (r, scope) => process.env.KS_BENCH_TRACE === '1' && log(`[run] ${scope.kind} ${r.durationMs} ms, ${r.apiCalls} calls, ${r.applied} applied, ${r.conflicts} conflicts`),
  });
  for (const make of [ads, native]) {
    const ns = `bench-${make === ads ? 'ads' : 'native'}`;
    await createNamespace(kube, ns);
    const w = make(ns, IMAGE(1));
    const t0 = performance.now();
    await kube.create(w.object);
    await until(`${w.label}: ${NODES} ready pods`, async () => (done(await podsOf(kube, ns), IMAGE(1)) && (await statusDone(kube, w)) ? true : undefined), TIMEOUT_MS, 200);
    log(`${w.label}: ${NODES} pods ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await sleep(SETTLE_MS);
    const uids = new Set((await podsOf(kube, ns)).map((p) => p.metadata.uid));
    const before = { api: await apiserverRequests(kube), kubelet: { ...kubeletTally }, own: { ...own }, loop: { ...loopTally } };
    const t1 = performance.now();
    await kube.patch(w.object, [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: IMAGE(2) }], 'json');
    let wallMs = 0;
    await until(`${w.label}: ${NODES} pods at the new image`, async () => {
      const pods = await podsOf(kube, ns);
      if (!wallMs && done(pods, IMAGE(2))) wallMs = performance.now() - t1;
      return wallMs && (await statusDone(kube, w)) ? true : undefined;
    }, TIMEOUT_MS, 50);
    const statusMs = performance.now() - t1;
    const pods = await podsOf(kube, ns);
    await sleep(SETTLE_MS);
    const after = { api: await apiserverRequests(kube), kubelet: { ...kubeletTally }, own: { ...own }, loop: { ...loopTally } };
    const ours = writesOf(minus(after.loop, before.loop));
    const others = (k: string) => k === 'POST pods/binding' || k.includes('events.k8s.io/') || / endpoints$/.test(k);
    const apiWrites = writesOf(minus(after.api, before.api));
    const attributed = Object.fromEntries(Object.entries(minus(minus(minus(minus(apiWrites, writesOf(minus(after.kubelet, before.kubelet))), writesOf(minus(after.own, before.own))), ours), {})).filter(([k, v]) => !others(k) && v > 0));
    results.push({ label: w.label, controller: w.controller, wallMs, statusMs, recreated: pods.filter((p) => !uids.has(p.metadata.uid)).length, writes: make === ads ? ours : attributed });
    log(`${w.label}: rolled out in ${(wallMs / 1000).toFixed(1)} s`);
  }
} finally {
  stop.abort();
  await loop?.catch(() => undefined);
  await kubelet.stop();
  kube.close();
  kubeletKube.close();
  loopKube.close();
  await stopControlPlane(CONTROL_PLANE, true);
}

const [a, n] = results as [Result, Result];
const allWrites = (t: Tally) => total(t, isWriteKey);
const podWrites = (t: Tally) => total(t, (k) => / pods(\/status)?$/.test(k));
console.log(`\nAdvanced DaemonSet vs apps/v1 DaemonSet: image change over ${NODES} fake nodes, maxUnavailable ${MAX_UNAVAILABLE} (kube-apiserver ${'1.20.2'}, fake kubelet)`);
console.log('workload                              controller                wall s  status s  recreated  writes  per pod  pod/pod');
for (const r of results) {
  console.log(`${r.label.padEnd(38)}${r.controller.padEnd(26)}${(r.wallMs / 1000).toFixed(1).padStart(6)}  ${(r.statusMs / 1000).toFixed(1).padStart(8)}  ${String(r.recreated).padStart(9)}  ${String(allWrites(r.writes)).padStart(6)}  ${(allWrites(r.writes) / NODES).toFixed(2).padStart(7)}  ${(podWrites(r.writes) / NODES).toFixed(2).padStart(7)}`);
}
for (const r of results) console.log(`  ${r.label} writes by resource: ${describeWrites(r.writes)}`);
const ratio = a.wallMs / n.wallMs;
console.log(`\nratio (Advanced DaemonSet / apps/v1 wall time): ${ratio.toFixed(2)}× — goal ≤ ${GOAL}×: ${ratio <= GOAL ? 'met' : 'NOT met'}`);
