import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { observeDaemonSets } from './observe.js';

type Call = { op: 'get' | 'list'; kind: string; namespace?: string; labelSelector?: string };

/** A reader over a mutable set of objects, recording each call; a GET of a missing DaemonSet is a 404. */
function reader(daemonSets: KubeObject[], pods: KubeObject[]): KubeReader & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async list<T extends KubeObject>(_apiVersion: string, kind: string, opts: { namespace?: string; labelSelector?: string } = {}) {
      calls.push({ op: 'list', kind, ...opts });
      const items = kind === 'DaemonSet' ? daemonSets : kind === 'Pod' ? pods.filter((p) => !opts.labelSelector || opts.labelSelector === `app=${(p.metadata?.labels as Record<string, string>).app}`) : [];
      return { items: items as T[], resourceVersion: '1' };
    },
    async get<T extends KubeObject>(_apiVersion: string, kind: string, name: string, namespace?: string) {
      calls.push({ op: 'get', kind, namespace });
      const found = daemonSets.find((d) => d.metadata?.name === name && d.metadata?.namespace === namespace);
      if (!found) throw new KubeApiError(404, 'NotFound', `${kind} ${name} not found`);
      return found as T;
    },
  };
}

const ds = (name: string, app = name) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name, namespace: 'ns', uid: `uid-${name}` }, spec: { selector: { matchLabels: { app } }, template: {} } });
const pod = (name: string, owner: string, app: string) => ({ metadata: { name, namespace: 'ns', labels: { app }, ownerReferences: [{ kind: 'DaemonSet', uid: `uid-${owner}`, controller: true }] } });
const one = (name: string): Scope => ({ kind: 'objects', objects: [{ namespace: 'ns', name }] });
const podLists = (calls: Call[]) => calls.filter((c) => c.kind === 'Pod').map((c) => c.labelSelector ?? '(none)');

describe('observeDaemonSets for one DaemonSet', () => {
  it('reads it by GET; the next run LISTs its pods in the same round by the selector it found', async () => {
    const kube = reader([ds('agent-a')], [pod('a-1', 'agent-a', 'agent-a'), pod('x-1', 'other', 'other')]);
    const first = await observeDaemonSets(kube, one('agent-a'));
    expect(kube.calls.map((c) => `${c.op} ${c.kind}`)).toEqual(['get DaemonSet', 'list Node', 'list ControllerRevision', 'list Pod']);
    expect(first.podsByOwner.get('uid-agent-a')?.map((p) => p.metadata.name)).toEqual(['a-1']);
    kube.calls.length = 0;
    const second = await observeDaemonSets(kube, one('agent-a'));
    expect(kube.calls.map((c) => `${c.op} ${c.kind}`)).toEqual(['get DaemonSet', 'list Node', 'list Pod', 'list ControllerRevision']);
    expect(podLists(kube.calls)).toEqual(['app=agent-a']);
    expect(second.podsByOwner.get('uid-agent-a')?.map((p) => p.metadata.name)).toEqual(['a-1']);
  });

  it('LISTs the pods again when the selector changed since the hint', async () => {
    const sets = [ds('agent-b')];
    const kube = reader(sets, [pod('b-1', 'agent-b', 'agent-b'), pod('b-2', 'agent-b', 'renamed')]);
    await observeDaemonSets(kube, one('agent-b'));
    sets[0] = ds('agent-b', 'renamed');
    kube.calls.length = 0;
    const got = await observeDaemonSets(kube, one('agent-b'));
    expect(podLists(kube.calls)).toEqual(['app=agent-b', 'app=renamed']);
    expect(got.podsByOwner.get('uid-agent-b')?.map((p) => p.metadata.name)).toEqual(['b-2']);
  });

  it('observes nothing for a DaemonSet that is gone', async () => {
    const kube = reader([], []);
    expect(await observeDaemonSets(kube, one('gone'))).toEqual({ daemonSets: [], nodes: [], podsByOwner: new Map(), revisions: [] });
  });

  it('a full run still LISTs every DaemonSet first', async () => {
    const kube = reader([ds('agent-c')], []);
    await observeDaemonSets(kube, { kind: 'all' });
    expect(kube.calls[0]).toEqual({ op: 'list', kind: 'DaemonSet' });
  });
});
