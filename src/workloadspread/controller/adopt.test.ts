import { describe, expect, it } from 'vitest';
import type { Node } from '../../workload/nodes.js';
import { pod, subset, workloadSpread } from '../test-builders.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION } from '../types.js';
import { adoptExistingPods, IGNORE_PATCH_EXISTING_PODS_ANNOTATION } from './adopt.js';

const ZONE = 'topology.kubernetes.io/zone';
const node = (name: string, zone: string, taints: { key: string; effect: string }[] = []): Node => ({ metadata: { name, labels: { [ZONE]: zone } }, spec: { taints } });
const NODES = new Map([node('n-a', 'a'), node('n-b', 'b'), node('n-t', 'a', [{ key: 'dedicated', effect: 'NoSchedule' }])].map((n) => [n.metadata.name, n]));
const inZone = (zone: string) => ({ matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] });
const on = (name: string, nodeName: string | undefined, o: Parameters<typeof pod>[0] = {}) => pod({ name, phase: 'Running', ...o, spec: { ...(nodeName ? { nodeName } : {}), ...o.spec } });
const matched = (subsetName: string) => ({ [MATCHED_WORKLOADSPREAD_ANNOTATION]: `{"name":"spread","subset":"${subsetName}"}` });

describe('adoptExistingPods', () => {
  const ws = workloadSpread({ subsets: [subset('a', { requiredNodeSelectorTerm: inZone('a'), maxReplicas: 1 }), subset('b', { requiredNodeSelectorTerm: inZone('b') })] });

  it('puts a pod created before the WorkloadSpread into the subset its node matches, and patches the annotation', () => {
    const { pods, adoptions } = adoptExistingPods(ws, [on('p1', 'n-a'), on('p2', 'n-b')], 2, NODES);
    expect(adoptions).toEqual([
      { pod: 'p1', subset: 'a', patch: { metadata: { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a"}' } } } },
      { pod: 'p2', subset: 'b', patch: { metadata: { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"b"}' } } } },
    ]);
    expect(pods.map((p) => p.metadata?.annotations?.[MATCHED_WORKLOADSPREAD_ANNOTATION])).toEqual(['{"name":"spread","subset":"a"}', '{"name":"spread","subset":"b"}']);
  });

  it('leaves placed pods, unscheduled pods, pods on unknown nodes and pods that fit no subset alone', () => {
    const pods = [on('placed', 'n-b', { annotations: matched('a') }), on('pending', undefined), on('gone', 'n-x'), on('tainted', 'n-t')];
    expect(adoptExistingPods(ws, pods, 4, NODES).adoptions).toEqual([]);
  });

  it('a pod placed by another WorkloadSpread, or with no subset, is adopted', () => {
    const other = on('other', 'n-b', { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"old","subset":"b"}' } });
    const empty = on('empty', 'n-b', { annotations: matched('') });
    expect(adoptExistingPods(ws, [other, empty], 2, NODES).adoptions.map((a) => a.subset)).toEqual(['b', 'b']);
  });

  it('the subset tolerations count: a tainted node fits a subset tolerating it', () => {
    const tolerant = workloadSpread({ subsets: [subset('t', { requiredNodeSelectorTerm: inZone('a'), tolerations: [{ key: 'dedicated', operator: 'Exists' }] })] });
    expect(adoptExistingPods(tolerant, [on('tainted', 'n-t')], 1, NODES).adoptions.map((a) => a.subset)).toEqual(['t']);
  });

  it('among matching subsets: preferred node weight first, then a pod already as the patch makes it, then room', () => {
    const open = (name: string, extra = {}) => subset(name, { ...extra });
    const preferred = workloadSpread({ subsets: [open('x'), open('y', { preferredNodeSelectorTerms: [{ weight: 5, preference: inZone('a') }] })] });
    expect(adoptExistingPods(preferred, [on('p', 'n-a')], 1, NODES).adoptions[0]!.subset).toBe('y');
    const patched = workloadSpread({ subsets: [open('x'), open('y', { patch: { metadata: { labels: { app: 'web' } } } })] });
    expect(adoptExistingPods(patched, [on('p', 'n-a')], 1, NODES).adoptions[0]!.subset).toBe('y');
    const full = workloadSpread({ subsets: [open('x', { maxReplicas: 1 }), open('y')] });
    const adopted = adoptExistingPods(full, [on('p1', 'n-a', { annotations: matched('x') }), on('p2', 'n-a')], 2, NODES);
    expect(adopted.adoptions.map((a) => a.subset)).toEqual(['y']);
    // Room runs out as pods are adopted: the first takes x's last place, the second goes on.
    expect(adoptExistingPods(full, [on('p1', 'n-a'), on('p2', 'n-a')], 2, NODES).adoptions.map((a) => a.subset)).toEqual(['x', 'y']);
  });

  it('room is counted per version', () => {
    const full = workloadSpread({ subsets: [subset('x', { maxReplicas: 1 }), subset('y')] });
    const v = (name: string, hash: string, o: Parameters<typeof pod>[0] = {}) => on(name, 'n-a', { labels: { app: 'web', 'pod-template-hash': hash }, ...o });
    const pods = [v('old-1', 'old', { annotations: matched('x') }), v('new-1', 'new')];
    expect(adoptExistingPods(full, pods, 2, NODES).adoptions.map((a) => a.subset)).toEqual(['x']);
  });

  describe('the subset patch', () => {
    const withPatch = (annotations?: Record<string, string>) =>
      workloadSpread({ subsets: [subset('a', { requiredNodeSelectorTerm: inZone('a'), patch: { metadata: { labels: { tier: 'gold' }, annotations: { note: 'x' } }, spec: { priorityClassName: 'high' } } })] });
    const annotated = (annotations?: Record<string, string>) => {
      const ws = withPatch();
      return annotations ? { ...ws, metadata: { ...ws.metadata, annotations } } : ws;
    };

    it("its metadata goes with the annotation (never its spec)", () => {
      expect(adoptExistingPods(annotated(), [on('p', 'n-a')], 1, NODES).adoptions[0]!.patch).toEqual({
        metadata: { labels: { tier: 'gold' }, annotations: { note: 'x', [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a"}' } },
      });
    });

    it.each(['true', 'TRUE', 'True'])('%s in ignore-patch-existing-pods-metadata leaves only the annotation', (value) => {
      expect(adoptExistingPods(annotated({ [IGNORE_PATCH_EXISTING_PODS_ANNOTATION]: value }), [on('p', 'n-a')], 1, NODES).adoptions[0]!.patch).toEqual({
        metadata: { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a"}' } },
      });
    });

    it('any other value keeps the metadata', () => {
      const patch = adoptExistingPods(annotated({ [IGNORE_PATCH_EXISTING_PODS_ANNOTATION]: 'yes' }), [on('p', 'n-a')], 1, NODES).adoptions[0]!.patch;
      expect(patch.metadata.labels).toEqual({ tier: 'gold' });
    });
  });
});
