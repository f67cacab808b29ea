import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/http.js';
import { emptyPlan, type RunReport } from '../reconcile/types.js';
import { HandbackRecordError, handbackRecord, readRecord, recordConfigMap } from './handback-record.js';
import { plannedPodWrites } from './pod-writes.js';
import { checkKruiseStopped } from './preflight.js';
import { seedPlan } from './seeds.js';
import { sendSeeds } from './seed-ledgers.js';
import { TakeoverRefused } from './refused.js';
import { MemoryLedgers, type Ledgers } from '../edge-state/ledger.js';
import { pubLedgerKind, pubLedgerRef } from '../pub/ledger.js';
import { resyncReq } from '../pub/test-builders.js';
import { workloadSpreadLedgerKind } from '../workloadspread/ledger.js';

const report = (reconciler: string, plan = emptyPlan()): RunReport => ({ reconciler, acted: false, dryRun: true, plan, applied: 0, conflicts: 0, failed: [], apiCalls: 0, durationMs: 0 });

describe('preflight', () => {
  it('refuses while the manager wants replicas or still runs pods, saying why', () => {
    expect(checkKruiseStopped({ spec: { replicas: 2 } }, undefined)).toMatchObject({ ok: false, problems: [expect.stringContaining('wants 2 replica(s): scale it to 0 first')] });
    expect(checkKruiseStopped({ spec: { replicas: 0 }, status: { replicas: 1 } }, undefined)).toMatchObject({ ok: false, problems: [expect.stringContaining('1 pod(s) still run')] });
  });
  it('goes on with the manager at 0 or absent, and tells what kruise-daemon left running means', () => {
    const r = checkKruiseStopped({ spec: { replicas: 0 }, status: {} }, { status: { desiredNumberScheduled: 3 } });
    expect(r.ok).toBe(true);
    expect(r.notes.join('\n')).toContain('kruise-daemon runs on 3 node(s): it may stay');
    expect(checkKruiseStopped(undefined, undefined).ok).toBe(true);
  });
});

describe('the handback record', () => {
  const hook: KubeObject = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'kruise-mutating-webhook-configuration', resourceVersion: '9', uid: 'u', managedFields: [] } as KubeObject['metadata'] };
  const crd = (name: string, group: string, strategy: string): KubeObject => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name }, spec: { group, conversion: { strategy, webhook: { clientConfig: { service: { name: 'kruise-webhook-service', namespace: 'kruise-system' } } } } } } as KubeObject);

  it('keeps the webhook configurations without server fields and the kruise CRDs’ conversion webhooks, and reads back the same', () => {
    const record = handbackRecord([hook], [crd('daemonsets.apps.kruise.io', 'apps.kruise.io', 'Webhook'), crd('clonesets.apps.kruise.io', 'apps.kruise.io', 'None'), crd('things.example.com', 'example.com', 'Webhook')]);
    expect(record.webhookConfigurations[0]!.metadata).toEqual({ name: 'kruise-mutating-webhook-configuration' });
    expect(Object.keys(record.conversions)).toEqual(['daemonsets.apps.kruise.io']);
    expect(readRecord(recordConfigMap(record))).toEqual(record);
  });

  it('does not record our own conversion webhook (an edge URL, from an earlier takeover)', () => {
    const ours = { ...crd('daemonsets.apps.kruise.io', 'apps.kruise.io', 'Webhook'), spec: { group: 'apps.kruise.io', conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://edge.example/clusters/c/s/convert' } } } } } as KubeObject;
    expect(handbackRecord([], [ours]).conversions).toEqual({});
  });

  it('a missing or edited ConfigMap is a clear error', () => {
    expect(() => readRecord(undefined)).toThrow(HandbackRecordError);
    expect(() => readRecord({ apiVersion: 'v1', kind: 'ConfigMap', data: { 'crd-conversions.json': '[1]' } } as KubeObject)).toThrow(/cannot be read/);
  });
});

describe('the dry-run plan', () => {
  it('lists every pod write (create, patch, delete, status) with its reconciler, and nothing else', () => {
    const plan = emptyPlan();
    plan.writes.push(
      { op: 'patch', target: { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'ns' }, patchType: 'merge', patch: {}, reason: 'adopt' },
      { op: 'patch', target: { apiVersion: 'apps/v1', kind: 'ControllerRevision', name: 'r', namespace: 'ns' }, patchType: 'merge', patch: {}, reason: 'label' },
      { op: 'delete', target: { apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'ns' }, reason: 'scale in' },
    );
    plan.status.push({ target: { apiVersion: 'v1', kind: 'Pod', name: 'web-2', namespace: 'ns' }, status: {}, reason: 'in place' });
    const writes = plannedPodWrites([report('CloneSet'), report('StatefulSet', plan)]);
    expect(writes.map((w) => `${w.reconciler} ${w.op} ${w.pod}`)).toEqual(['StatefulSet patch ns/web-0', 'StatefulSet delete ns/web-1', 'StatefulSet status ns/web-2']);
    expect(plannedPodWrites([report('CloneSet')])).toEqual([]);
  });
});

describe('step 4: seeding the edge’s ledgers', () => {
  const at = new Date(Date.now() - 2_000).toISOString();
  const kruiseManager = [{ manager: 'kruise-manager', operation: 'Update', time: at, fieldsV1: { 'f:status': {} } }];
  const pubObj = (managedFields = kruiseManager): KubeObject => ({
    apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'web', namespace: 'ns', uid: 'uid-web', generation: 1, managedFields },
    spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
    status: { unavailableAllowed: 0, currentAvailable: 2, desiredAvailable: 2, totalReplicas: 3, disruptedPods: { 'web-0': at } },
  } as KubeObject);
  const wsObj = {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'ws', namespace: 'ns', uid: 'uid-ws' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b' }] },
    status: { versionedSubsetStatuses: { v1: [{ name: 'a', replicas: 1, missingReplicas: 0, creatingPods: { 'web-x': at } }, { name: 'b', replicas: 0, missingReplicas: -1 }] } },
  } as unknown as KubeObject;
  // Our edge resynced the PUB before OpenKruise admitted evicting web-0: one disruption allowed.
  const edgeWithPub = async () => {
    const ledgers = new MemoryLedgers([pubLedgerKind, workloadSpreadLedgerKind]);
    await ledgers.apply(pubLedgerRef('ns', 'web'), 'resync', resyncReq({ 'web-0': 'available', 'web-1': 'available', 'web-2': 'available' }, 2, { observedAt: Date.now() - 5_000 }));
    return ledgers;
  };
  const evict = { pub: 'web', pod: 'web-1', operation: 'EVICT', dryRun: false, podFromLedger: true, uid: 'uid-web' };

  it('lists what each status records, and plans one seed per PUB and WorkloadSpread with a status', () => {
    const plan = seedPlan([pubObj(), { ...pubObj(), metadata: { name: 'new', namespace: 'ns', uid: 'u2' }, status: undefined } as KubeObject], [wsObj]);
    expect(plan.lines).toEqual([
      '  PodUnavailableBudget ns/web: unavailableAllowed 0, in flight: web-0 (kept 20 s for a deletion, 10 s for an in-place update, or until the pod is gone)',
      '  PodUnavailableBudget ns/new: no status yet; the first resync counts its pods',
      '  WorkloadSpread ns/ws: 1 version(s), 1 creation(s) and 0 deletion(s) in flight',
    ]);
    expect(plan.seeds.map((s) => `${s.kind} ${s.ref.kind}/${s.ref.namespace}/${s.ref.name}`)).toEqual(['PodUnavailableBudget pub/ns/web', 'WorkloadSpread workloadspread/ns/ws']);
    const ours = seedPlan([pubObj([{ manager: 'kruise-serverless', operation: 'Update', time: at, fieldsV1: { 'f:status': {} } }])], []);
    expect(ours.seeds[0]).toMatchObject({ request: { ownStatus: true } });
  });

  it('merges OpenKruise’s drain into the ledger the edge holds, so the next eviction is refused, and says what it did', async () => {
    const ledgers = await edgeWithPub();
    expect(await ledgers.apply(pubLedgerRef('ns', 'web'), 'check', { ...evict, dryRun: true })).toMatchObject({ allowed: true });
    const lines: string[] = [];
    await sendSeeds(ledgers, seedPlan([pubObj()], [wsObj]).seeds, (l) => lines.push(l));
    expect(lines).toEqual([
      "  PodUnavailableBudget ns/web: merged into the edge's ledger (unavailableAllowed 1 → 0, added in flight: web-0)",
      '  WorkloadSpread ns/ws: seeded at the edge (version(s) v1 taken from status; creation(s) added: v1/a/web-x)',
    ]);
    expect(await ledgers.apply(pubLedgerRef('ns', 'web'), 'check', evict)).toMatchObject({ allowed: false, why: 'exhausted' });
  });

  it('an edge that cannot take the seeds, or none at all, stops the takeover saying why', async () => {
    const down: Ledgers = { apply: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')) };
    const seeds = seedPlan([pubObj()], []).seeds;
    await expect(sendSeeds(down, seeds, () => undefined)).rejects.toThrow(TakeoverRefused);
    await expect(sendSeeds(down, seeds, () => undefined)).rejects.toThrow(/PodUnavailableBudget ns\/web could not be seeded \(connect ECONNREFUSED 127.0.0.1:1\): nothing of ours is installed yet/);
    await expect(sendSeeds(undefined, seeds, () => undefined)).rejects.toThrow(/no edge to seed 1 ledger/);
    await expect(sendSeeds(undefined, [], () => undefined)).resolves.toBeUndefined();
  });
});
