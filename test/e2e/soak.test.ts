// The soak in CI: the system as `npm start` runs it (startSystem) under 3 minutes of churn with a
// 10 s push period, and the edge restarted (its state lost) in the middle. Outside the restart no
// admission may be refused because the edge's state went stale, no collection may go two periods
// without a push, and after the restart the edge is re-pushed within a period, no pod creation is
// refused and no budget overspent (an eviction while the budget is unknown may be refused: by design).
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startSystem, type System } from '../../scripts/system.js';
import { formatReport, runSoak } from '../../scripts/soak/run.js';
import './provided.js';

const PERIOD_SECONDS = 10;
let system: System | undefined;
const log = (m: string) => process.stderr.write(`[soak] ${m}\n`);

beforeAll(async () => {
  system = await startSystem({ kubeconfig: inject('kubeconfig'), resyncSeconds: PERIOD_SECONDS, relay: true, log: (m) => (/^reconcile: .* applied, /.test(m) ? undefined : log(m)) });
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

it('3 minutes of churn over 5 namespaces, the edge restarted once: no refusal for staleness, no push gap over two periods', async () => {
  const report = await runSoak(system!, { minutes: 3, periodSeconds: PERIOD_SECONDS, namespaces: 5, chaos: ['edge-restarted'], log });
  process.stderr.write(`${formatReport(report)}\n`);
  expect(report.stalenessOutsideChaos, report.staleExamples.join('\n')).toBe(0);
  expect(report.worstPushGapMs).toBeLessThanOrEqual(2 * PERIOD_SECONDS * 1000);
  expect(report.chaos.map((v) => [v.case, v.ok])).toEqual([['edge-restarted', true]]);
}, 480_000);
