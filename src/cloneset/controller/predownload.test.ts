import { describe, expect, it } from 'vitest';
import { FEATURE_GATE_DEFAULTS } from '../../reconcile/feature-gates.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import type { StoredCloneSet } from '../types.js';
import { decideCloneSets } from './decide.js';
import { newInstanceIds } from './instance-id.js';
import type { PreDownloadJob } from './predownload.js';
import { chooseUpdateRevision } from './revision-choice.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const GATES = { gates: { ...FEATURE_GATE_DEFAULTS, PreDownloadImageForInPlaceUpdate: true } };
const cloneSet = (image: string, spec: Partial<StoredCloneSet['spec']> = {}, annotations: Record<string, string> = {}): StoredCloneSet => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-1', generation: 2, resourceVersion: '7', annotations },
  spec: {
    replicas: 5, selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'InPlaceIfPossible', partition: 5 },
    template: { metadata: { labels: { app: 'web' } }, spec: { imagePullSecrets: [{ name: 'reg' }], containers: [{ name: 'app', image }, { name: 'side', image: 'side:1' }] } }, ...spec,
  },
});
const stored = (r: ControllerRevision): ControllerRevision => ({ ...r, metadata: { ...r.metadata, uid: `uid-${r.metadata.name}` } });
const pod = (id: string, revision: string): Pod => ({
  metadata: {
    name: `web-${id}`, namespace: 'ns', uid: `pod-${id}`, creationTimestamp: '2025-12-31T00:00:00Z',
    labels: { app: 'web', 'apps.kruise.io/cloneset-instance-id': id, 'controller-revision-hash': revision, 'pod-template-hash': revision.slice(revision.lastIndexOf('-') + 1) },
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'uid-1', controller: true }],
  },
  spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx:1' }, { name: 'side', image: 'side:1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' }] },
});

/** A CloneSet whose template moved from nginx:1 to `cs`'s, its 5 pods at the old revision. */
function updating(cs: StoredCloneSet, jobs: PreDownloadJob[] = [], updateLabels: Record<string, string> = {}) {
  const r1 = stored(chooseUpdateRevision(cloneSet('nginx:1'), []).create!);
  const r2 = stored(chooseUpdateRevision(cs, [r1]).create ?? r1);
  r2.metadata.labels = { ...r2.metadata.labels, ...updateLabels };
  const pods = newInstanceIds('uid-1', new Set(), 5).map((id) => pod(id, r1.metadata.name));
  cs.status = { replicas: 5, readyReplicas: 5, availableReplicas: 5, updatedReplicas: 0, updatedReadyReplicas: 0, currentRevision: r1.metadata.name, updateRevision: r1.metadata.name };
  const plan = decideCloneSets({ cloneSets: [cs], podsByOwner: new Map([['uid-1', pods]]), revisions: r1 === r2 ? [r1] : [r1, r2], imagePullJobs: jobs }, NOW, GATES);
  return { plan, r1, r2 };
}
const jobs = (plan: ReturnType<typeof decideCloneSets>) => plan.writes.filter((w) => w.op === 'create' && w.object.kind === 'ImagePullJob').map((w) => (w.op === 'create' ? w.object : undefined)!);
const labelPatches = (plan: ReturnType<typeof decideCloneSets>) => plan.writes.filter((w) => w.op === 'patch' && w.target.kind === 'ControllerRevision').map((w) => (w.op === 'patch' ? `${w.target.name} ${JSON.stringify(w.patch)}` : ''));

describe('CloneSet image pre-download', () => {
  it('an in-place image change: one ImagePullJob per changed container on the old pods\' nodes, then the revision is labelled', () => {
    const { plan, r2 } = updating(cloneSet('nginx:2', {}, { 'apps.kruise.io/image-predownload-parallelism': '5', 'apps.kruise.io/image-predownload-timeout-seconds': '60' }));
    const [job, ...more] = jobs(plan);
    expect(more).toEqual([]);
    expect(job).toMatchObject({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob',
      metadata: { name: `${r2.metadata.name}-app`, namespace: 'ns', labels: { app: 'web', 'controller.kubernetes.io/hash': r2.metadata.labels!['controller.kubernetes.io/hash'] }, ownerReferences: [{ kind: 'CloneSet', name: 'web', uid: 'uid-1', controller: true }] },
      spec: {
        image: 'nginx:2', pullSecrets: ['reg'], parallelism: 5, pullPolicy: { backoffLimit: 1, timeoutSeconds: 60 }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
        podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'controller-revision-hash', operator: 'NotIn', values: [r2.metadata.name, r2.metadata.labels!['controller.kubernetes.io/hash']] }] },
      },
    });
    expect(labelPatches(plan)).toEqual([`${r2.metadata.name} {"metadata":{"labels":{"apps.kruise.io/pre-predownload-created":"true"}}}`]);
    expect(plan.writes.find((w) => w.op === 'create' && w.object.kind === 'ImagePullJob')?.event).toMatchObject({ reason: 'CreatedImagePullJob', message: `created ImagePullJob ${r2.metadata.name}-app for image: nginx:2` });
  });

  it('default parallelism 1; a labelled revision is not considered again', () => {
    expect(jobs(updating(cloneSet('nginx:2')).plan)[0]?.spec).toMatchObject({ parallelism: 1, pullPolicy: { timeoutSeconds: 300 } });
    const again = updating(cloneSet('nginx:2'), [], { 'apps.kruise.io/pre-predownload-created': 'true' }).plan;
    expect(jobs(again)).toEqual([]);
    expect(labelPatches(again)).toEqual([]);
  });

  it.each([
    ['ReCreate', cloneSet('nginx:2', { updateStrategy: { type: 'ReCreate', partition: 5 } })],
    ['3 replicas', cloneSet('nginx:2', { replicas: 3, updateStrategy: { type: 'InPlaceIfPossible', partition: 3 } })],
    ['every pod in one batch', cloneSet('nginx:2', { updateStrategy: { type: 'InPlaceIfPossible', partition: 0, maxUnavailable: '100%' } })],
    ['not in place (an env change)', (() => {
      const cs = cloneSet('nginx:2');
      (cs.spec.template as { spec: { containers: { env?: unknown[] }[] } }).spec.containers[0]!.env = [{ name: 'A', value: 'b' }];
      return cs;
    })()],
  ])('%s: the revision is labelled ignored, no job', (_what, cs) => {
    const { plan, r2 } = updating(cs);
    expect(jobs(plan)).toEqual([]);
    expect(labelPatches(plan)).toEqual([`${r2.metadata.name} {"metadata":{"labels":{"apps.kruise.io/image-predownload-ignored":"true"}}}`]);
  });

  it('waits for image-predownload-min-updated-ready-pods updated ready pods', () => {
    expect(jobs(updating(cloneSet('nginx:2', {}, { 'apps.kruise.io/image-predownload-min-updated-ready-pods': '1' })).plan)).toEqual([]);
  });

  it('revisions converged: the CloneSet\'s ImagePullJobs go, others stay', () => {
    const cs = cloneSet('nginx:1');
    const owned = (name: string, uid: string): PreDownloadJob => ({ metadata: { name, namespace: 'ns', uid: `j-${name}`, ownerReferences: [{ uid, controller: true }] } });
    const { plan } = updating(cs, [owned('mine', 'uid-1'), owned('theirs', 'uid-2')]);
    expect(plan.writes.filter((w) => w.op === 'delete' && w.target.kind === 'ImagePullJob').map((w) => (w.op === 'delete' ? w.target.name : ''))).toEqual(['mine']);
  });

  it('the gate off: nothing', () => {
    const r1 = stored(chooseUpdateRevision(cloneSet('nginx:1'), []).create!);
    const cs = cloneSet('nginx:2');
    const r2 = stored(chooseUpdateRevision(cs, [r1]).create!);
    const pods = newInstanceIds('uid-1', new Set(), 5).map((id) => pod(id, r1.metadata.name));
    const plan = decideCloneSets({ cloneSets: [cs], podsByOwner: new Map([['uid-1', pods]]), revisions: [r1, r2], imagePullJobs: [] }, NOW);
    expect(jobs(plan)).toEqual([]);
    expect(labelPatches(plan)).toEqual([]);
  });
});
