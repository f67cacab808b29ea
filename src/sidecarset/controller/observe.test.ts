import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { observeSidecarSets } from './observe.js';
import { sidecarSetReconcilerFor } from './reconciler.js';

type Call = { kind: string; namespace?: string; labelSelector?: string };

/** A reader over fixed LIST answers, recording each call; a kind mapped to an Error throws it. */
function reader(items: Record<string, KubeObject[] | Error>): KubeReader & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async list<T extends KubeObject>(_apiVersion: string, kind: string, opts: { namespace?: string; labelSelector?: string } = {}) {
      calls.push({ kind, ...opts });
      const answer = items[kind] ?? [];
      if (answer instanceof Error) throw answer;
      return { items: answer as T[], resourceVersion: '1' };
    },
    async get() {
      throw new Error('observe must only LIST');
    },
  };
}

const set = (name: string) => ({ metadata: { name }, spec: { selector: { matchLabels: { app: name } } } });

describe('observeSidecarSets', () => {
  const cluster = {
    SidecarSet: [set('mesh'), set('logs')],
    Pod: [{ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } }],
    ControllerRevision: [{ metadata: { name: 'mesh-abc' }, revision: 1 }],
    Namespace: [{ metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } }],
    PodUnavailableBudget: [{ metadata: { name: 'pub', namespace: 'default' } }],
  };

  it.each<[string, Scope, string[], Call[]]>([
    ['a full run: five LISTs', { kind: 'all' }, ['mesh', 'logs'], [
      { kind: 'SidecarSet' },
      { kind: 'Pod' },
      { kind: 'ControllerRevision', namespace: 'ops', labelSelector: 'kruise.io/sidecarset-name' },
      { kind: 'Namespace' },
      { kind: 'PodUnavailableBudget' },
    ]],
    ['a triggered run lists only the named sets\' revisions', { kind: 'objects', objects: [{ name: 'mesh' }] }, ['mesh'], [
      { kind: 'SidecarSet' },
      { kind: 'Pod' },
      { kind: 'ControllerRevision', namespace: 'ops', labelSelector: 'kruise.io/sidecarset-name in (mesh)' },
      { kind: 'Namespace' },
      { kind: 'PodUnavailableBudget' },
    ]],
    ['a deleted set: one LIST, nothing to do', { kind: 'objects', objects: [{ name: 'gone' }] }, [], [{ kind: 'SidecarSet' }]],
  ])('%s', async (_name, scope, sets, calls) => {
    const kube = reader(cluster);
    const got = await observeSidecarSets(kube, scope, { kruiseNamespace: 'ops' });
    expect(got.sets.map((s) => s.metadata.name)).toEqual(sets);
    expect(kube.calls).toEqual(calls);
    if (sets.length) {
      expect(got.namespaces).toEqual([{ name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } }]);
      expect([got.pods.length, got.revisions.length, got.budgets.length]).toEqual([1, 1, 1]);
    }
  });

  it.each([
    ['the policy.kruise.io group is not served (404)', new KubeApiError(404, 'NotFound', 'GET /apis/policy.kruise.io/v1alpha1: 404')],
    ['the group is served without the kind', new Error('the API server does not serve PodUnavailableBudget in policy.kruise.io/v1alpha1')],
  ])('no PodUnavailableBudget CRD means no budgets: %s', async (_name, error) => {
    const got = await observeSidecarSets(reader({ ...cluster, PodUnavailableBudget: error }), { kind: 'all' });
    expect(got.budgets).toEqual([]);
  });

  it('other failures are not hidden', async () => {
    const kube = reader({ ...cluster, PodUnavailableBudget: new KubeApiError(403, 'Forbidden', 'forbidden') });
    await expect(observeSidecarSets(kube, { kind: 'all' })).rejects.toThrow('forbidden');
  });

  it('the reconciler reads revisions in the configured Kruise namespace (default kruise-system)', async () => {
    const kube = reader(cluster);
    await sidecarSetReconcilerFor().observe(kube, { kind: 'all' });
    expect(kube.calls.find((c) => c.kind === 'ControllerRevision')?.namespace).toBe('kruise-system');
    expect(sidecarSetReconcilerFor()).toMatchObject({ kind: 'SidecarSet', apiVersion: 'apps.kruise.io/v1alpha1' });
    expect(sidecarSetReconcilerFor().triggers).toBeUndefined();
  });
});
