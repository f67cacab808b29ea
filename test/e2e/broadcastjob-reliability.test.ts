// BroadcastJob reliability end to end: the controller run through the runtime, killed at a random
// API call while a job over 6 nodes with parallelism 2 runs, and run again until the job completes,
// for 10 seeds (a new job each). Between runs the pods are sampled: never a second pod on a node
// (pods here never need replacing, so every pod ever seen counts), never more than 2 active; at
// the end the job is complete, with one Complete condition and the right counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastJobFeature } from '../../src/broadcastjob/index.js';
import { broadcastJobReconciler } from '../../src/broadcastjob/controller/reconciler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { RunReport, Scope } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { killableKube, type KillTarget } from './support/killable.js';
import { bcjOf, jobOf, nodeOf, podLine, podsOf, poolNodes, runToEnd } from './support/broadcastjob.js';

let env: EdgeEnv;
const NODES = Array.from({ length: 6 }, (_, i) => `bcjrel-${i + 1}`);
beforeAll(async () => {
  env = await startEdgeEnv('bcjrel', [broadcastJobFeature]);
  await env.kubelet.addNodes(poolNodes('rel', NODES));
});
afterAll(async () => {
  await env?.kubelet.removeNodes(NODES).catch(() => undefined);
  await env?.dispose();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PARALLELISM = 2;

describe('a run killed at a random API call', () => {
  it('a 6-node job with parallelism 2 completes after the kill, for 10 seeds: one pod per node, never more than 2 active', async () => {
    const found: string[] = [];
    const kills: string[] = [];
    let runs = 0;
    let seed = 11;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let s = 0; s < 10; s++) {
      const name = `rel-${s}`;
      const scope: Scope = { kind: 'objects', objects: [{ namespace: env.ns, name }] };
      const target: KillTarget = s % 2 ? 'pod/PVC write' : 'any call';
      const killAt = 1 + Math.floor(rand() * (target === 'any call' ? 30 : 6));
      const afterSend = rand() < 0.5;
      const what = `seed ${s} (kill at ${target} ${killAt}${afterSend ? ', answer lost' : ', not sent'})`;
      await env.kube.create(bcjOf(env.ns, name, { pool: 'rel', spec: { parallelism: PARALLELISM } }));
      const doomed = await killableKube(killAt, target, afterSend);
      const done = runToEnd(env.kube, env.kubelet, env.ns, name);
      const seen = new Map<string, Set<string>>();
      const deadline = Date.now() + 60_000;
      try {
        for (;;) {
          const dying = doomed.state.killed === undefined;
          let report: RunReport | undefined;
          try {
            report = await runReconciler(dying ? doomed.kube : env.kube, broadcastJobReconciler, { scope, identity: `bcjrel-${++runs}`, leaseDurationSeconds: 2 });
          } catch (e) {
            if (!dying || doomed.state.killed === undefined) throw e;
          }
          const killedNow = dying && doomed.state.killed !== undefined;
          if (killedNow) kills.push(`${what}: ${doomed.state.killed}`);
          const pods = await podsOf(env.kube, env.ns, name);
          for (const p of pods) seen.set(nodeOf(p), new Set([...(seen.get(nodeOf(p)) ?? []), p.metadata.uid!]));
          const active = pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata.deletionTimestamp);
          const at = `${what}, after run ${runs}${killedNow ? ' (the killed one)' : ''}`;
          for (const [node, uids] of seen) if (uids.size > 1) found.push(`${at}: ${uids.size} pods on ${node}`);
          if (active.length > PARALLELISM) found.push(`${at}: ${active.length} active pods: ${active.map(podLine).join(', ')}`);
          const j = await jobOf(env.kube, env.ns, name);
          if (j?.status?.phase === 'completed') {
            const complete = (j.status.conditions ?? []).filter((c) => c.type === 'Complete');
            if (complete.length !== 1 || j.status.succeeded !== NODES.length || j.status.desired !== NODES.length || j.status.active !== 0) found.push(`${what}: completed with ${JSON.stringify(j.status)}`);
            break;
          }
          if (Date.now() > deadline) throw new Error(`${what}: not complete in 60 s\n${[...found, ...kills].join('\n')}\n${pods.map(podLine).join('\n')}\n${JSON.stringify(j?.status)}`);
          if (!report?.applied) await pause(40);
        }
      } finally {
        await done.stop();
        doomed.kube.close();
      }
      if (doomed.state.killed === undefined) found.push(`${what}: completed before the kill (${doomed.state.counted} counted calls)`);
      for (const n of NODES) if (seen.get(n)?.size !== 1) found.push(`${what}: node ${n} ran ${seen.get(n)?.size ?? 0} pods`);
    }
    console.log(`kills:\n${kills.join('\n')}`);
    expect(found, `the kills:\n${kills.join('\n')}`).toEqual([]);
  }, 240_000);
});
