import { describe, expect, it } from 'vitest';
import { decideUnitedDeployments } from './decide.js';
import type { UnitedDeploymentObserved } from './observe.js';
import type { UnitedDeploymentLike, Workload } from '../types.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const ud = (over: Partial<UnitedDeploymentLike['spec']> = {}): UnitedDeploymentLike => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'UnitedDeployment',
  metadata: { name: 'sample-ud', namespace: 'ns', uid: 'u-1', generation: 1, resourceVersion: '5' },
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'sample' } },
    template: { statefulSetTemplate: { metadata: { labels: { app: 'sample' } }, spec: { template: { metadata: { labels: { app: 'sample' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } } } },
    topology: { subsets: [{ name: 'subset-a', replicas: 1 }, { name: 'subset-b', replicas: '50%' }, { name: 'subset-c' }] },
    ...over,
  },
});
const observed = (u: UnitedDeploymentLike, workloads: Workload[] = []): UnitedDeploymentObserved => ({ uds: [u], workloadsByOwner: new Map([['u-1', workloads]]), pods: [], revisions: [] });

describe('decideUnitedDeployments', () => {
  it('creates the revision and one workload per subset, under the same names on every run', () => {
    const plan = decideUnitedDeployments(observed(ud()), NOW);
    const creates = plan.writes.filter((w) => w.op === 'create');
    expect(creates.map((w) => (w.op === 'create' ? `${w.object.kind} ${String(w.object.metadata?.name)} ${String((w.object as unknown as Workload).spec?.replicas ?? '')}` : ''))).toEqual([
      expect.stringMatching(/^ControllerRevision sample-ud-\w+ $/),
      expect.stringMatching(/^StatefulSet sample-ud-subset-a-\w{5} 1$/),
      expect.stringMatching(/^StatefulSet sample-ud-subset-b-\w{5} 3$/),
      expect.stringMatching(/^StatefulSet sample-ud-subset-c-\w{5} 2$/),
    ]);
    const again = decideUnitedDeployments(observed(ud()), NOW).writes.map((w) => (w.op === 'create' ? w.object.metadata?.name : ''));
    expect(again).toEqual(creates.map((w) => (w.op === 'create' ? w.object.metadata?.name : '')));
    expect(plan.events).toEqual([expect.objectContaining({ type: 'Normal', reason: 'SuccessfulUpdateSubset', message: 'Create 3 Subset (StatefulSet)' })]);
  });

  it('keeps one workload per subset and deletes duplicates and workloads of subsets removed', () => {
    const first = decideUnitedDeployments(observed(ud()), NOW).writes.flatMap((w) => (w.op === 'create' && w.object.kind === 'StatefulSet' ? [w.object as unknown as Workload] : []));
    const stored = first.map((w, i) => ({ ...w, metadata: { ...w.metadata, uid: `w-${i}`, resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' } }));
    const dup = { ...stored[0]!, metadata: { ...stored[0]!.metadata, name: 'sample-ud-subset-a-zzzzz', uid: 'w-dup' } };
    const u = ud({ topology: { subsets: [{ name: 'subset-a', replicas: 1 }, { name: 'subset-b' }] } });
    const plan = decideUnitedDeployments(observed(u, [...stored, dup]), NOW);
    const deletes = plan.writes.filter((w) => w.op === 'delete' && w.target.kind === 'StatefulSet').map((w) => (w.op === 'delete' ? w.target.name : ''));
    expect(deletes.sort()).toEqual(['sample-ud-subset-a-zzzzz', stored[2]!.metadata.name].sort());
    expect(plan.writes.filter((w) => w.op === 'create' && w.object.kind === 'StatefulSet')).toEqual([]);
  });

  it('warns, and writes nothing to the subsets, when the replicas cannot be split', () => {
    const plan = decideUnitedDeployments(observed(ud({ replicas: 2, topology: { subsets: [{ name: 'a', replicas: 2 }, { name: 'b', replicas: 1 }] } })), NOW);
    expect(plan.events).toEqual([expect.objectContaining({ type: 'Warning', reason: 'Failed SpecifySubsetReplicas', message: "Specified subset replicas is ineffective: specified subsets' replica (3) is greater than UnitedDeployment replica (2)" })]);
    expect(plan.writes.filter((w) => w.op !== 'create' || w.object.kind !== 'ControllerRevision')).toEqual([]);
  });

  it('deletes workloads of another kind when the template changes kind', () => {
    const sts = decideUnitedDeployments(observed(ud()), NOW).writes.flatMap((w) => (w.op === 'create' && w.object.kind === 'StatefulSet' ? [w.object as unknown as Workload] : []));
    const stored = sts.map((w, i) => ({ ...w, metadata: { ...w.metadata, uid: `w-${i}` } }));
    const template = ud().spec.template!.statefulSetTemplate!;
    const plan = decideUnitedDeployments(observed(ud({ template: { deploymentTemplate: template } }), stored), NOW);
    expect(plan.writes.filter((w) => w.op === 'delete').map((w) => (w.op === 'delete' ? `${w.target.kind} ${w.target.name}` : ''))).toEqual(stored.map((w) => `StatefulSet ${w.metadata.name}`));
    expect(plan.writes.filter((w) => w.op === 'create' && w.object.kind === 'Deployment')).toHaveLength(3);
  });
});

describe('reserveUnschedulablePods', () => {
  const clone = { cloneSetTemplate: { metadata: { labels: { app: 'sample' } }, spec: { template: { metadata: { labels: { app: 'sample' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } } } };
  const reserving = ud({ replicas: 2, template: clone, topology: { subsets: [{ name: 'a' }, { name: 'b' }], scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 2, reserveUnschedulablePods: true } } } });

  it('labels the stuck pods reserved, keeps them, and gives their replicas to the next subset as temporary pods', () => {
    const first = decideUnitedDeployments(observed(reserving), NOW).writes.flatMap((w) => (w.op === 'create' && w.object.kind === 'CloneSet' ? [w.object as unknown as Workload] : []));
    const stored = first.map((w, i) => ({ ...w, metadata: { ...w.metadata, uid: `w-${i}` }, spec: { ...w.spec, replicas: i === 0 ? 2 : 0 }, status: { replicas: i === 0 ? 2 : 0, readyReplicas: 0 } }));
    const revision = stored[0]!.metadata.labels!['apps.kruise.io/controller-revision-hash']!;
    const stuck = (name: string) => ({
      metadata: { name, namespace: 'ns', creationTimestamp: '2025-12-31T23:59:00Z', labels: { app: 'sample', 'apps.kruise.io/subset-name': 'a', 'apps.kruise.io/controller-revision-hash': revision } },
      spec: { containers: [] },
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
    });
    const o = { ...observed(reserving, stored), pods: [stuck('a-1'), stuck('a-2')] } as unknown as UnitedDeploymentObserved;
    const plan = decideUnitedDeployments(o, NOW);
    const patches = plan.writes.flatMap((w) => (w.op === 'patch' ? [[w.target.name, w.patch]] : []));
    expect(patches).toEqual([
      ['a-1', { metadata: { labels: { 'apps.kruise.io/united-deployment-reserved-pod': 'true' } } }],
      ['a-2', { metadata: { labels: { 'apps.kruise.io/united-deployment-reserved-pod': 'true' } } }],
    ]);
    const updates = plan.writes.flatMap((w) => (w.op === 'update' ? [w.object as unknown as Workload] : []));
    expect(updates.map((w) => [w.metadata.labels?.['apps.kruise.io/subset-name'], w.spec.replicas, (w.spec.updateStrategy as { maxUnavailable?: number } | undefined)?.maxUnavailable])).toEqual([['a', 2, 2], ['b', 2, undefined]]);
    const status = plan.status[0]!.status as { reservedPods?: number; replicas: number; labelSelector: string; subsetStatuses: { name: string; reservedPods?: number; conditions?: { status: string; message?: string }[] }[] };
    expect(status.reservedPods).toBe(2);
    expect(status.replicas).toBe(0);
    expect(status.labelSelector).toBe('app=sample,apps.kruise.io/united-deployment-reserved-pod=false');
    expect(status.subsetStatuses[0]).toMatchObject({ name: 'a', reservedPods: 2, conditions: [{ status: 'False', message: 'reserved pods found' }] });
    expect(status.subsetStatuses[1]!.reservedPods).toBeUndefined();
  });
});
