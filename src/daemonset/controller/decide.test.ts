import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/http.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { planDaemonSetRevisions } from '../revisions.js';
import type { StoredDaemonSet as DaemonSet } from '../types.js';
import { decideDaemonSets } from './decide.js';
import { newDaemonPod } from './new-pod.js';

const NOW = new Date('2026-01-01T00:00:10Z');
const EARLIER = '2026-01-01T00:00:00Z';

const node = (name: string, extra: Partial<Node['spec']> = {}, labels: Record<string, string> = {}): Node => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: { ...extra } });

function ds(rolling: Record<string, unknown> = {}, image = 'app:1', extra: Record<string, unknown> = {}): DaemonSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'ns', uid: 'uid-1', generation: 1, resourceVersion: '5' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'main', image }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, ...rolling } },
      ...extra,
    },
  };
}

/** The revision of `d` as the controller stores it, and a ready pod of it on `nodeName`. */
function revisionOf(d: DaemonSet, number = 1): ControllerRevision {
  const plan = planDaemonSetRevisions(d, [], []);
  return { ...plan.current, metadata: { ...plan.current.metadata, uid: `rev-${number}`, resourceVersion: '1' }, revision: number };
}
function readyPod(d: DaemonSet, nodeName: string, rev: ControllerRevision, name = `agent-${nodeName}`): Pod {
  const hash = rev.metadata.labels!['controller-revision-hash']!;
  const pod = newDaemonPod(d, nodeName, hash, name);
  return {
    ...pod,
    metadata: { ...pod.metadata, uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: EARLIER },
    spec: { ...pod.spec, nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: EARLIER }, { type: 'ContainersReady', status: 'True', lastTransitionTime: EARLIER }, ...(pod.spec.readinessGates ? [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: EARLIER }] : [])], containerStatuses: [{ name: 'main', image: pod.spec.containers[0]!.image, imageID: `id-${pod.spec.containers[0]!.image}`, ready: true }] },
  };
}

const decide = (d: DaemonSet, nodes: Node[], pods: Pod[], revisions: ControllerRevision[] = []) =>
  decideDaemonSets({ daemonSets: [d], nodes, podsByOwner: new Map([['uid-1', pods]]), revisions }, NOW);

const creates = (plan: ReturnType<typeof decide>) => plan.writes.filter((w) => w.op === 'create' && (w.object as KubeObject).kind === 'Pod').map((w) => (w.op === 'create' ? ((w.object as Pod).spec.affinity as { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { matchFields: { values: string[] }[] }[] } } }).nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]!.matchFields[0]!.values[0] : ''));
const deletes = (plan: ReturnType<typeof decide>) => plan.writes.filter((w) => w.op === 'delete' && w.target.kind === 'Pod').map((w) => (w.op === 'delete' ? w.target.name : ''));

describe('placement', () => {
  it('one pod per eligible node, pinned by matchFields, with the daemon tolerations; tainted, unschedulable-only and unmatched nodes', () => {
    const d = ds({}, 'app:1', {});
    d.spec.template!.spec!['nodeSelector'] = { role: 'edge' };
    const nodes = [
      node('a', {}, { role: 'edge' }),
      node('b', { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] }, { role: 'edge' }),
      node('c', { unschedulable: true }, { role: 'edge' }),
      node('d'),
    ];
    const plan = decide(d, nodes, []);
    expect(creates(plan)).toEqual(['a', 'c']);
    const pod = plan.writes.find((w) => w.op === 'create' && (w.object as KubeObject).kind === 'Pod');
    const spec = (pod as unknown as { object: Pod }).object.spec as unknown as { tolerations: { key: string }[] };
    expect(spec.tolerations.map((t) => t.key)).toContain('node.kubernetes.io/unschedulable');
    expect(plan.status[0]!.status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 0, numberUnavailable: 2 });
  });

  it('a node that stops matching loses its pod; a second pod on a node goes (the oldest stays)', () => {
    const d = ds();
    d.spec.template!.spec!['nodeSelector'] = { role: 'edge' };
    const rev = revisionOf(d);
    const plan = decide(d, [node('a', {}, { role: 'edge' }), node('b')], [readyPod(d, 'a', rev), { ...readyPod(d, 'a', rev, 'agent-a2'), metadata: { ...readyPod(d, 'a', rev, 'agent-a2').metadata, creationTimestamp: '2026-01-01T00:00:05Z' } }, readyPod(d, 'b', rev)], [rev]);
    expect(deletes(plan).sort()).toEqual(['agent-a2', 'agent-b']);
    expect(plan.status[0]!.status).toMatchObject({ desiredNumberScheduled: 1, numberMisscheduled: 1 });
  });
});

describe('rolling update', () => {
  const nodes = ['n1', 'n2', 'n3', 'n4'].map((n) => node(n, {}, { pool: n === 'n1' ? 'canary' : 'main' }));
  const setup = (rolling: Record<string, unknown>) => {
    const v1 = ds(rolling);
    const rev1 = revisionOf(v1, 1);
    const v2 = ds(rolling, 'app:2');
    return { v2, rev1, pods: nodes.map((n) => readyPod(v1, n.metadata.name, rev1)) };
  };

  it('maxUnavailable 1: one old pod deleted, from the highest node name', () => {
    const { v2, rev1, pods } = setup({});
    expect(deletes(decide(v2, nodes, pods, [rev1]))).toEqual(['agent-n4']);
  });

  it('partition 3 of 4: only one node is updated; a selector picks the canary node', () => {
    const { v2, rev1, pods } = setup({ partition: 3, maxUnavailable: 4 });
    expect(deletes(decide(v2, nodes, pods, [rev1]))).toEqual(['agent-n4']);
    const sel = setup({ selector: { matchLabels: { pool: 'canary' } }, maxUnavailable: 4 });
    expect(deletes(decide(sel.v2, nodes, sel.pods, [sel.rev1]))).toEqual(['agent-n1']);
  });

  it('paused: nothing updated, but a new node still gets its pod', () => {
    const { v2, rev1, pods } = setup({ paused: true });
    const plan = decide(v2, [...nodes, node('n5')], pods, [rev1]);
    expect(deletes(plan)).toEqual([]);
    expect(creates(plan)).toEqual(['n5']);
  });

  it('maxSurge 1: a new pod beside the old one; the old one goes once the new one is available', () => {
    const { v2, rev1, pods } = setup({ maxSurge: 1, maxUnavailable: 0 });
    const first = decide(v2, nodes, pods, [rev1]);
    expect(creates(first)).toHaveLength(1);
    expect(deletes(first)).toEqual([]);
    const rev2 = revisionOf(v2, 2);
    const surged = readyPod(v2, 'n4', rev2, 'agent-n4-new');
    const second = decide(v2, nodes, [...pods, surged], [rev1, rev2]);
    expect(deletes(second)).toEqual(['agent-n4']);
  });

  it('InPlaceIfPossible: the image is changed in place, out of service first (one chained write)', () => {
    const { v2, rev1, pods } = setup({ rollingUpdateType: 'InPlaceIfPossible' });
    const plan = decide(v2, nodes, pods, [rev1]);
    expect(deletes(plan)).toEqual([]);
    const status = plan.status.filter((s) => s.target.kind === 'Pod');
    expect(status).toHaveLength(1);
    expect(status[0]!.then?.object).toMatchObject({ metadata: { name: 'agent-n4' }, spec: { containers: [{ image: 'app:2' }] } });
    expect(plan.events.map((e) => e.reason)).toContain('SuccessfulUpdatePodInPlace');
  });

  it('InPlaceIfPossible: the room a pod put back in service frees goes to the next pod, sent after that write (afterStatus)', () => {
    const { v2, rev1, pods } = setup({ rollingUpdateType: 'InPlaceIfPossible' });
    const rev2 = revisionOf(v2, 2);
    const hash2 = rev2.metadata.labels!['controller-revision-hash']!;
    // n4 finished its update: at the new revision, new imageID reported, InPlaceUpdateReady still False.
    const done = readyPod(v2, 'n4', rev2);
    const state = { revision: hash2, updateTimestamp: EARLIER, lastContainerStatuses: { main: { imageID: 'id-app:1' } }, updateImages: true };
    pods[3] = {
      ...done,
      metadata: { ...done.metadata, annotations: { 'apps.kruise.io/inplace-update-state': JSON.stringify(state) } },
      status: { ...done.status, conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: EARLIER }, { type: 'ContainersReady', status: 'True', lastTransitionTime: EARLIER }, { type: 'InPlaceUpdateReady', status: 'False', lastTransitionTime: EARLIER }] },
    };
    const plan = decide(v2, nodes, pods, [rev1, rev2]);
    const byPod = new Map(plan.status.filter((s) => s.target.kind === 'Pod').map((s) => [s.target.name, s]));
    expect(byPod.get('agent-n4')?.afterStatus).toBeUndefined();
    expect(byPod.get('agent-n3')).toMatchObject({ afterStatus: true, then: { object: { spec: { containers: [{ image: 'app:2' }] } } } });
    expect(byPod.size).toBe(2);
    // With minReadySeconds the pod is not available at once: nothing else starts.
    const slow = decide({ ...v2, spec: { ...v2.spec, minReadySeconds: 5 } }, nodes, pods, [rev1, rev2]);
    expect(slow.status.filter((s) => s.target.kind === 'Pod').map((s) => s.target.name)).toEqual(['agent-n4']);
  });

  it('preDelete hook: a hooked pod goes PreparingDelete instead of being deleted', () => {
    const hook = { preDelete: { labelsHandler: { hold: 'true' } } };
    const v1 = ds({}, 'app:1', { lifecycle: hook });
    const rev1 = revisionOf(v1, 1);
    const pods = nodes.map((n) => readyPod(v1, n.metadata.name, rev1));
    pods[3] = { ...pods[3]!, metadata: { ...pods[3]!.metadata, labels: { ...pods[3]!.metadata.labels, hold: 'true' } } };
    const plan = decide(ds({}, 'app:2', { lifecycle: hook }), nodes, pods, [rev1]);
    expect(deletes(plan)).toEqual([]);
    const update = plan.writes.find((w) => w.op === 'update');
    expect((update as unknown as { object: Pod }).object.metadata.labels).toMatchObject({ 'lifecycle.apps.kruise.io/state': 'PreparingDelete' });
  });
});

describe('in-place completion', () => {
  it('InPlaceUpdateReady back to True with Ready recomputed from ContainersReady and the gates', () => {
    const d = ds({ rollingUpdateType: 'InPlaceIfPossible' });
    const rev = revisionOf(d);
    const hash = rev.metadata.labels!['controller-revision-hash']!;
    const base = readyPod(d, 'n1', rev);
    const state = { revision: hash, updateTimestamp: EARLIER, lastContainerStatuses: { main: { imageID: 'id-old' } }, updateImages: true };
    const pod: Pod = {
      ...base,
      metadata: { ...base.metadata, annotations: { 'apps.kruise.io/inplace-update-state': JSON.stringify(state) } },
      status: { ...base.status, conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: EARLIER }, { type: 'ContainersReady', status: 'True', lastTransitionTime: EARLIER }, { type: 'InPlaceUpdateReady', status: 'False', lastTransitionTime: EARLIER }] },
    };
    const plan = decide(d, [node('n1')], [pod], [rev]);
    const write = plan.status.find((s) => s.target.kind === 'Pod');
    const conditions = write?.status['conditions'] as { type: string; status: string }[];
    expect(Object.fromEntries(conditions.map((c) => [c.type, c.status]))).toEqual({ Ready: 'True', ContainersReady: 'True', InPlaceUpdateReady: 'True' });
  });
});
