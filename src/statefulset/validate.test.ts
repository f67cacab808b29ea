import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { formatFieldErrors } from '../kube/field-errors.js';
import type { StatefulSetLike } from './defaults.js';
import { inPlaceOnlyChange, validateStatefulSet } from './validate.js';

const SEEDS = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'seeds');
const seedStatefulSets = readdirSync(SEEDS)
  .filter((f) => f.includes('statefulset'))
  .flatMap((f) => parseAllDocuments(readFileSync(join(SEEDS, f), 'utf8')).map((d) => [f, d.toJS() as StatefulSetLike & { kind?: string }] as const))
  .filter(([, o]) => o?.kind === 'StatefulSet')
  .map(([f, o]) => [f, { ...o, metadata: { ...o.metadata, namespace: 'default' } }] as const);

type Spec = StatefulSetLike['spec'];
const labels = { a: 'b' };
const template = (extra: Record<string, unknown> = {}, meta: Record<string, unknown> = { labels }) => ({
  metadata: meta,
  spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', containers: [{ name: 'abc', image: 'image', imagePullPolicy: 'IfNotPresent' }], ...extra },
});
const sts = (spec: Partial<Spec> = {}, metadata: StatefulSetLike['metadata'] = { name: 'abc', namespace: 'default' }): StatefulSetLike => ({
  metadata,
  spec: { podManagementPolicy: 'OrderedReady', selector: { matchLabels: labels }, template: template(), updateStrategy: { type: 'RollingUpdate' }, ...spec },
});
const rolling = (rollingUpdate: Record<string, unknown>, type = 'RollingUpdate') => ({ updateStrategy: { type, rollingUpdate } });
const message = (s: StatefulSetLike, old?: StatefulSetLike) => {
  const errs = validateStatefulSet(s, old);
  return errs.length ? formatFieldErrors(errs) : 'valid';
};
const fields = (s: StatefulSetLike, old?: StatefulSetLike) => [...new Set(validateStatefulSet(s, old).map((e) => e.field))].sort();

describe('validateStatefulSet', () => {
  it.each(seedStatefulSets)('the seed %s is valid', (_file, s) => {
    expect(message(s)).toBe('valid');
  });

  // OpenKruise's TestValidateStatefulSet success cases.
  it.each<[string, StatefulSetLike]>([
    ['OrderedReady', sts()],
    ['a name with a dash', sts({}, { name: 'abc-123', namespace: 'default' })],
    ['Parallel', sts({ podManagementPolicy: 'Parallel' })],
    ['OnDelete', sts({ updateStrategy: { type: 'OnDelete' } })],
    ['a full rollingUpdate', sts({ replicas: 3, ...rolling({ partition: 2, podUpdatePolicy: 'ReCreate', maxUnavailable: 1, minReadySeconds: 10 }) })],
    ['reserveOrdinals as numbers and ranges', sts({ reserveOrdinals: [1, '3-5'] })],
    ['an in-place update with the readiness gate', sts({ ...rolling({ podUpdatePolicy: 'InPlaceIfPossible' }), template: template({ readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] }) })],
  ])('%s is valid', (_name, s) => {
    expect(message(s)).toBe('valid');
  });

  // OpenKruise's TestValidateStatefulSet error cases: the fields each reports.
  it.each<[string, StatefulSetLike, string[]]>([
    ['zero-length name', sts({}, { name: '', namespace: 'default' }), ['metadata.name']],
    ['missing namespace', sts({}, { name: 'abc-123' }), ['metadata.namespace']],
    ['no selector', sts({ selector: undefined }), ['spec.selector', 'spec.template.metadata.labels']],
    ['selector does not match', sts({ selector: { matchLabels: { foo: 'bar' } } }), ['spec.template.metadata.labels']],
    ['no template', sts({ template: undefined }), ['spec.template.metadata.labels']],
    ['negative replicas', sts({ replicas: -1, template: undefined }), ['spec.replicas', 'spec.template.metadata.labels']],
    ['an invalid label', sts({}, { name: 'abc-123', namespace: 'default', labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' } }), ['metadata.labels']],
    ['invalid labels everywhere', sts({ selector: undefined, template: template({}, { labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' } }) }, { name: 'abc-123', namespace: 'default', labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' } }),
      ['metadata.labels', 'spec.selector', 'spec.template.labels', 'spec.template.metadata.labels']],
    ['an invalid annotation', sts({}, { name: 'abc-123', namespace: 'default', annotations: { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' } }), ['metadata.annotations']],
    ['restartPolicy OnFailure', sts({ template: template({ restartPolicy: 'OnFailure' }) }), ['spec.template.spec.restartPolicy']],
    ['restartPolicy Never', sts({ template: template({ restartPolicy: 'Never' }) }), ['spec.template.spec.restartPolicy']],
    ['an unknown update type', sts({ replicas: 3, updateStrategy: { type: 'foo' } }), ['spec.updateStrategy']],
    ['OnDelete with a partition', sts(rolling({ partition: 1 }, 'OnDelete')), ['spec.updateStrategy.rollingUpdate']],
    ['OnDelete with maxUnavailable 120%', sts(rolling({ maxUnavailable: '120%' }, 'OnDelete')), ['spec.updateStrategy.rollingUpdate']],
    ['OnDelete with an unknown podUpdatePolicy', sts(rolling({ podUpdatePolicy: 'Unknown' }, 'OnDelete')), ['spec.updateStrategy.rollingUpdate']],
    ['OnDelete with InPlaceIfPossible', sts(rolling({ podUpdatePolicy: 'InPlaceIfPossible' }, 'OnDelete')), ['spec.updateStrategy.rollingUpdate']],
    ['a negative partition', sts(rolling({ partition: -1, podUpdatePolicy: 'ReCreate', maxUnavailable: 1, minReadySeconds: 1 })), ['spec.updateStrategy.rollingUpdate.partition']],
    ['a negative minReadySeconds', sts(rolling({ partition: -1, minReadySeconds: -1 })), ['spec.updateStrategy.rollingUpdate.minReadySeconds', 'spec.updateStrategy.rollingUpdate.partition']],
    ['minReadySeconds over 300', sts(rolling({ partition: -1, minReadySeconds: 301 })), ['spec.updateStrategy.rollingUpdate.minReadySeconds', 'spec.updateStrategy.rollingUpdate.partition']],
    ['an unknown podManagementPolicy', sts({ podManagementPolicy: 'foo' }), ['spec.podManagementPolicy']],
    ['activeDeadlineSeconds, restartPolicy and a mismatch', sts({ podManagementPolicy: 'foo', template: template({ restartPolicy: 'OnFailure', activeDeadlineSeconds: 60 }, { labels: { foo: 'bar' } }) }),
      ['spec.podManagementPolicy', 'spec.template.metadata.labels', 'spec.template.spec.activeDeadlineSeconds', 'spec.template.spec.restartPolicy']],
  ])('%s', (_name, s, want) => {
    expect(fields(s)).toEqual([...want].sort());
  });

  it.each<[string, StatefulSetLike, string]>([
    ['an unknown podManagementPolicy', sts({ podManagementPolicy: 'foo' }), `spec.podManagementPolicy: Invalid value: "foo": must be 'OrderedReady' or 'Parallel'`],
    ['no selector', sts({ selector: undefined }),
      '[spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`]'],
    ['an empty selector', sts({ selector: {} }),
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset'],
    ['activeDeadlineSeconds', sts({ template: template({ activeDeadlineSeconds: 5 }) }), 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported'],
    ['restartPolicy Never', sts({ template: template({ restartPolicy: 'Never' }) }), 'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ['an unknown update type', sts({ updateStrategy: { type: 'foo' } }),
      `spec.updateStrategy: Invalid value: v1beta1.StatefulSetUpdateStrategy{Type:"foo", RollingUpdate:(*v1beta1.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'`],
    ['OnDelete with a partition (the value as JSON, not a Go pointer)', sts(rolling({ partition: 1 }, 'OnDelete')),
      `spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy 'RollingUpdate'`],
    ['minReadySeconds over 300', sts(rolling({ minReadySeconds: 301 })), 'spec.updateStrategy.rollingUpdate.minReadySeconds: Invalid value: 301: must be no more than 300 seconds'],
    ['a negative partition', sts(rolling({ partition: -1 })), 'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ['an unknown podUpdatePolicy', sts(rolling({ podUpdatePolicy: 'Restart' })),
      `spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: "Restart": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`],
    ['InPlaceIfPossible without the readiness gate', sts(rolling({ podUpdatePolicy: 'InPlaceIfPossible' })),
      'spec.template.spec.readinessGates: Invalid value: []v1.PodReadinessGate(nil): must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceIfPossible'],
    ['InPlaceOnly with another readiness gate', sts({ ...rolling({ podUpdatePolicy: 'InPlaceOnly' }), template: template({ readinessGates: [{ conditionType: 'Other' }] }) }),
      'spec.template.spec.readinessGates: Invalid value: []v1.PodReadinessGate{v1.PodReadinessGate{ConditionType:"Other"}}: must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceOnly'],
    ['maxUnavailable 2 with OrderedReady', sts(rolling({ maxUnavailable: 2 })),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:2, StrVal:""}: can only work with Parallel PodManagementPolicyType'],
    ['maxUnavailable 0 with Parallel', sts({ podManagementPolicy: 'Parallel', ...rolling({ maxUnavailable: 0 }) }), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: should not be less than 1'],
    ['maxUnavailable -1 with Parallel', sts({ podManagementPolicy: 'Parallel', ...rolling({ maxUnavailable: -1 }) }),
      '[spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0, spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: should not be less than 1]'],
    ['maxUnavailable "abc" with Parallel', sts({ podManagementPolicy: 'Parallel', ...rolling({ maxUnavailable: 'abc' }) }),
      "[spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"abc\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), " +
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: getValueFromIntOrPercent error: invalid value for IntOrString: invalid type: string is not a percentage]'],
    ['maxUnavailable "1.5%" with Parallel', sts({ podManagementPolicy: 'Parallel', ...rolling({ maxUnavailable: '1.5%' }) }),
      "[spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"1.5%\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), " +
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: getValueFromIntOrPercent error: invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax]'],
    ['maxUnavailable 0% with Parallel', sts({ podManagementPolicy: 'Parallel', ...rolling({ maxUnavailable: '0%' }) }), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: should not be less than 1'],
    ['scaleStrategy.maxUnavailable 10% with OrderedReady', sts({ scaleStrategy: { maxUnavailable: '10%' } }),
      'spec.scaleStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: can only work with Parallel PodManagementPolicyType'],
    ['unorderedUpdate with OrderedReady', sts(rolling({ unorderedUpdate: {} })),
      'spec.updateStrategy.rollingUpdate.unorderedUpdate: Required value: unorderedUpdate can only work with Parallel PodManagementPolicyType'],
    ['unorderedUpdate with weight and order priorities', sts({ podManagementPolicy: 'Parallel', ...rolling({ unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 1, matchSelector: { matchLabels: { k: 'v' } } }], orderPriority: [{ orderedKey: 'k' }] } } }) }),
      'spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used'],
    ['an order priority without a key', sts({ podManagementPolicy: 'Parallel', ...rolling({ unorderedUpdate: { priorityStrategy: { orderPriority: [{}] } } }) }),
      'spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy: Required value: order key can not be empty'],
    ['a retention policy of Keep', sts({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }),
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ['a mirror-pod annotation without nodeName', sts({ template: template({}, { labels, annotations: { 'kubernetes.io/config.mirror': 'x' } }) }),
      'spec.template.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set'],
  ])('%s', (_name, s, want) => {
    expect(message(s)).toBe(want);
  });

  // OpenKruise's TestValidateReserveOrdinals, with the messages.
  it.each<[string, unknown[], string]>([
    ['none', [], 'valid'],
    ['a range', ['1-2'], 'valid'],
    ['an ordinal', [1], 'valid'],
    ['a bare number as a string', ['12'],
      '[spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:1, IntVal:0, StrVal:"12"}}: 0 th reserve ordinal is not a valid range: 12, ' +
        'spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:1, IntVal:0, StrVal:"12"}}: 0 th reserve ordinal is invalid: 12, err = invalid range 12]'],
    ['a negative ordinal', [0, -1], 'spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, intstr.IntOrString{Type:0, IntVal:-1, StrVal:""}}: 1 th reserve ordinal is negative: -1'],
    ['a descending range', ['5-3'], 'spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:1, IntVal:0, StrVal:"5-3"}}: 0 th reserve ordinal is invalid: 5-3, err = invalid range 5-3'],
    ['letters', ['a-3'],
      '[spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:1, IntVal:0, StrVal:"a-3"}}: 0 th reserve ordinal is not a valid range: a-3, ' +
        'spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:1, IntVal:0, StrVal:"a-3"}}: 0 th reserve ordinal is invalid: a-3, err = strconv.Atoi: parsing "a": invalid syntax]'],
  ])('reserveOrdinals: %s', (_name, reserveOrdinals, want) => {
    expect(message(sts({ reserveOrdinals: reserveOrdinals as Spec['reserveOrdinals'] }))).toBe(want);
  });

  it('defaults before validating: an empty update strategy and podManagementPolicy are filled in', () => {
    expect(message(sts({ podManagementPolicy: '', updateStrategy: {} }))).toBe('valid');
  });

  describe('updates', () => {
    const volumeClaim = (size: string) => ({ metadata: { name: 'foo' }, spec: { storageClassName: 'foo/bar', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } } });
    const tmpl = (image: string) => ({ metadata: { labels }, spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', containers: [{ name: 'abc', image, imagePullPolicy: 'IfNotPresent' }] } });

    it('replicas, revisionHistoryLimit, reserveOrdinals, lifecycle, template, claims, scaleStrategy and updateStrategy may change', () => {
      const old = sts({
        replicas: 5, revisionHistoryLimit: 5, reserveOrdinals: [1], lifecycle: { preDelete: { finalizersHandler: ['foo/bar'] } }, template: tmpl('image:v1'),
        volumeClaimTemplates: [volumeClaim('30Gi')], scaleStrategy: { maxUnavailable: 1 }, ...rolling({ partition: 5 }),
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Retain', whenDeleted: 'Retain' },
      }, { name: 'foo', namespace: 'bar' });
      const updated = sts({
        replicas: 10, revisionHistoryLimit: 10, reserveOrdinals: [2], lifecycle: { preDelete: { finalizersHandler: ['foo/hello'] } }, template: tmpl('image:v2'),
        volumeClaimTemplates: [volumeClaim('60Gi')], scaleStrategy: { maxUnavailable: 1 }, ...rolling({ partition: 10 }),
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' }, ordinals: { start: 2 },
      }, { name: 'foo', namespace: 'bar' });
      expect(message(updated, old)).toBe('valid');
    });

    const FORBIDDEN =
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy' are forbidden";
    it.each<[string, Partial<Spec>, Partial<Spec>]>([
      ['selector changed', { selector: { matchLabels: { a: 'b' } } }, { selector: { matchLabels: { a: 'b', c: 'd' } }, template: template({}, { labels: { a: 'b', c: 'd' } }) }],
      ['serviceName changed', { serviceName: 'foo' }, { serviceName: 'bar' }],
      ['podManagementPolicy changed', { podManagementPolicy: 'OrderedReady' }, { podManagementPolicy: 'Parallel' }],
    ])('%s: forbidden', (_name, before, after) => {
      expect(message(sts(after), sts(before))).toBe(FORBIDDEN);
    });

    it('an empty serviceName is the same as none', () => {
      expect(message(sts({ serviceName: '' }), sts())).toBe('valid');
    });

    it('the spec errors come first, each message once', () => {
      expect(message(sts({ serviceName: 'x', replicas: -1 }), sts())).toBe(`[spec.replicas: Invalid value: -1: must be greater than or equal to 0, ${FORBIDDEN}]`);
    });
  });
});

describe('inPlaceOnlyChange', () => {
  const inPlaceOnly = (image: string, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = { labels }) =>
    sts({ ...rolling({ podUpdatePolicy: 'InPlaceOnly' }), template: template({ readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'abc', image, ...extra }] }, meta) });

  it.each<[string, StatefulSetLike, StatefulSetLike, string | undefined]>([
    ['an image change', inPlaceOnly('v1'), inPlaceOnly('v2'), undefined],
    ['a label change', inPlaceOnly('v1'), inPlaceOnly('v1', {}, { labels: { ...labels, x: 'y' } }), undefined],
    ['an env added', inPlaceOnly('v1'), inPlaceOnly('v2', { env: [{ name: 'A', value: 'b' }] }), 'add /containers/0/env'],
    ['imagePullPolicy changed', inPlaceOnly('v1', { imagePullPolicy: 'Always' }), inPlaceOnly('v1', { imagePullPolicy: 'IfNotPresent' }), 'replace /containers/0/imagePullPolicy'],
    ['an empty list left out', inPlaceOnly('v1', { env: [] }), inPlaceOnly('v2'), undefined],
    ['any change under InPlaceIfPossible', sts(rolling({ podUpdatePolicy: 'InPlaceIfPossible' })), sts({ ...rolling({ podUpdatePolicy: 'InPlaceIfPossible' }), template: template({ hostNetwork: true }) }), undefined],
  ])('%s', (_name, old, updated, want) => {
    expect(inPlaceOnlyChange(updated, old)).toBe(want);
  });
});
