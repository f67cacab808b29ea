// Validation of an Advanced DaemonSet (apps.kruise.io/v1alpha1), with OpenKruise's rules, field
// paths and messages (pkg/webhook/daemonset/validating): the selector against the template's
// labels, the template as a pod, restartPolicy and activeDeadlineSeconds, minReadySeconds, the
// update strategy (maxUnavailable / maxSurge, the rolling update type, partition), the history
// limit, the unsupported inPlaceUpdate hook, and on UPDATE the fields that may change. The object
// is defaulted first, as OpenKruise's mutating webhook does before its validating one. Pure.
//
// OpenKruise's own quirks are kept: the rolling update type and partition are reported under
// `spec.updateStrategy.rollingUpdate.rollingUpdate.…`, and a value that is neither a number nor
// a percentage ("abc") counts as 0.
import type { FieldError } from '../kube/field-errors.js';
import { supportedValues } from '../kube/field-errors.js';
import { goIntOrString, type IntOrString } from '../kube/intstr.js';
import { defaultPodSpecParts } from '../kube/pod-defaults.js';
import { validatePodParts } from '../kube/pod-validation.js';
import { compileSelector, selectorMatches, type LabelSelector as MatchSelector } from '../kube/selectors.js';
import {
  NEGATIVE_ERROR,
  goLabelSelector,
  goStringMap,
  isDNS1123Subdomain,
  isRecord,
  isValidPercent,
  validateAnnotations,
  validateLabelSelector,
  validateLabels,
  type LabelSelector,
} from '../kube/validation.js';
import { defaultedDaemonSet } from './defaults.js';
import type { DaemonSetLike, RollingUpdate } from './types.js';

const MUTABLE_SPEC = ['template', 'updateStrategy', 'lifecycle', 'burstReplicas', 'minReadySeconds', 'revisionHistoryLimit'];
export const IMMUTABLE_MESSAGE =
  "updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle',  'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden";
const ROLLING_TYPES = ['Standard', 'Surging', 'InPlaceIfPossible'];

const nonNegative = (v: number, field: string): FieldError[] => (v < 0 ? [{ field, type: 'Invalid', value: v, detail: NEGATIVE_ERROR }] : []);

/** getPercentValue: the number of a valid "N%", else undefined. */
function percentOf(v: IntOrString): number | undefined {
  if (typeof v !== 'string' || isValidPercent(v).length) return undefined;
  return Number(v.slice(0, -1));
}

/** getIntOrPercentValue: the percentage's number, an int, or a string's Atoi (0 when it is none). */
function intOrPercentValue(v: IntOrString): number {
  const p = percentOf(v);
  if (p !== undefined) return p;
  if (typeof v === 'number') return v;
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** ValidatePositiveIntOrPercent (apps validation). */
function positiveIntOrPercent(v: IntOrString, field: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((detail) => ({ field, type: 'Invalid' as const, goValue: goIntOrString(v), detail }));
  return nonNegative(v, field);
}

/** IsNotMoreThan100Percent. */
function notOver100(v: IntOrString, field: string): FieldError[] {
  const p = percentOf(v);
  return p !== undefined && p > 100 ? [{ field, type: 'Invalid', goValue: goIntOrString(v), detail: 'must not be greater than 100%' }] : [];
}

function validateRollingUpdate(r: RollingUpdate, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasUnavailable = r.maxUnavailable !== undefined && r.maxUnavailable !== null && intOrPercentValue(r.maxUnavailable) !== 0;
  const hasSurge = r.maxSurge !== undefined && r.maxSurge !== null && intOrPercentValue(r.maxSurge) !== 0;
  if (hasUnavailable) errs.push(...positiveIntOrPercent(r.maxUnavailable!, `${at}.maxUnavailable`), ...notOver100(r.maxUnavailable!, `${at}.maxUnavailable`));
  if (hasSurge) errs.push(...positiveIntOrPercent(r.maxSurge!, `${at}.maxSurge`), ...notOver100(r.maxSurge!, `${at}.maxSurge`));
  if (hasUnavailable && hasSurge) errs.push({ field: `${at}.maxSurge`, type: 'Invalid', goValue: goIntOrString(r.maxSurge), detail: 'may not be set when maxUnavailable is non-zero' });
  if (!hasUnavailable && !hasSurge) errs.push({ field: `${at}.maxUnavailable`, type: 'Required', detail: 'cannot be 0 when maxSurge is 0' });
  const type = r.rollingUpdateType ?? '';
  if (type === 'InPlaceIfPossible' && hasSurge) errs.push({ field: `${at}.maxSurge`, type: 'Required', detail: 'must be 0 for InPlaceIfPossible type' });
  else if (type === 'Surging' && hasUnavailable) errs.push({ field: `${at}.maxUnavailable`, type: 'Required', detail: 'must be 0 for Surging type' });
  else if (type !== '' && !ROLLING_TYPES.includes(type)) errs.push({ field: `${at}.rollingUpdate.type`, type: 'NotSupported', value: type, detail: supportedValues(ROLLING_TYPES) });
  if (r.partition !== undefined && r.partition !== null) {
    const field = `${at}.rollingUpdate.partition`;
    errs.push(...(typeof r.partition === 'string' ? positiveIntOrPercent(r.partition, field) : nonNegative(r.partition, field)), ...notOver100(r.partition, field));
  }
  return errs;
}

/** Go's `%#v` of the update strategy, as field.NotSupported prints it. */
function goStrategy(s: { type?: string; rollingUpdate?: unknown }): string {
  const rolling = s.rollingUpdate ? '(*v1alpha1.RollingUpdateDaemonSet)(0x0)' : '(*v1alpha1.RollingUpdateDaemonSet)(nil)';
  return `v1alpha1.DaemonSetUpdateStrategy{Type:${JSON.stringify(s.type ?? '')}, RollingUpdate:${rolling}}`;
}

function validateUpdateStrategy(s: NonNullable<DaemonSetLike['spec']['updateStrategy']>): FieldError[] {
  const at = 'spec.updateStrategy';
  switch (s.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      if (!isRecord(s.rollingUpdate)) return [{ field: `${at}.rollingUpdate`, type: 'Required', detail: '' }];
      return validateRollingUpdate(s.rollingUpdate, `${at}.rollingUpdate`);
    default:
      return [{ field: at, type: 'NotSupported', goValue: goStrategy(s), detail: supportedValues(['RollingUpdate', 'OnDelete']) }];
  }
}

function validateSelectorAndTemplate(spec: DaemonSetLike['spec']): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.selector as LabelSelector | undefined;
  if (sel) errs.push(...validateLabelSelector(sel, 'spec.selector'));
  const compiled = compileSelector(sel as MatchSelector | undefined);
  const template = isRecord(spec.template) ? spec.template : {};
  const meta = isRecord(template.metadata) ? template.metadata : {};
  const labels = (isRecord(meta.labels) ? meta.labels : undefined) as Record<string, string> | undefined;
  if (compiled.kind !== 'invalid' && compiled.kind !== 'everything' && !selectorMatches(compiled, labels ?? {})) {
    errs.push({ field: 'spec.template.metadata.labels', type: 'Invalid', goValue: goStringMap(labels), detail: '`selector` does not match template `labels`' });
  }
  if (sel && Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    errs.push({ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(sel), detail: 'empty selector is invalid for daemonset' });
  }
  errs.push(...validateLabels(meta.labels, 'spec.template.metadata.labels'), ...validateAnnotations(meta.annotations, 'spec.template.metadata.annotations'));
  const podSpec = isRecord(template.spec) ? template.spec : {};
  const parts = defaultPodSpecParts(structuredClone(podSpec));
  errs.push(...validatePodParts({ containers: parts.containers, initContainers: parts.initContainers, volumes: parts.volumes }).map((e) => ({ ...e, field: e.field.replace(/^spec\./, 'spec.template.spec.') })));
  // SetDefaultPodSpec runs first in OpenKruise, so an empty restartPolicy is Always.
  const restart = podSpec.restartPolicy;
  if (restart !== undefined && restart !== null && restart !== '' && restart !== 'Always') {
    errs.push({ field: 'spec.template.spec.restartPolicy', type: 'NotSupported', value: restart, detail: supportedValues(['Always']) });
  }
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push({ field: 'spec.template.spec.activeDeadlineSeconds', type: 'Forbidden', detail: 'activeDeadlineSeconds in DaemonSet is not Supported' });
  }
  return errs;
}

function validateSpec(spec: DaemonSetLike['spec']): FieldError[] {
  return [
    ...validateSelectorAndTemplate(spec),
    ...nonNegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'),
    ...validateUpdateStrategy(spec.updateStrategy ?? {}),
    ...(spec.revisionHistoryLimit !== undefined && spec.revisionHistoryLimit !== null ? nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit') : []),
    ...(isRecord(spec.lifecycle) && spec.lifecycle.inPlaceUpdate ? [{ field: 'spec.lifecycle.inPlaceUpdate', type: 'Forbidden' as const, detail: 'inPlaceUpdate hook has not supported yet' }] : []),
  ];
}

/** The spec without the fields an UPDATE may change, for comparison. */
const fixedPart = (spec: DaemonSetLike['spec']) =>
  JSON.stringify(Object.fromEntries(Object.entries(spec).filter(([k, v]) => !MUTABLE_SPEC.includes(k) && v !== undefined && v !== null).sort(([a], [b]) => (a < b ? -1 : 1))));

/** The errors of a DaemonSet being created, or updated from `old`. */
export function validateDaemonSet(input: DaemonSetLike, oldInput?: DaemonSetLike): FieldError[] {
  const ds = defaultedDaemonSet(input);
  const errs: FieldError[] = [];
  const name = ds.metadata?.name ?? '';
  if (name) for (const detail of isDNS1123Subdomain(name)) errs.push({ field: 'metadata.name', type: 'Invalid', value: name, detail });
  if (oldInput && fixedPart(ds.spec) !== fixedPart(defaultedDaemonSet(oldInput).spec)) errs.push({ field: 'spec', type: 'Forbidden', detail: IMMUTABLE_MESSAGE });
  errs.push(...validateSpec(ds.spec));
  return errs;
}
