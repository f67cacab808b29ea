import { describe, expect, it } from 'vitest';
import { formatMatchedWorkloadSpread, injectSubset, parseMatchedWorkloadSpread } from './inject.js';
import { pod, subset, workloadSpread } from './test-builders.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION, type Pod } from './types.js';

const zoneA = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] };
const spot = { matchExpressions: [{ key: 'spot', operator: 'Exists' }] };

function inject(p: Pod, extra: Parameters<typeof subset>[1], key?: string): Pod {
  const r = injectSubset(p, workloadSpread({ subsets: [subset('a', extra)] }), 'a', key);
  if (!r.ok) throw new Error(r.error);
  return r.pod;
}

describe('formatMatchedWorkloadSpread', () => {
  it.each([
    [{ name: 'ws-zone', subset: 'zone-a' }, '{"name":"ws-zone","subset":"zone-a"}'],
    [{ name: 'ws', subset: 's', uid: 'u-1' }, '{"name":"ws","subset":"s","uid":"u-1"}'],
    [{ name: 'ws', subset: 'a<b&c' }, '{"name":"ws","subset":"a\\u003cb\\u0026c"}'],
  ])('%j', (m, want) => {
    expect(formatMatchedWorkloadSpread(m)).toBe(want);
    expect(parseMatchedWorkloadSpread({ metadata: { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: want } } })).toEqual(m);
  });
});

describe('injectSubset', () => {
  it('adds an empty nodeAffinity and the annotation even for a bare subset', () => {
    const out = inject(pod(), {});
    expect(out.spec?.affinity).toEqual({ nodeAffinity: {} });
    expect(out.metadata?.annotations?.[MATCHED_WORKLOADSPREAD_ANNOTATION]).toBe('{"name":"spread","subset":"a"}');
  });

  it('records the generated key as uid', () => {
    expect(inject(pod(), {}, 'k-1').metadata?.annotations?.[MATCHED_WORKLOADSPREAD_ANNOTATION]).toBe('{"name":"spread","subset":"a","uid":"k-1"}');
  });

  it.each<[string, Pod, Parameters<typeof subset>[1], (p: Pod) => unknown, unknown]>([
    ['tolerations appended', pod({ spec: { tolerations: [{ key: 'x', operator: 'Exists' }] } }), { tolerations: [{ key: 'y', operator: 'Exists' }] },
      (p) => p.spec?.tolerations, [{ key: 'x', operator: 'Exists' }, { key: 'y', operator: 'Exists' }]],
    ['required term becomes the only term', pod(), { requiredNodeSelectorTerm: zoneA },
      (p) => p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution, { nodeSelectorTerms: [zoneA] }],
    ['required term narrows every existing term', pod({ spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [spot, {}] } } } } }),
      { requiredNodeSelectorTerm: zoneA }, (p) => p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
      [{ matchExpressions: [...spot.matchExpressions, ...zoneA.matchExpressions] }, { matchExpressions: zoneA.matchExpressions }]],
    ['preferred terms appended', pod(), { preferredNodeSelectorTerms: [{ weight: 1, preference: zoneA }] },
      (p) => p.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution, [{ weight: 1, preference: zoneA }]],
    ['patch merges labels', pod(), { patch: { metadata: { labels: { subset: 'a' } } } }, (p) => p.metadata?.labels?.subset, 'a'],
    ['patch can change containers by name', pod(), { patch: { spec: { containers: [{ name: 'app', resources: { limits: { cpu: '1' } } }] } } },
      (p) => p.spec?.containers, [{ name: 'app', image: 'app:1', resources: { limits: { cpu: '1' } } }]],
    ['a changed priorityClassName clears priority', pod({ spec: { priorityClassName: 'low', priority: 1 } }), { patch: { spec: { priorityClassName: 'high' } } },
      (p) => [p.spec?.priorityClassName, p.spec?.priority], ['high', undefined]],
    ['an unchanged priorityClassName keeps priority', pod({ spec: { priorityClassName: 'low', priority: 1 } }), { patch: { metadata: { labels: { x: 'y' } } } },
      (p) => p.spec?.priority, 1],
  ])('%s', (_name, p, extra, pick, want) => {
    expect(pick(inject(p, extra))).toEqual(want);
  });

  it('does not touch the input', () => {
    const p = pod();
    const before = structuredClone(p);
    inject(p, { tolerations: [{ key: 'y' }], patch: { metadata: { labels: { a: 'b' } } } });
    expect(p).toEqual(before);
  });

  it('a subset missing from spec injects nothing', () => {
    const p = pod();
    expect(injectSubset(p, workloadSpread(), 'gone')).toEqual({ ok: true, pod: p });
  });

  it('a patch error fails', () => {
    const r = injectSubset(pod(), workloadSpread({ subsets: [subset('a', { patch: { spec: { containers: [{ image: 'x' }] } } })] }), 'a');
    expect(r).toEqual({ ok: false, error: 'failed to apply the patch of subset a: map: {"image":"x"} does not contain declared merge key: name' });
  });
});
