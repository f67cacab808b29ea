// Node eligibility against Kubernetes' semantics: node selector terms (every operator, matchFields,
// empty terms), template matching, taints and tolerations, the daemon tolerations,
// NodeShouldRunDaemonPod and the scheduler's resource fit.
import { describe, expect, it } from 'vitest';
import {
  daemonNodeEligibility,
  effectiveTaints,
  fitsAllocatable,
  nodeMatchesPodTemplate,
  nodeMatchesSelectorTerms,
  podRequests,
  toleratesTaint,
  untoleratedTaint,
  withDaemonTolerations,
} from './node-eligibility.js';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, SchedulingSpec, Taint, Toleration } from './nodes.js';
import type { Pod } from './pods.js';

const node = (name: string, labels: Record<string, string> = {}, extra: Partial<Node> = {}): Node => ({ metadata: { name, labels }, ...extra });
const expr = (key: string, operator: string, values?: string[]): NodeSelectorRequirement => ({ key, operator, ...(values ? { values } : {}) });

describe('nodeMatchesSelectorTerms: matchExpressions operators', () => {
  const n = node('n1', { zone: 'a', gpu: '4', neg: '-3', big: '99999999999999999999', word: 'x' });
  const cases: [string, NodeSelectorRequirement, boolean][] = [
    ['In, value present', expr('zone', 'In', ['b', 'a']), true],
    ['In, value absent', expr('zone', 'In', ['b']), false],
    ['In, key absent', expr('rack', 'In', ['a']), false],
    ['In, no values is invalid', expr('zone', 'In', []), false],
    ['NotIn, value absent', expr('zone', 'NotIn', ['b']), true],
    ['NotIn, value present', expr('zone', 'NotIn', ['a']), false],
    ['NotIn, key absent matches', expr('rack', 'NotIn', ['a']), true],
    ['NotIn, no values is invalid', expr('rack', 'NotIn', []), false],
    ['Exists, present', expr('zone', 'Exists'), true],
    ['Exists, absent', expr('rack', 'Exists'), false],
    ['Exists with values is invalid', expr('zone', 'Exists', ['a']), false],
    ['DoesNotExist, absent', expr('rack', 'DoesNotExist'), true],
    ['DoesNotExist, present', expr('zone', 'DoesNotExist'), false],
    ['DoesNotExist with values is invalid', expr('rack', 'DoesNotExist', ['a']), false],
    ['Gt, greater', expr('gpu', 'Gt', ['3']), true],
    ['Gt, equal', expr('gpu', 'Gt', ['4']), false],
    ['Gt, key absent', expr('rack', 'Gt', ['0']), false],
    ['Gt, label not an integer', expr('word', 'Gt', ['0']), false],
    ['Gt, negative label value', expr('neg', 'Gt', ['1']), false],
    ['Gt, label beyond int64', expr('big', 'Gt', ['1']), false],
    ['Gt, value not an integer is invalid', expr('gpu', 'Gt', ['x']), false],
    ['Gt, two values is invalid', expr('gpu', 'Gt', ['1', '2']), false],
    ['Gt, negative value is not a label value', expr('gpu', 'Gt', ['-1']), false],
    ['Lt, less', expr('gpu', 'Lt', ['5']), true],
    ['Lt, equal', expr('gpu', 'Lt', ['4']), false],
    ['Lt, negative label below', expr('neg', 'Lt', ['0']), true],
    ['Lt, key absent', expr('rack', 'Lt', ['10']), false],
    ['unknown operator', expr('zone', 'Equals', ['a']), false],
    ['invalid key', expr('bad key', 'Exists'), false],
  ];
  it.each(cases)('%s', (_name, requirement, want) => {
    expect(nodeMatchesSelectorTerms(n, [{ matchExpressions: [requirement] }])).toBe(want);
  });
});

describe('nodeMatchesSelectorTerms: matchFields, terms and their combination', () => {
  const n = node('n1', { zone: 'a' });
  const cases: [string, NodeSelectorTerm[] | null, boolean][] = [
    ['metadata.name In', [{ matchFields: [expr('metadata.name', 'In', ['n1'])] }], true],
    ['metadata.name In another', [{ matchFields: [expr('metadata.name', 'In', ['n2'])] }], false],
    ['metadata.name NotIn another', [{ matchFields: [expr('metadata.name', 'NotIn', ['n2'])] }], true],
    ['metadata.name NotIn itself', [{ matchFields: [expr('metadata.name', 'NotIn', ['n1'])] }], false],
    ['field In with two values is invalid', [{ matchFields: [expr('metadata.name', 'In', ['n1', 'n2'])] }], false],
    ['field Exists is invalid', [{ matchFields: [expr('metadata.name', 'Exists')] }], false],
    ['expressions and fields ANDed: both hold', [{ matchExpressions: [expr('zone', 'In', ['a'])], matchFields: [expr('metadata.name', 'In', ['n1'])] }], true],
    ['expressions and fields ANDed: field fails', [{ matchExpressions: [expr('zone', 'In', ['a'])], matchFields: [expr('metadata.name', 'In', ['n2'])] }], false],
    ['expressions ANDed within a term', [{ matchExpressions: [expr('zone', 'In', ['a']), expr('rack', 'Exists')] }], false],
    ['terms ORed', [{ matchExpressions: [expr('zone', 'In', ['b'])] }, { matchExpressions: [expr('zone', 'In', ['a'])] }], true],
    ['an invalid term is skipped, the next still matches', [{ matchExpressions: [expr('zone', 'In', [])] }, { matchFields: [expr('metadata.name', 'In', ['n1'])] }], true],
    ['an empty term matches nothing', [{}], false],
    ['empty lists make an empty term', [{ matchExpressions: [], matchFields: [] }], false],
    ['an empty term beside a matching one', [{}, { matchExpressions: [expr('zone', 'Exists')] }], true],
    ['no terms match nothing', [], false],
    ['null terms match nothing', null, false],
  ];
  it.each(cases)('%s', (_name, terms, want) => {
    expect(nodeMatchesSelectorTerms(n, terms)).toBe(want);
  });
});

describe('nodeMatchesPodTemplate', () => {
  const n = node('n1', { zone: 'a', disk: 'ssd' });
  const affinity = (terms: NodeSelectorTerm[]): SchedulingSpec['affinity'] => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } });
  const cases: [string, SchedulingSpec, boolean][] = [
    ['no constraints', {}, true],
    ['nodeName equal', { nodeName: 'n1' }, true],
    ['nodeName other', { nodeName: 'n2' }, false],
    ['nodeSelector all equal', { nodeSelector: { zone: 'a', disk: 'ssd' } }, true],
    ['nodeSelector one differs', { nodeSelector: { zone: 'a', disk: 'hdd' } }, false],
    ['nodeSelector key missing', { nodeSelector: { rack: '' } }, false],
    ['affinity matches', { affinity: affinity([{ matchExpressions: [expr('zone', 'In', ['a'])] }]) }, true],
    ['affinity does not match', { affinity: affinity([{ matchExpressions: [expr('zone', 'NotIn', ['a'])] }]) }, false],
    ['affinity with no terms matches nothing', { affinity: affinity([]) }, false],
    ['nodeSelector and affinity both required', { nodeSelector: { zone: 'b' }, affinity: affinity([{ matchExpressions: [expr('zone', 'Exists')] }]) }, false],
    ['affinity without required part', { affinity: { nodeAffinity: {} } }, true],
  ];
  it.each(cases)('%s', (_name, spec, want) => {
    expect(nodeMatchesPodTemplate(n, spec)).toBe(want);
  });

  it('accepts a Pod spec as it is', () => {
    const pod: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], nodeSelector: { zone: 'a' } } };
    expect(nodeMatchesPodTemplate(n, pod.spec)).toBe(true);
  });
});

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const cases: [string, Toleration, Taint, boolean][] = [
    ['Equal, same key, value and effect', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, taint, true],
    ['operator defaults to Equal', { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, taint, true],
    ['Equal, other value', { key: 'dedicated', value: 'cpu', effect: 'NoSchedule' }, taint, false],
    ['Equal, no value against a valued taint', { key: 'dedicated', effect: 'NoSchedule' }, taint, false],
    ['Equal, no value against an unvalued taint', { key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoSchedule' }, true],
    ['Exists ignores the value', { key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }, taint, true],
    ['other key', { key: 'other', operator: 'Exists' }, taint, false],
    ['other effect', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, taint, false],
    ['empty effect matches every effect', { key: 'dedicated', operator: 'Exists' }, { ...taint, effect: 'NoExecute' }, true],
    ['empty key with Exists tolerates everything', { operator: 'Exists' }, { key: 'anything', value: 'v', effect: 'NoExecute' }, true],
    ['empty key with Exists and an effect', { operator: 'Exists', effect: 'NoSchedule' }, { key: 'x', effect: 'PreferNoSchedule' }, false],
    ['unknown operator', { key: 'dedicated', operator: 'Gt', value: 'gpu' }, taint, false],
    ['tolerationSeconds is irrelevant', { key: 'dedicated', operator: 'Exists', tolerationSeconds: 0 }, { ...taint, effect: 'NoExecute' }, true],
  ];
  it.each(cases)('%s', (_name, toleration, t, want) => {
    expect(toleratesTaint(toleration, t)).toBe(want);
  });
});

describe('untoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'soft', effect: 'PreferNoSchedule' },
    { key: 'a', effect: 'NoSchedule' },
    { key: 'b', value: 'x', effect: 'NoExecute' },
  ];
  it('returns the first taint with a listed effect that nothing tolerates', () => {
    expect(untoleratedTaint(taints, [], ['NoSchedule', 'NoExecute'])).toEqual(taints[1]);
    expect(untoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }], ['NoSchedule', 'NoExecute'])).toEqual(taints[2]);
    expect(untoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }], ['NoSchedule'])).toBeUndefined();
    expect(untoleratedTaint(taints, [], ['PreferNoSchedule'])).toEqual(taints[0]);
    expect(untoleratedTaint(taints, [{ operator: 'Exists' }], ['NoSchedule', 'NoExecute'])).toBeUndefined();
    expect(untoleratedTaint(null, null, ['NoSchedule'])).toBeUndefined();
  });
});

describe('withDaemonTolerations', () => {
  const keys = (spec: SchedulingSpec) => (spec.tolerations ?? []).map((t) => `${t.key}:${t.effect}`);
  const base = [
    'node.kubernetes.io/not-ready:NoExecute',
    'node.kubernetes.io/unreachable:NoExecute',
    'node.kubernetes.io/disk-pressure:NoSchedule',
    'node.kubernetes.io/memory-pressure:NoSchedule',
    'node.kubernetes.io/pid-pressure:NoSchedule',
    'node.kubernetes.io/unschedulable:NoSchedule',
  ];

  it('adds the six daemon tolerations, as Exists', () => {
    const out = withDaemonTolerations({});
    expect(keys(out)).toEqual(base);
    expect(out.tolerations!.every((t) => t.operator === 'Exists' && t.tolerationSeconds === undefined)).toBe(true);
  });

  it('adds network-unavailable for hostNetwork pods only', () => {
    expect(keys(withDaemonTolerations({ hostNetwork: true }))).toEqual([...base, 'node.kubernetes.io/network-unavailable:NoSchedule']);
    expect(keys(withDaemonTolerations({ hostNetwork: false }))).toEqual(base);
  });

  it('keeps the template tolerations first and does not duplicate', () => {
    const own: Toleration = { key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' };
    const once = withDaemonTolerations({ tolerations: [own] });
    expect(keys(once)).toEqual(['dedicated:NoSchedule', ...base]);
    expect(withDaemonTolerations(once).tolerations).toEqual(once.tolerations);
  });

  it('replaces a matching toleration in place, dropping its tolerationSeconds', () => {
    const spec: SchedulingSpec = { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
    const out = withDaemonTolerations(spec);
    expect(keys(out)).toEqual(base);
    expect(out.tolerations![0]).toEqual({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
    expect(spec.tolerations![0]!.tolerationSeconds).toBe(300); // the input is not changed
  });

  it('keeps a toleration that differs in operator beside the daemon one', () => {
    const out = withDaemonTolerations({ tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Equal', value: '', effect: 'NoExecute' }] });
    expect(keys(out).filter((k) => k === 'node.kubernetes.io/unreachable:NoExecute')).toHaveLength(2);
  });
});

describe('daemonNodeEligibility', () => {
  const tainted = (...taints: Taint[]): Node => node('n1', { role: 'edge' }, { spec: { taints } });
  type Case = [string, Node, SchedulingSpec, boolean, boolean];
  const cases: Case[] = [
    ['plain node', node('n1'), {}, true, true],
    ['nodeSelector mismatch', node('n1', { role: 'core' }), { nodeSelector: { role: 'edge' } }, false, false],
    ['nodeName of another node', node('n1'), { nodeName: 'n2' }, false, false],
    ['affinity pinned to this node', node('n1'), { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [expr('metadata.name', 'In', ['n1'])] }] } } } }, true, true],
    ['affinity pinned elsewhere', node('n1'), { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [expr('metadata.name', 'In', ['n2'])] }] } } } }, false, false],
    ['untolerated NoSchedule: keep running', tainted({ key: 'k', effect: 'NoSchedule' }), {}, false, true],
    ['untolerated NoExecute: evict', tainted({ key: 'k', effect: 'NoExecute' }), {}, false, false],
    ['PreferNoSchedule is ignored', tainted({ key: 'k', effect: 'PreferNoSchedule' }), {}, true, true],
    ['tolerated NoExecute', tainted({ key: 'k', value: 'v', effect: 'NoExecute' }), { tolerations: [{ key: 'k', value: 'v', effect: 'NoExecute' }] }, true, true],
    ['NoExecute tolerated, NoSchedule not', tainted({ key: 'k', effect: 'NoExecute' }, { key: 's', effect: 'NoSchedule' }), { tolerations: [{ key: 'k', operator: 'Exists' }] }, false, true],
    ['NoSchedule tolerated, NoExecute not', tainted({ key: 's', effect: 'NoSchedule' }, { key: 'k', effect: 'NoExecute' }), { tolerations: [{ key: 's', operator: 'Exists' }] }, false, false],
    ['not-ready NoExecute is a daemon toleration', tainted({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }), {}, true, true],
    ['unreachable NoExecute is a daemon toleration', tainted({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }), {}, true, true],
    ['disk-pressure NoSchedule is a daemon toleration', tainted({ key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' }), {}, true, true],
    ['memory-pressure NoSchedule is a daemon toleration', tainted({ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }), {}, true, true],
    ['pid-pressure NoSchedule is a daemon toleration', tainted({ key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' }), {}, true, true],
    ['memory-pressure NoExecute is not', tainted({ key: 'node.kubernetes.io/memory-pressure', effect: 'NoExecute' }), {}, false, false],
    ['network-unavailable without hostNetwork', tainted({ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }), {}, false, true],
    ['network-unavailable with hostNetwork', tainted({ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }), { hostNetwork: true }, true, true],
    ['cordoned (taint)', tainted({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }), {}, true, true],
    ['cordoned (spec.unschedulable only)', node('n1', {}, { spec: { unschedulable: true } }), {}, true, true],
  ];
  it.each(cases)('%s', (_name, n, spec, shouldRun, shouldContinueRunning) => {
    const got = daemonNodeEligibility(n, spec);
    expect({ shouldRun: got.shouldRun, shouldContinueRunning: got.shouldContinueRunning }).toEqual({ shouldRun, shouldContinueRunning });
    expect(got.reason === undefined).toBe(shouldRun);
  });

  it('names the blocking taint, the evicting one first', () => {
    expect(daemonNodeEligibility(tainted({ key: 's', effect: 'NoSchedule' }, { key: 'k', value: 'v', effect: 'NoExecute' }), {}).reason).toContain('k=v:NoExecute');
    expect(daemonNodeEligibility(tainted({ key: 's', effect: 'NoSchedule' }), {}).reason).toContain('s:NoSchedule');
    expect(daemonNodeEligibility(node('n1'), { nodeSelector: { a: 'b' } }).reason).toMatch(/nodeSelector/);
  });
});

describe('effectiveTaints', () => {
  it('adds the unschedulable taint for a cordoned node, once', () => {
    expect(effectiveTaints(node('n', {}, { spec: { unschedulable: true } }))).toEqual([{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]);
    const already = node('n', {}, { spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: 't' }] } });
    expect(effectiveTaints(already)).toHaveLength(1);
    expect(effectiveTaints(node('n'))).toEqual([]);
  });
});

describe('podRequests', () => {
  const c = (name: string, requests: Record<string, string>, restartPolicy?: string) => ({ name, resources: { requests }, ...(restartPolicy ? { restartPolicy } : {}) });
  const asText = (spec: SchedulingSpec) => Object.fromEntries([...podRequests(spec)].map(([k, v]) => [k, String(v)]));
  const G = 10n ** 9n;
  const cases: [string, SchedulingSpec, Record<string, bigint>][] = [
    ['containers summed', { containers: [c('a', { cpu: '100m', memory: '1Gi' }), c('b', { cpu: '0.5', memory: '512Mi' })] }, { cpu: (6n * G) / 10n, memory: 1536n * 2n ** 20n * G }],
    ['an init container larger than the sum wins', { containers: [c('a', { cpu: '100m' }), c('b', { cpu: '100m' })], initContainers: [c('i', { cpu: '1' })] }, { cpu: G }],
    ['a smaller init container changes nothing', { containers: [c('a', { cpu: '1' })], initContainers: [c('i', { cpu: '500m', 'example.com/gpu': '2' })] }, { cpu: G, 'example.com/gpu': 2n * G }],
    ['init containers: the max, not the sum', { containers: [], initContainers: [c('i', { cpu: '300m' }), c('j', { cpu: '200m' })] }, { cpu: (3n * G) / 10n }],
    [
      'a sidecar adds to the containers and to later init containers',
      { containers: [c('a', { cpu: '200m' })], initContainers: [c('side', { cpu: '100m' }, 'Always'), c('i', { cpu: '250m' })] },
      { cpu: (35n * G) / 100n },
    ],
    ['pod overhead is added', { containers: [c('a', { cpu: '100m' })], overhead: { cpu: '50m' } }, { cpu: (15n * G) / 100n }],
  ];
  it.each(cases)('%s', (_name, spec, want) => {
    expect(asText(spec)).toEqual(Object.fromEntries(Object.entries(want).map(([k, v]) => [k, String(v)])));
  });
});

describe('fitsAllocatable', () => {
  const c = (requests: Record<string, string>) => ({ name: 'c', resources: { requests } });
  const big = node('n1', {}, { status: { allocatable: { cpu: '2', memory: '4Gi', 'ephemeral-storage': '10Gi', pods: '3', 'example.com/gpu': '1' } } });
  const on = (requests: Record<string, string>) => ({ spec: { containers: [c(requests)] } });
  const cases: [string, SchedulingSpec, { spec: SchedulingSpec }[], string[]][] = [
    ['no requests', { containers: [c({})] }, [], []],
    ['fits exactly', { containers: [c({ cpu: '2', memory: '4Gi' })] }, [], []],
    ['too much cpu', { containers: [c({ cpu: '2001m' })] }, [], ['cpu']],
    ['too much memory and ephemeral-storage', { containers: [c({ memory: '5Gi', 'ephemeral-storage': '11Gi' })] }, [], ['memory', 'ephemeral-storage']],
    ['extended resource available', { containers: [c({ 'example.com/gpu': '1' })] }, [], []],
    ['extended resource not on the node', { containers: [c({ 'example.com/fpga': '1' })] }, [], ['example.com/fpga']],
    ['other pods take the cpu', { containers: [c({ cpu: '1' })] }, [on({ cpu: '1500m' })], ['cpu']],
    ['other pods leave enough', { containers: [c({ cpu: '1' })] }, [on({ cpu: '500m' }), on({ cpu: '500m' })], []],
    ['too many pods', { containers: [c({})] }, [on({}), on({}), on({})], ['pods']],
    ['an init container larger than allocatable', { containers: [c({ cpu: '1' })], initContainers: [{ name: 'i', resources: { requests: { cpu: '3' } } }] }, [], ['cpu']],
    ['other pods count their init containers', { containers: [c({ cpu: '1' })] }, [{ spec: { containers: [], initContainers: [{ name: 'i', resources: { requests: { cpu: '1500m' } } }] } }], ['cpu']],
  ];
  it.each(cases)('%s', (_name, spec, pods, want) => {
    const got = fitsAllocatable(big, spec, pods);
    expect(got.insufficient.map((r) => r.resource)).toEqual(want);
    expect(got.fits).toBe(want.length === 0);
  });

  it('reports the amounts and a scheduler-like reason', () => {
    const got = fitsAllocatable(big, { containers: [c({ cpu: '1500m', memory: '1Gi' })] }, [on({ cpu: '1', memory: '3500Mi' })]);
    expect(got.reason).toBe('Insufficient cpu, Insufficient memory');
    expect(got.insufficient[0]).toEqual({ resource: 'cpu', requested: '1500m', used: '1', allocatable: '2' });
    expect(got.insufficient[1]).toEqual({ resource: 'memory', requested: '1Gi', used: '3500Mi', allocatable: '4Gi' });
  });

  it('rounds cpu up to millicores, as the scheduler counts it', () => {
    const n = node('n', {}, { status: { allocatable: { cpu: '1m', pods: '1' } } });
    expect(fitsAllocatable(n, { containers: [c({ cpu: '0.0005' })] }).fits).toBe(true);
    expect(fitsAllocatable(n, { containers: [c({ cpu: '0.0015' })] }).fits).toBe(false);
  });

  it('a node without allocatable fits no pod', () => {
    expect(fitsAllocatable(node('n'), { containers: [] }).reason).toBe('Too many pods');
  });
});
