// WorkloadSpread through the Node loop (watches as triggers, the full resync set to an hour so
// nothing here waits for it; the edge's ledgers through its API): pods that existed before their
// WorkloadSpread (support/workloadspread-existing-pods.ts).
// (test/e2e/workloadspread.test.ts checks the same with `reconcile --once` run between the steps.)
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { workloadSpreadFeature } from '../../src/workloadspread/index.js';
import { workloadSpreadReconciler } from '../../src/workloadspread/controller/reconciler.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { existingPodsCases, zoneNodes } from './support/workloadspread-existing-pods.js';

const { nodes } = zoneNodes('wsloop');
let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
/** Every run's report, in order. */
const reports: { scope: string; applied: number }[] = [];

beforeAll(async () => {
  env = await startEdgeEnv('wsloop', [workloadSpreadFeature]);
  await env.kubelet.addNodes(nodes);
  await env.resync(); // the install's push: nothing is configured yet
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [workloadSpreadReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: async (r, scope) => {
      const report = await runReconciler(env.kube, r, { scope, identity: `wsloop-${scope.kind}`, ledgers: remoteLedgers(env.edge) });
      reports.push({ scope: scope.kind === 'all' ? 'all' : scope.objects.map((o) => `${o.namespace}/${o.name}`).join(','), applied: report.applied });
      return report;
    },
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.kubelet.removeNodes(nodes.map((n) => n.name));
  await env?.dispose();
});

describe('WorkloadSpread through the Node loop: pods that existed before it', () => {
  existingPodsCases('wsloop', () => env, async (name) => {
    expect(reports.some((r) => r.applied > 0 && r.scope.split(',').includes(`${env.ns}/${name}`))).toBe(true);
  });
});
