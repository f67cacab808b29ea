import { describe, expect, it } from 'vitest';
import { admittedWrites, recordWrites, settledBy, withOverlay, ADMITTED_GRACE_MS, type AdmittedRequest, type Overlay } from './admitted.js';
import { inSelection } from './list-selection.js';
import { stateCollections } from '../registry.js';

const specs = stateCollections();
const req = (over: Partial<AdmittedRequest>): AdmittedRequest => ({ namespace: '', group: '', kind: 'Pod', operation: 'CREATE', dryRun: false, ...over });
const summary = (r: AdmittedRequest) => admittedWrites(specs, r, 5).map((w) => `${w.collection} ${w.item ? 'put' : 'delete'} ${w.key}`).sort();

describe('admittedWrites', () => {
  it('puts a created SidecarSet into the collection handlers read, without managedFields', () => {
    const w = admittedWrites(specs, req({ group: 'apps.kruise.io', kind: 'SidecarSet', object: { metadata: { name: 's', managedFields: [{}] }, spec: {} } }), 5);
    expect(w).toEqual([{ collection: 'sidecarsets', key: 's', item: { metadata: { name: 's' }, spec: {} }, admittedAt: 5 }]);
  });

  it('removes a deleted object by the old object key', () => {
    expect(summary(req({ group: 'policy.kruise.io', kind: 'PodUnavailableBudget', operation: 'DELETE', namespace: 'ns', oldObject: { metadata: { name: 'p' } } })))
      .toEqual(['podunavailablebudgets delete ns/p']);
  });

  it('writes one object into every collection of its kind (ReplicaSets: PUB and WorkloadSpread)', () => {
    expect(summary(req({ group: 'apps', kind: 'ReplicaSet', namespace: 'ns', object: { metadata: { name: 'rs', namespace: 'ns' } } })))
      .toEqual(['pub-replicasets put ns/rs', 'workloadspread-replicasets put ns/rs']);
  });

  it('follows the collection LIST selection: only the kruise-configuration ConfigMap, only labelled revisions', () => {
    expect(summary(req({ kind: 'ConfigMap', namespace: 'kruise-system', object: { metadata: { name: 'other' } } }))).toEqual([]);
    expect(summary(req({ kind: 'ConfigMap', namespace: 'kruise-system', object: { metadata: { name: 'kruise-configuration' }, data: {} } })))
      .toEqual(['kruise-configuration put kruise-system/kruise-configuration']);
    expect(summary(req({ group: 'apps', kind: 'ControllerRevision', namespace: 'ns', object: { metadata: { name: 'r' } } }))).toEqual([]);
    expect(summary(req({ group: 'apps', kind: 'ControllerRevision', namespace: 'ns', object: { metadata: { name: 'r', labels: { 'kruise.io/sidecarset-name': 's' } } } })))
      .toEqual(['sidecarset-revisions put ns/r']);
  });

  it('an update or deletion of an object never inside the selection writes nothing (every ConfigMap reaches observe-config)', () => {
    const cm = { metadata: { name: 'leader-lock', namespace: 'team-a', resourceVersion: '7' }, data: {} };
    expect(summary(req({ kind: 'ConfigMap', namespace: 'team-a', operation: 'UPDATE', object: cm, oldObject: cm }))).toEqual([]);
    expect(summary(req({ kind: 'ConfigMap', namespace: 'team-a', operation: 'DELETE', oldObject: cm }))).toEqual([]);
    const config = { metadata: { name: 'kruise-configuration', namespace: 'kruise-system', resourceVersion: '8' }, data: {} };
    expect(summary(req({ kind: 'ConfigMap', namespace: 'kruise-system', operation: 'UPDATE', object: config, oldObject: config })))
      .toEqual(['kruise-configuration put kruise-system/kruise-configuration']);
    expect(summary(req({ kind: 'ConfigMap', namespace: 'kruise-system', operation: 'DELETE', oldObject: config })))
      .toEqual(['kruise-configuration delete kruise-system/kruise-configuration']);
  });

  it('an update that leaves the selection removes the item (a pod that finished)', () => {
    const pod = { metadata: { name: 'p', namespace: 'ns' }, status: { phase: 'Running' } };
    expect(summary(req({ operation: 'UPDATE', namespace: 'ns', object: { ...pod, status: { phase: 'Succeeded' } }, oldObject: pod }))).toEqual(['active-pods delete ns/p']);
    expect(summary(req({ namespace: 'ns', object: { metadata: { name: 'p' } } }))).toEqual(['active-pods put ns/p']);
  });

  it('writes nothing for dry runs, subresources, unnamed objects and kinds nobody reads', () => {
    expect(summary(req({ dryRun: true, namespace: 'ns', object: { metadata: { name: 'p' } } }))).toEqual([]);
    expect(summary(req({ subResource: 'status', namespace: 'ns', object: { metadata: { name: 'p' } } }))).toEqual([]);
    expect(summary(req({ namespace: 'ns', object: { metadata: { generateName: 'p-' } } }))).toEqual([]);
    expect(summary(req({ kind: 'Secret', namespace: 'ns', object: { metadata: { name: 's' } } }))).toEqual([]);
  });
});

describe('status subresource', () => {
  it('writes the object with its new status into collections that read status (budgets), and nowhere else', () => {
    const status = { totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1 };
    const pub = { metadata: { name: 'p', namespace: 'ns', uid: 'u', resourceVersion: '7' }, spec: {}, status };
    const w = admittedWrites(specs, req({ group: 'policy.kruise.io', kind: 'PodUnavailableBudget', subResource: 'status', operation: 'UPDATE', namespace: 'ns', object: pub, oldObject: { ...pub, metadata: { ...pub.metadata, resourceVersion: '6' }, status: {} } }), 5);
    expect(w).toEqual([expect.objectContaining({ collection: 'podunavailablebudgets', key: 'ns/p', item: expect.objectContaining({ status }), baseVersion: '6' })]);
    expect(summary(req({ group: 'apps.kruise.io', kind: 'WorkloadSpread', subResource: 'status', operation: 'UPDATE', namespace: 'ns', object: { metadata: { name: 'w' }, spec: {}, status: {} } })))
      .toEqual(['workloadspreads put ns/w']);
    expect(summary(req({ group: 'apps', kind: 'Deployment', subResource: 'status', operation: 'UPDATE', namespace: 'ns', object: { metadata: { name: 'd' }, spec: {} } }))).toEqual([]);
  });
});

describe('scale subresource', () => {
  const scale = (replicas: number, rv: string) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'ns', resourceVersion: rv }, spec: { replicas } });
  const scaled = req({ group: 'autoscaling', kind: 'Scale', subResource: 'scale', operation: 'UPDATE', namespace: 'ns', resource: { group: 'apps', resource: 'deployments' }, object: scale(7, '5'), oldObject: scale(3, '5') });

  it('writes the new replicas into the collections of the scaled kind, based on its version', () => {
    expect(admittedWrites(specs, scaled, 9)).toEqual([{ collection: 'workloadspread-deployments', key: 'ns/web', replicas: 7, baseVersion: '5', basedOn: '5', admittedAt: 9 }]);
    expect(admittedWrites(specs, { ...scaled, resource: { group: 'apps', resource: 'daemonsets' } }, 9)).toEqual([]);
  });

  it('lands on the pushed item, or on the item an earlier write put; never revives a deleted one', () => {
    const web = { metadata: { name: 'web', namespace: 'ns', resourceVersion: '5' }, spec: { replicas: 3, paused: true } };
    const overlays = new Map<string, Overlay>();
    recordWrites(overlays, [{ collection: 'd', key: 'ns/web', replicas: 7, baseVersion: '5', admittedAt: 1 }]);
    expect(withOverlay(new Map([['ns/web', web]]), overlays.get('d'))).toEqual([{ ...web, spec: { replicas: 7, paused: true } }]);
    expect(withOverlay(new Map(), overlays.get('d'))).toEqual([]);

    const created = new Map<string, Overlay>();
    const stored = recordWrites(created, [
      { collection: 'd', key: 'ns/web', item: web, admittedAt: 1 },
      { collection: 'd', key: 'ns/web', replicas: 7, baseVersion: '5', admittedAt: 2 },
    ]);
    expect(stored[1]).toEqual({ collection: 'd', key: 'ns/web', item: { ...web, spec: { replicas: 7, paused: true } }, baseVersion: '5', admittedAt: 2 });
    expect(withOverlay(new Map(), created.get('d'))).toEqual([{ ...web, spec: { replicas: 7, paused: true } }]);
    // A push holding the workload at the scale's version does not settle it; one past it does.
    expect(settledBy(created.get('d')!, 3, new Map([['ns/web', web]]))).toEqual([]);
    expect(settledBy(created.get('d')!, 3, new Map([['ns/web', { ...web, metadata: { ...web.metadata, resourceVersion: '6' } }]]))).toEqual(['ns/web']);

    const deleted = new Map<string, Overlay>();
    expect(recordWrites(deleted, [{ collection: 'd', key: 'ns/web', admittedAt: 1 }, { collection: 'd', key: 'ns/web', replicas: 7, admittedAt: 2 }])).toHaveLength(1);
    expect(withOverlay(new Map([['ns/web', web]]), deleted.get('d'))).toEqual([]);
  });
});

describe('overlay', () => {
  it('applies puts and deletes over the pushed items, and is settled only by pushes listed after the grace', () => {
    const pushed = new Map([['a', { metadata: { name: 'a' } }], ['b', { metadata: { name: 'b' } }]]);
    const overlay = new Map([
      ['a', { collection: 'x', key: 'a', admittedAt: 100 }],
      ['c', { collection: 'x', key: 'c', item: { metadata: { name: 'c' } }, admittedAt: 200 }],
    ]);
    expect(withOverlay(pushed, overlay).map((i) => i.metadata?.name)).toEqual(['b', 'c']);
    expect(settledBy(overlay, 100 + ADMITTED_GRACE_MS)).toEqual([]);
    expect(settledBy(overlay, 101 + ADMITTED_GRACE_MS)).toEqual(['a']);
    expect(settledBy(overlay, 201 + ADMITTED_GRACE_MS)).toEqual(['a', 'c']);
  });
});

describe('inSelection', () => {
  const pod = { metadata: { name: 'p', labels: { app: 'x' } }, status: { phase: 'Running' } };
  it.each([
    [{ labelSelector: 'app' }, true],
    [{ labelSelector: '!app' }, false],
    [{ labelSelector: 'app=x,tier!=db' }, true],
    [{ labelSelector: 'app==y' }, false],
    [{ fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' }, true],
    [{ fieldSelector: 'metadata.name=q' }, false],
    [{ labelSelector: 'app in (x,y)' }, undefined],
  ])('%j ⇒ %s', (select, want) => {
    expect(inSelection(pod, select)).toBe(want);
  });
});

describe('observers', () => {
  // Every kind a collection holds must reach the edge through some validating endpoint, for
  // creates, updates and deletes alike, or read-your-writes silently holds for only some of them.
  const RESOURCES: Record<string, string> = {
    SidecarSet: 'sidecarsets', Namespace: 'namespaces', ConfigMap: 'configmaps', ControllerRevision: 'controllerrevisions',
    PodUnavailableBudget: 'podunavailablebudgets', ReplicaSet: 'replicasets', Pod: 'pods', WorkloadSpread: 'workloadspreads',
    Deployment: 'deployments', StatefulSet: 'statefulsets', Job: 'jobs', CloneSet: 'clonesets',
    PersistentPodState: 'persistentpodstates', PodProbeMarker: 'podprobemarkers',
  };
  it.each(specs.filter((s) => !s.compute).map((s) => [s.name, s] as const))('%s is observed on create, update and delete', async (_name, spec) => {
    const { webhookEndpoints } = await import('../registry.js');
    const group = spec.apiVersion.includes('/') ? spec.apiVersion.slice(0, spec.apiVersion.indexOf('/')) : '';
    const version = spec.apiVersion.split('/').at(-1)!;
    const resource = RESOURCES[spec.kind];
    expect(resource, `resource of ${spec.kind}`).toBeDefined();
    const rules = webhookEndpoints().filter((e) => e.type === 'validating').flatMap((e) => e.rules);
    for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) {
      // Pod updates and deletes go through validate-pod, whose handlers decide them.
      const covered = rules.some((r) => r.apiGroups.includes(group) && r.apiVersions.includes(version) && r.resources.includes(resource!) && r.operations.includes(op));
      expect(covered, `${spec.kind} ${op}`).toBe(true);
    }
  });
});

describe('settling against what a push holds', () => {
  const item = (name: string, rv: string) => ({ metadata: { name, resourceVersion: rv } });
  it('a push that moved past an admitted write settles it within the grace; one that has not, keeps it', () => {
    const overlay = new Map([
      ['created', { collection: 'x', key: 'created', item: item('created', ''), admittedAt: 100 }],
      ['updated', { collection: 'x', key: 'updated', item: item('updated', '5'), baseVersion: '5', admittedAt: 100 }],
      ['deleted', { collection: 'x', key: 'deleted', baseVersion: '7', admittedAt: 100 }],
    ]);
    const before = new Map([['updated', item('updated', '5')], ['deleted', item('deleted', '7')]]);
    expect(settledBy(overlay, 101, before)).toEqual([]);
    const after = new Map([['created', item('created', '9')], ['updated', item('updated', '8')]]);
    expect(settledBy(overlay, 101, after)).toEqual(['created', 'updated', 'deleted']);
  });
});

describe('writes admitted against the same version (one of them will not commit)', () => {
  const pod = (phase: string, rv: string) => ({ metadata: { name: 'p', namespace: 'ns', resourceVersion: rv }, status: { phase } });
  const update = (from: string, to: string, rv: string, conditional: boolean): AdmittedRequest =>
    req({ operation: 'UPDATE', namespace: 'ns', endpoint: OBSERVER, object: pod(to, rv), oldObject: pod(from, rv), ...(conditional ? { conditional } : {}) });
  // The pods deletion protection follows: their phase is what it reads.
  const OBSERVER = 'observe-protected';
  const podSpecs = specs.filter((s) => s.name === 'cascading-pods');
  const recorded = (...requests: AdmittedRequest[]) => {
    const overlays = new Map<string, Overlay>();
    for (const r of requests) recordWrites(overlays, admittedWrites(podSpecs, r, 1));
    return withOverlay(new Map(), overlays.get('cascading-pods')).map((i) => (i as { phase?: string }).phase);
  };

  it('a write carries the version it was admitted against, and whether it was a PUT', () => {
    expect(admittedWrites(podSpecs, update('Pending', 'Running', '7', true), 1)[0]).toMatchObject({ basedOn: '7', conditional: true });
    expect(admittedWrites(podSpecs, update('Pending', 'Running', '7', false), 1)[0]).toMatchObject({ basedOn: '7' });
    expect(admittedWrites(podSpecs, update('Pending', 'Running', '7', false), 1)[0]!.conditional).toBeUndefined();
    expect(admittedWrites(podSpecs, req({ namespace: 'ns', endpoint: OBSERVER, object: pod('Pending', '') }), 1)[0]!.basedOn).toBeUndefined();
  });

  it('a PUT from the version an earlier write was admitted against does not replace it: it fails with a conflict', () => {
    // A user's patch marks the pod Pending → Unknown; a kubelet's PUT from the same read loses.
    expect(recorded(update('Pending', 'Unknown', '7', false), update('Pending', 'Running', '7', true))).toEqual(['Unknown']);
    // ... and so does one from an older read.
    expect(recorded(update('Pending', 'Unknown', '8', false), update('Pending', 'Running', '7', true))).toEqual(['Unknown']);
  });

  it('a patch from the same version replaces it (had it lost, it would be admitted again); so does any write from a newer version', () => {
    expect(recorded(update('Pending', 'Running', '7', true), update('Pending', 'Unknown', '7', false))).toEqual(['Unknown']);
    expect(recorded(update('Pending', 'Unknown', '7', false), update('Unknown', 'Running', '8', true))).toEqual(['Running']);
  });

  it('a PUT after a write with no version (a create) replaces it', () => {
    expect(recorded(req({ namespace: 'ns', endpoint: OBSERVER, object: pod('Pending', '') }), update('Pending', 'Running', '7', true))).toEqual(['Running']);
  });

  it('versions that are not numbers are compared for equality only', () => {
    expect(recorded(update('Pending', 'Unknown', 'b', false), update('Pending', 'Running', 'b', true))).toEqual(['Unknown']);
    expect(recorded(update('Pending', 'Unknown', 'b', false), update('Pending', 'Running', 'a', true))).toEqual(['Running']);
  });
});
