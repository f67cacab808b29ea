// Validation of an Advanced StatefulSet (apps.kruise.io v1beta1, and v1alpha1 served with the same
// schema), with OpenKruise's rules, field paths and messages (pkg/webhook/statefulset/validating):
// metadata, podManagementPolicy, reserveOrdinals, scaleStrategy.maxUnavailable, the update
// strategy (rollingUpdate only for RollingUpdate; partition, minReadySeconds 0..300,
// maxUnavailable ≥ 1 and other than 1 only with Parallel, podUpdatePolicy, the InPlaceUpdateReady
// readiness gate for in-place updates, unorderedUpdate only with Parallel), the PVC retention
// policy, replicas, the selector against the template labels, restartPolicy and
// activeDeadlineSeconds; on UPDATE the fields that may not change, and InPlaceOnly's images-only
// template rule (inPlaceOnlyChange). The object is defaulted first, as OpenKruise's mutating
// webhook does before its validating one. Pure.
//
// Unlike a CloneSet's, the pod spec itself is not validated (neither does OpenKruise: the
// API server checks each pod). Where OpenKruise's message prints a Go pointer's address, the value
// is shown as JSON instead.
import { jsonPatch } from '../admission/patch.js';
import { supportedValues, type FieldError } from '../kube/field-errors.js';
import { goIntOrString, type IntOrString } from '../kube/intstr.js';
import { compileSelector, selectorMatches, type LabelSelector as MatchSelector } from '../kube/selectors.js';
import {
  NEGATIVE_ERROR,
  goLabelSelector,
  goStringMap,
  isDNS1123Label,
  isDNS1123Subdomain,
  isRecord,
  isValidPercent,
  validateAnnotations,
  validateLabelSelector,
  validateLabels,
  type LabelSelector,
} from '../kube/validation.js';
import { defaultedStatefulSet, type RollingUpdateLike, type StatefulSetLike } from './defaults.js';

/** The pod condition in-place updates hold pods NotReady with; the template must name it as a readiness gate. */
export const IN_PLACE_UPDATE_READY = 'InPlaceUpdateReady';
/** Most seconds rollingUpdate.minReadySeconds may ask for (appsv1beta1.MaxMinReadySeconds). */
export const MAX_MIN_READY_SECONDS = 300;
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const RETENTION_POLICIES = ['Retain', 'Delete'];
const PARALLEL_ONLY = 'can only work with Parallel PodManagementPolicyType';
/** What may change on UPDATE (ValidateStatefulSetUpdate); everything else in spec is fixed. */
const MUTABLE_SPEC = new Set([
  'replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'scaleStrategy', 'volumeClaimTemplates',
  'volumeClaimUpdateStrategy', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'ordinals',
]);
const IMMUTABLE_MESSAGE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy' are forbidden";
const IN_PLACE_IMAGE_PATH = /^\/containers\/[0-9]+\/image$/;
const RESERVE_RANGE = /^\d+-\d+$/;

type Spec = StatefulSetLike['spec'];
type Obj = Record<string, unknown>;
const isNumber = (v: unknown): v is number => typeof v === 'number';
const nonNegative = (v: unknown, field: string): FieldError[] => (isNumber(v) && v < 0 ? [{ field, type: 'Invalid', value: v, detail: NEGATIVE_ERROR }] : []);

/**
 * The JSON as Go would re-encode it for a comparison: null, '', [] and {} read as absent (Go
 * decodes absent and empty alike, and omits them again), keys sorted.
 */
export function withoutEmpty(v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (Array.isArray(v)) return v.length ? v.map((x) => withoutEmpty(x) ?? null) : undefined;
  if (!isRecord(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) {
    const x = withoutEmpty(v[k]);
    if (x !== undefined) out[k] = x;
  }
  return Object.keys(out).length ? out : undefined;
}

/** strconv.Atoi: an int64, or its error text. */
function atoi(s: string): number | string {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`;
  return Number(n);
}

/** intstr.GetValueFromIntOrPercent (Kubernetes'): an int as is, "N%" of total (N an integer); else the error. */
function valueFromIntOrPercent(v: IntOrString, total: number, roundUp: boolean): number | { error: string } {
  if (isNumber(v)) return Math.trunc(v);
  if (!v.endsWith('%')) return { error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const n = atoi(v.slice(0, -1));
  if (typeof n === 'string') return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: ${n}` };
  const scaled = (n * total) / 100;
  return (roundUp ? Math.ceil(scaled) : Math.floor(scaled)) || 0;
}

/** Go's `%#v` of a []intstr.IntOrString. */
const goIntOrStrings = (list: readonly IntOrString[]): string => `[]intstr.IntOrString{${list.map(goIntOrString).join(', ')}}`;

/** Go's `%#v` of the template's []v1.PodReadinessGate. */
function goReadinessGates(gates: unknown): string {
  if (!Array.isArray(gates)) return '[]v1.PodReadinessGate(nil)';
  const items = gates.map((g) => `v1.PodReadinessGate{ConditionType:${JSON.stringify(isRecord(g) ? (g.conditionType ?? '') : '')}}`);
  return `[]v1.PodReadinessGate{${items.join(', ')}}`;
}

function validateMetadata(meta: StatefulSetLike['metadata']): FieldError[] {
  const errs: FieldError[] = [];
  const name = meta?.name ?? '';
  if (!name) errs.push({ field: 'metadata.name', type: 'Required', detail: 'name or generateName is required' });
  for (const detail of name ? isDNS1123Subdomain(name) : []) errs.push({ field: 'metadata.name', type: 'Invalid', value: name, detail });
  const ns = meta?.namespace ?? '';
  if (!ns) errs.push({ field: 'metadata.namespace', type: 'Required', detail: '' });
  for (const detail of ns ? isDNS1123Label(ns) : []) errs.push({ field: 'metadata.namespace', type: 'Invalid', value: ns, detail });
  return [...errs, ...validateLabels(meta?.labels, 'metadata.labels'), ...validateAnnotations(meta?.annotations, 'metadata.annotations')];
}

function validatePodManagementPolicy(policy: unknown): FieldError[] {
  if (policy === undefined || policy === null || policy === '') return [{ field: 'spec.podManagementPolicy', type: 'Required', detail: '' }];
  if (policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [{ field: 'spec.podManagementPolicy', type: 'Invalid', value: policy, detail: "must be 'OrderedReady' or 'Parallel'" }];
}

/** Each entry an ordinal ≥ 0 or a range "a-b" with a ≤ b; errors are reported on `spec`, with the whole list. */
function validateReserveOrdinals(list: unknown): FieldError[] {
  if (!Array.isArray(list) || list.length === 0) return [];
  const all = list.filter((e): e is IntOrString => isNumber(e) || typeof e === 'string');
  const invalid = (detail: string): FieldError => ({ field: 'spec', type: 'Invalid', goValue: goIntOrStrings(all), detail });
  const errs: FieldError[] = [];
  list.forEach((elem, i) => {
    if (typeof elem === 'string') {
      if (!RESERVE_RANGE.test(elem)) errs.push(invalid(`${i} th reserve ordinal is not a valid range: ${elem}`));
      const problem = rangeProblem(elem);
      if (problem) errs.push(invalid(`${i} th reserve ordinal is invalid: ${elem}, err = ${problem}`));
    } else if (isNumber(elem) && elem < 0) {
      errs.push(invalid(`${i} th reserve ordinal is negative: ${elem}`));
    }
  });
  return errs;
}

/** apiutil.ParseRange's error for "start-end", if any. */
function rangeProblem(s: string): string | undefined {
  const parts = s.split('-');
  if (parts.length !== 2) return `invalid range ${s}`;
  const start = atoi(parts[0]!);
  if (typeof start === 'string') return start;
  const end = atoi(parts[1]!);
  if (typeof end === 'string') return end;
  return start > end ? `invalid range ${s}` : undefined;
}

/** validateMaxUnavailableField: a non-negative number or percentage, at least 1 of 1 pod, and other than 1 only with Parallel. */
function validateMaxUnavailable(v: unknown, policy: unknown, field: string): FieldError[] {
  if (!isNumber(v) && typeof v !== 'string') return [];
  const errs: FieldError[] = [];
  if (typeof v === 'string') for (const detail of isValidPercent(v)) errs.push({ field, type: 'Invalid', goValue: goIntOrString(v), detail });
  else errs.push(...nonNegative(Math.trunc(v), field));
  const scaled = valueFromIntOrPercent(v, 1, true);
  if (!isNumber(scaled)) errs.push({ field, type: 'Invalid', value: 0, detail: `getValueFromIntOrPercent error: ${scaled.error}` });
  else if (scaled < 1) errs.push({ field, type: 'Invalid', value: scaled, detail: 'should not be less than 1' });
  if (policy !== 'Parallel' && v !== 1) errs.push({ field, type: 'Invalid', goValue: goIntOrString(v), detail: PARALLEL_ONLY });
  return errs;
}

type PriorityStrategy = { weightPriority?: { weight?: number; matchSelector?: LabelSelector }[]; orderPriority?: { orderedKey?: string }[] };

/** UpdatePriorityStrategy.FieldsValidation. */
function priorityProblem(p: PriorityStrategy | undefined | null): string | undefined {
  if (!isRecord(p)) return undefined;
  const weights = Array.isArray(p.weightPriority) ? p.weightPriority : [];
  const orders = Array.isArray(p.orderPriority) ? p.orderPriority : [];
  if (weights.length > 0 && orders.length > 0) return 'only one of weightPriority and orderPriority can be used';
  for (const w of weights) {
    const weight = w?.weight ?? 0;
    if (weight < 0 || weight > 100) return 'weight must be valid number in the range 1-100';
    const sel = w?.matchSelector ?? {};
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) return 'selector can not be empty';
    const compiled = compileSelector(sel as MatchSelector);
    if (compiled.kind === 'invalid') return `invalid selector ${compiled.error}`;
  }
  for (const o of orders) if (!o?.orderedKey) return 'order key can not be empty';
  return undefined;
}

function validateRollingUpdate(spec: Spec, ru: RollingUpdateLike): FieldError[] {
  const at = 'spec.updateStrategy.rollingUpdate';
  const errs: FieldError[] = [...nonNegative(ru.partition, `${at}.partition`), ...nonNegative(ru.minReadySeconds, `${at}.minReadySeconds`)];
  if (isNumber(ru.minReadySeconds) && ru.minReadySeconds > MAX_MIN_READY_SECONDS) {
    errs.push({ field: `${at}.minReadySeconds`, type: 'Invalid', value: ru.minReadySeconds, detail: `must be no more than ${MAX_MIN_READY_SECONDS} seconds` });
  }
  if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) errs.push({ field: `${at}.maxUnavailable`, type: 'Required', detail: '' });
  else errs.push(...validateMaxUnavailable(ru.maxUnavailable, spec.podManagementPolicy, `${at}.maxUnavailable`));
  const policy = ru.podUpdatePolicy ?? '';
  if (policy === '') errs.push({ field: `${at}.podUpdatePolicy`, type: 'Required', detail: '' });
  else if (policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly') {
    const podSpec = isRecord(spec.template) && isRecord(spec.template.spec) ? spec.template.spec : {};
    const gates = podSpec.readinessGates;
    if (!(Array.isArray(gates) && gates.some((g) => isRecord(g) && g.conditionType === IN_PLACE_UPDATE_READY))) {
      errs.push({ field: 'spec.template.spec.readinessGates', type: 'Invalid', goValue: goReadinessGates(gates), detail: `must contains ${IN_PLACE_UPDATE_READY} when podUpdatePolicy is ${policy}` });
    }
  } else if (policy !== 'ReCreate') {
    errs.push({ field: `${at}.podUpdatePolicy`, type: 'Invalid', value: policy, detail: "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'" });
  }
  if (ru.unorderedUpdate !== undefined && ru.unorderedUpdate !== null) {
    if (spec.podManagementPolicy !== 'Parallel') {
      errs.push({ field: `${at}.unorderedUpdate`, type: 'Required', detail: `unorderedUpdate ${PARALLEL_ONLY}` });
    }
    const problem = priorityProblem(ru.unorderedUpdate.priorityStrategy as PriorityStrategy | undefined);
    if (problem) errs.push({ field: `${at}.unorderedUpdate.priorityStrategy`, type: 'Required', detail: problem });
  }
  return errs;
}

function validateUpdateStrategy(spec: Spec): FieldError[] {
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  const ru = strategy.rollingUpdate;
  const hasRollingUpdate = ru !== undefined && ru !== null;
  switch (strategy.type ?? '') {
    case '':
      return [{ field: 'spec.updateStrategy', type: 'Required', detail: '' }];
    case 'OnDelete':
      return hasRollingUpdate ? [{ field: 'spec.updateStrategy.rollingUpdate', type: 'Invalid', value: ru, detail: "only allowed for updateStrategy 'RollingUpdate'" }] : [];
    case 'RollingUpdate':
      return isRecord(ru) ? validateRollingUpdate(spec, ru) : [];
    default: {
      const shown = hasRollingUpdate
        ? { value: strategy }
        : { goValue: `v1beta1.StatefulSetUpdateStrategy{Type:${JSON.stringify(strategy.type)}, RollingUpdate:(*v1beta1.RollingUpdateStatefulSetStrategy)(nil)}` };
      return [{ field: 'spec.updateStrategy', type: 'Invalid', ...shown, detail: "must be 'RollingUpdate' or 'OnDelete'" }];
    }
  }
}

function validateRetentionPolicy(policy: unknown): FieldError[] {
  if (!isRecord(policy)) return [];
  return (['whenDeleted', 'whenScaled'] as const).flatMap((k): FieldError[] => {
    const v = policy[k] ?? '';
    return RETENTION_POLICIES.includes(v as string) ? [] : [{ field: `spec.persistentVolumeClaimRetentionPolicy.${k}`, type: 'NotSupported', value: v, detail: supportedValues(RETENTION_POLICIES) }];
  });
}

/** validateSpecSelector with ValidatePodTemplateSpecForStatefulSet: labels and annotations, not the pod spec. */
function validateSelectorAndTemplate(spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const sel = (isRecord(spec.selector) ? spec.selector : undefined) as LabelSelector | undefined;
  if (!sel) errs.push({ field: 'spec.selector', type: 'Required', detail: '' });
  else {
    errs.push(...validateLabelSelector(sel, 'spec.selector'));
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      errs.push({ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(sel), detail: 'empty selector is invalid for statefulset' });
    }
  }
  const compiled = compileSelector(sel as MatchSelector | undefined);
  if (compiled.kind === 'invalid') return [...errs, { field: 'spec.selector', type: 'Invalid', goValue: sel ? goLabelSelector(sel) : 'null', detail: '' }];
  const template = isRecord(spec.template) ? spec.template : {};
  const meta = isRecord(template.metadata) ? template.metadata : {};
  const labels = (isRecord(meta.labels) ? meta.labels : undefined) as Record<string, string> | undefined;
  const podSpec = isRecord(template.spec) ? template.spec : {};
  // A missing selector selects nothing, so it never matches the template either (as in Go).
  if (compiled.kind !== 'everything' && !selectorMatches(compiled, labels ?? {})) {
    errs.push({ field: 'spec.template.metadata.labels', type: 'Invalid', goValue: goStringMap(labels), detail: '`selector` does not match template `labels`' });
  }
  errs.push(...validateLabels(meta.labels, 'spec.template.labels'), ...validateAnnotations(meta.annotations, 'spec.template.annotations'));
  const annotations = isRecord(meta.annotations) ? meta.annotations : {};
  if (Object.hasOwn(annotations, MIRROR_POD_ANNOTATION) && !podSpec.nodeName) {
    errs.push({ field: `spec.template.annotations[${MIRROR_POD_ANNOTATION}]`, type: 'Invalid', value: annotations[MIRROR_POD_ANNOTATION], detail: 'must set spec.nodeName if mirror pod annotation is set' });
  }
  const restart = podSpec.restartPolicy;
  if (restart !== undefined && restart !== null && restart !== '' && restart !== 'Always') {
    errs.push({ field: 'spec.template.spec.restartPolicy', type: 'NotSupported', value: restart, detail: supportedValues(['Always']) });
  }
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push({ field: 'spec.template.spec.activeDeadlineSeconds', type: 'Forbidden', detail: 'activeDeadlineSeconds in StatefulSet is not Supported' });
  }
  return errs;
}

function validateSpec(spec: Spec): FieldError[] {
  return [
    ...validatePodManagementPolicy(spec.podManagementPolicy),
    ...validateReserveOrdinals(spec.reserveOrdinals),
    ...(isRecord(spec.scaleStrategy) ? validateMaxUnavailable(spec.scaleStrategy.maxUnavailable, spec.podManagementPolicy, 'spec.scaleStrategy.maxUnavailable') : []),
    ...validateUpdateStrategy(spec),
    ...validateRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy),
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...validateSelectorAndTemplate(spec),
  ];
}

/** ValidateStatefulSetUpdate: only the mutable fields changed; replicas and the retention policy again. */
function validateUpdate(spec: Spec, old: Spec): FieldError[] {
  const fixed = (s: Spec) => JSON.stringify(withoutEmpty(Object.fromEntries(Object.entries(s).filter(([k]) => !MUTABLE_SPEC.has(k)))) ?? {});
  return [
    ...(fixed(spec) !== fixed(old) ? [{ field: 'spec', type: 'Forbidden' as const, detail: IMMUTABLE_MESSAGE }] : []),
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...validateRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy),
  ];
}

const specOf = (sts: StatefulSetLike): Spec => (isRecord(sts.spec) ? sts.spec : {});

/** The errors of a StatefulSet being created, or updated from `old` (spec errors first, as OpenKruise lists them). */
export function validateStatefulSet(input: StatefulSetLike, oldInput?: StatefulSetLike): FieldError[] {
  const sts = defaultedStatefulSet(input);
  const errs = [...validateMetadata(sts.metadata), ...validateSpec(specOf(sts))];
  if (oldInput) errs.push(...validateUpdate(specOf(sts), specOf(defaultedStatefulSet(oldInput))));
  return errs;
}

/**
 * Under podUpdatePolicy InPlaceOnly, the first change to the template's pod spec other than a
 * container's image ("replace /containers/0/image"), as `<op> <path>`; undefined when there is
 * none or the policy is another. Metadata may change freely.
 */
export function inPlaceOnlyChange(input: StatefulSetLike, oldInput: StatefulSetLike): string | undefined {
  const rollingUpdate = specOf(input).updateStrategy?.rollingUpdate;
  if (!isRecord(rollingUpdate) || rollingUpdate.podUpdatePolicy !== 'InPlaceOnly') return undefined;
  const podSpec = (sts: StatefulSetLike) => {
    const t = specOf(sts).template;
    return (withoutEmpty(isRecord(t) ? t.spec : undefined) ?? {}) as object;
  };
  const other = jsonPatch(podSpec(oldInput), podSpec(input)).find((op) => op.op !== 'replace' || !IN_PLACE_IMAGE_PATH.test(op.path));
  return other ? `${other.op} ${other.path}` : undefined;
}
