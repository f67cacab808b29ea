// Advanced DaemonSet reliability end to end: the controller run through the runtime, killed at a
// random API call in the middle of a rollout over 6 nodes, and run again until the rollout
// converges, for 20 seeds cycling through Standard with maxUnavailable 2, InPlaceIfPossible with
// maxUnavailable 2, and maxSurge 2. Between runs the pods are sampled: never two live pods of one
// revision on a node, never more pods on a node than surge allows, never more nodes without an
// available pod than maxUnavailable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { daemonSetReconciler } from '../../src/daemonset/controller/reconciler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { RunReport, Scope } from '../../src/reconcile/types.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { killableKube, type Doomed, type KillTarget } from './support/killable.js';
import { ADS, POOL, daemonSetOf, live, nodeOf, placementViolations, podAvailable, podLine, podsOf, rolledOut } from './support/daemonset.js';

let env: EdgeEnv;
const NODES = Array.from({ length: 6 }, (_, i) => `adsrel-${i + 1}`);
beforeAll(async () => {
  env = await startEdgeEnv('adsrel', [daemonSetFeature]);
  await env.kubelet.addNodes(NODES.map((name) => ({ name, labels: { [POOL]: 'rel' } })));
});
afterAll(async () => {
  await env?.kubelet.removeNodes(NODES).catch(() => undefined);
  await env?.dispose();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NAME = 'rel';
const scopeOf = (): Scope => ({ kind: 'objects', objects: [{ namespace: env.ns, name: NAME }] });

const STRATEGIES = [
  { label: 'Standard, maxUnavailable 2', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 2, maxSurge: 0 }, maxUnavailable: 2, maxPerNode: 1 },
  { label: 'InPlaceIfPossible, maxUnavailable 2', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2, maxSurge: 0 }, maxUnavailable: 2, maxPerNode: 1 },
  { label: 'maxSurge 2', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 0, maxSurge: 2 }, maxUnavailable: 0, maxPerNode: 2 },
];

describe('a run killed at a random API call', () => {
  it('a 6-node rollout converges after the kill, for 20 seeds, within maxUnavailable, never two pods of one revision per node beyond surge', async () => {
    await env.kube.create(daemonSetOf(env.ns, NAME, { pool: 'rel', rollingUpdate: STRATEGIES[1]!.rollingUpdate }));
    const found: string[] = [];
    const kills: string[] = [];
    let runs = 0;
    const runUntil = async (what: string, image: string, limits: { maxUnavailable: number; maxPerNode: number }, doomed?: Doomed) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const dying = doomed !== undefined && doomed.state.killed === undefined;
        let report: RunReport | undefined;
        try {
          report = await runReconciler(dying ? doomed.kube : env.kube, daemonSetReconciler, { scope: scopeOf(), identity: `adsrel-${++runs}`, leaseDurationSeconds: 2 });
        } catch (e) {
          if (!dying || doomed.state.killed === undefined) throw e;
        }
        const killedNow = dying && doomed.state.killed !== undefined;
        if (killedNow) kills.push(`${what}: ${doomed.state.killed}`);
        const pods = await podsOf(env.kube, env.ns, NAME);
        const down = NODES.filter((n) => !live(pods).some((p) => nodeOf(p) === n && podAvailable(p)));
        const v = [...placementViolations(pods, limits.maxPerNode), ...(down.length > limits.maxUnavailable ? [`${down.length} nodes without an available pod (max ${limits.maxUnavailable}): ${down.join(' ')}`] : [])];
        found.push(...v.map((x) => `${what}, after run ${runs}${killedNow ? ' (the killed one)' : ''}: ${x}`));
        if (await rolledOut(env.kube, env.ns, NAME, NODES, image)) return;
        if (Date.now() > deadline) throw new Error(`${what}: no convergence in 60 s\n${[...found, ...kills].join('\n')}\n${(await podsOf(env.kube, env.ns, NAME)).map(podLine).join('\n')}`);
        if (!report?.applied) await pause(40);
      }
    };

    await runUntil('setup', 'app:1', { maxUnavailable: NODES.length, maxPerNode: 1 });
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let s = 0; s < 20; s++) {
      const strategy = STRATEGIES[s % STRATEGIES.length]!;
      const image = `app:${s + 2}`;
      // A DaemonSet has no PVCs: 'pod/PVC write' counts its pod writes.
      const target: KillTarget = s % 2 ? 'pod/PVC write' : 'any call';
      const killAt = 1 + Math.floor(rand() * (target === 'any call' ? 60 : 8));
      const afterSend = rand() < 0.5;
      const what = `seed ${s} (${strategy.label}, ${image}, kill at ${target} ${killAt})`;
      await env.kube.patch({ ...ADS, metadata: { name: NAME, namespace: env.ns } } as KubeObject, { spec: { updateStrategy: { rollingUpdate: strategy.rollingUpdate }, template: { spec: { containers: [{ name: 'main', image }] } } } });
      const doomed = await killableKube(killAt, target, afterSend);
      try {
        await runUntil(what, image, strategy, doomed);
      } finally {
        doomed.kube.close();
      }
      if (doomed.state.killed === undefined) found.push(`${what}: converged before the kill (${doomed.state.counted} counted calls)`);
    }
    console.log(`kills:\n${kills.join('\n')}`);
    expect(found, `the kills:\n${kills.join('\n')}`).toEqual([]);
  }, 240_000);
});
