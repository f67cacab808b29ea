import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/http.js';
import { emptyPlan, type RunReport } from '../reconcile/types.js';
import { HandbackRecordError, handbackRecord, readRecord, recordConfigMap } from './handback-record.js';
import { plannedPodWrites } from './pod-writes.js';
import { checkKruiseStopped } from './preflight.js';
import { seedLines } from './seeds.js';

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

describe('the ledgers’ seeds', () => {
  it('shows the disruptions in flight a PUB’s status records, and a WorkloadSpread’s entries', () => {
    const pub = { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'web', namespace: 'ns' }, status: { unavailableAllowed: 0, disruptedPods: { 'web-1': '2026-01-01T00:00:00Z' } } } as KubeObject;
    const ws = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'ws', namespace: 'ns' }, status: { subsetStatuses: [{ name: 'a', creatingPods: { p: 't' } }] } } as KubeObject;
    expect(seedLines([pub], [ws])).toEqual([
      '  PodUnavailableBudget ns/web: unavailableAllowed 0, in flight: web-1 (kept 20 s for a deletion, 10 s for an in-place update, or until the pod is gone)',
      '  WorkloadSpread ns/ws: 1 subset status(es), 1 creation(s) and 0 deletion(s) in flight adopted',
    ]);
  });
});
