import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import { daemonPodName } from './new-pod.js';
import { pinnedToNode, targetNodeName } from '../../workload/node-pinning.js';
import { podOrder, updatedPodsOnNode } from './placement.js';
import type { StoredDaemonSet as DaemonSet } from '../types.js';

const pinned = (node: string) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } });
const pod = (name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Pod => ({ metadata: { name, namespace: 'ns', ...meta }, spec: { containers: [], ...spec } });

describe('placement helpers', () => {
  it.each([
    ['no affinity', undefined, pinned('n1')],
    ['preferred terms kept, required terms replaced', { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }], requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } },
      { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }], requiredDuringSchedulingIgnoredDuringExecution: pinned('n1').nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution } }],
    ['an older pin replaced', pinned('n0'), pinned('n1')],
    ['pod affinity kept', { podAffinity: { x: 1 } }, { podAffinity: { x: 1 }, ...pinned('n1') }],
  ])('pinnedToNode: %s', (_n, affinity, want) => {
    expect(pinnedToNode(affinity, 'n1')).toEqual(want);
  });

  it.each([
    ['bound', pod('a', { nodeName: 'n2', affinity: pinned('n1') }), 'n2'],
    ['pinned', pod('a', { affinity: pinned('n1') }), 'n1'],
    ['neither', pod('a'), undefined],
  ])('targetNodeName: %s', (_n, p, want) => {
    expect(targetNodeName(p)).toBe(want);
  });

  it('podOrder: bound first, then older, then by name', () => {
    const pods = [pod('c', {}, { creationTimestamp: '2026-01-01T00:00:00Z' }), pod('b', { nodeName: 'n' }, { creationTimestamp: '2026-01-01T00:00:05Z' }), pod('a', { nodeName: 'n' }, { creationTimestamp: '2026-01-01T00:00:05Z' })];
    expect(pods.sort(podOrder).map((p) => p.metadata.name)).toEqual(['a', 'b', 'c']);
  });

  it('updatedPodsOnNode: one new and one old, terminating ones ignored; two of a kind is not ok', () => {
    const isNew = (p: Pod) => p.metadata.name.startsWith('new');
    expect(updatedPodsOnNode([pod('new1'), pod('old1'), pod('old2', {}, { deletionTimestamp: 'x' })], isNew)).toMatchObject({ ok: true, newPod: { metadata: { name: 'new1' } }, oldPod: { metadata: { name: 'old1' } } });
    expect(updatedPodsOnNode([pod('new1'), pod('new2')], isNew).ok).toBe(false);
  });

  it('pod names: <ds>- and 5 characters, the same for the same observation, the next index past a taken name', () => {
    const ds = { metadata: { name: 'agent', namespace: 'ns', uid: 'u' }, spec: {} } as DaemonSet;
    const first = daemonPodName(ds, 'n1', 'h', new Set());
    expect(first).toMatch(/^agent-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(daemonPodName(ds, 'n1', 'h', new Set())).toBe(first);
    expect(daemonPodName(ds, 'n1', 'h', new Set([first]))).not.toBe(first);
    expect(daemonPodName(ds, 'n2', 'h', new Set())).not.toBe(first);
  });
});
