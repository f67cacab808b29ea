// Validation of a CloneSet (apps.kruise.io/v1alpha1), with OpenKruise's rules, field paths and
// messages (pkg/webhook/cloneset/validating): selector against template labels, the pod template
// as a pod would be validated, restartPolicy, scale and update strategies, and on UPDATE the
// immutable fields and InPlaceOnly's images-only rule. The object is defaulted first, as
// OpenKruise's mutating webhook does before its validating one. Pure.
//
// Not checked here: that each new `scaleStrategy.podsToDelete` entry names an existing pod this
// CloneSet controls (OpenKruise GETs each pod; the edge cannot, and v1beta1 dropped the check too):
// the controller ignores names it does not own.
import { jsonPatch } from '../admission/patch.js';
import type { FieldError } from '../kube/field-errors.js';
import { supportedValues } from '../kube/field-errors.js';
import { goIntOrString, kruiseScaledValue, type IntOrString } from '../kube/intstr.js';
import { defaultPodSpecParts } from '../kube/pod-defaults.js';
import { validatePodParts } from '../kube/pod-validation.js';
import { compileSelector, selectorMatches, type LabelSelector as MatchSelector } from '../kube/selectors.js';
import {
  NEGATIVE_ERROR,
  goLabelSelector,
  goStringMap,
  isDNS1123Subdomain,
  isRecord,
  validateAnnotations,
  validateLabelSelector,
  validateLabels,
  type LabelSelector,
} from '../kube/validation.js';
import { defaultedCloneSet, type CloneSetLike } from './defaults.js';

const UPDATE_TYPES = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'] as const;
const MUTABLE_SPEC = ['replicas', 'template', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'lifecycle', 'revisionHistoryLimit', 'volumeClaimTemplates', 'progressDeadlineSeconds'];
const IMMUTABLE_MESSAGE =
  "updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden";
const IN_PLACE_IMAGE_PATH = /^\/containers\/([0-9]+)\/image$/;

const nonNegative = (v: number, field: string): FieldError[] => (v < 0 ? [{ field, type: 'Invalid', value: v, detail: NEGATIVE_ERROR }] : []);

/** Go's `%#v` of a []string. */
const goStrings = (list: readonly string[]): string => `[]string{${list.map((s) => JSON.stringify(s)).join(', ')}}`;

function validateSelectorAndTemplate(spec: CloneSetLike['spec']): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.selector as LabelSelector | undefined;
  if (!sel) errs.push({ field: 'spec.selector', type: 'Required', detail: '' });
  else {
    errs.push(...validateLabelSelector(sel, 'spec.selector'));
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      errs.push({ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(sel), detail: 'empty selector is invalid for cloneset' });
    }
  }
  const compiled = compileSelector(sel as MatchSelector | undefined);
  if (compiled.kind === 'invalid') return [...errs, { field: 'spec.selector', type: 'Invalid', goValue: sel ? goLabelSelector(sel) : 'null', detail: '' }];
  const template = isRecord(spec.template) ? spec.template : {};
  const meta = isRecord(template.metadata) ? template.metadata : {};
  const labels = (isRecord(meta.labels) ? meta.labels : undefined) as Record<string, string> | undefined;
  // A missing selector selects nothing, so it never matches the template either (as in Go).
  if (compiled.kind !== 'everything' && !selectorMatches(compiled, labels ?? {})) {
    errs.push({ field: 'spec.template.metadata.labels', type: 'Invalid', goValue: goStringMap(labels), detail: '`selector` does not match template `labels`' });
  }
  errs.push(...validateLabels(meta.labels, 'spec.template.metadata.labels'), ...validateAnnotations(meta.annotations, 'spec.template.metadata.annotations'));
  const podSpec = isRecord(template.spec) ? template.spec : {};
  // The claims stand in as volumes, so that mounts of them are valid.
  const claims = (spec.volumeClaimTemplates ?? []).map((c) => String(isRecord(c) && isRecord(c.metadata) ? (c.metadata.name ?? '') : ''));
  const parts = defaultPodSpecParts(structuredClone({
    ...podSpec,
    volumes: [...(Array.isArray(podSpec.volumes) ? podSpec.volumes : []), ...claims.map((name) => ({ name, persistentVolumeClaim: { claimName: name } }))],
  }));
  errs.push(...validatePodParts({ containers: parts.containers, initContainers: parts.initContainers, volumes: parts.volumes }).map((e) => ({ ...e, field: e.field.replace(/^spec\./, 'spec.template.spec.') })));
  const restart = podSpec.restartPolicy;
  if (restart !== undefined && restart !== '' && restart !== 'Always') {
    errs.push({ field: 'spec.template.spec.restartPolicy', type: 'NotSupported', value: restart, detail: supportedValues(['Always']) });
  }
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push({ field: 'spec.template.spec.activeDeadlineSeconds', type: 'Forbidden', detail: 'activeDeadlineSeconds in cloneset is not Supported' });
  }
  return errs;
}

function validateScaleStrategy(strategy: NonNullable<CloneSetLike['spec']['scaleStrategy']>): FieldError[] {
  const names = strategy.podsToDelete ?? [];
  const seen = new Set<string>();
  // util.CheckDuplicate: every repeated occurrence, in order.
  const repeats = names.filter((n) => seen.has(n) || !seen.add(n));
  return repeats.length ? [{ field: 'spec.scaleStrategy.podsToDelete', type: 'Invalid', goValue: goStrings(names), detail: `duplicated items [${repeats.join(' ')}]` }] : [];
}

type PriorityStrategy = { weightPriority?: { weight?: number; matchSelector?: LabelSelector }[]; orderPriority?: { orderedKey?: string }[] };

/** UpdatePriorityStrategy.FieldsValidation. */
function priorityProblem(p: PriorityStrategy | undefined): string | undefined {
  if (!p) return undefined;
  if ((p.weightPriority?.length ?? 0) > 0 && (p.orderPriority?.length ?? 0) > 0) return 'only one of weightPriority and orderPriority can be used';
  for (const w of p.weightPriority ?? []) {
    const weight = w.weight ?? 0;
    if (weight < 0 || weight > 100) return 'weight must be valid number in the range 1-100';
    const sel = w.matchSelector ?? {};
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) return 'selector can not be empty';
    const compiled = compileSelector(sel as MatchSelector);
    if (compiled.kind === 'invalid') return `invalid selector ${compiled.error}`;
  }
  for (const o of p.orderPriority ?? []) if (!o.orderedKey) return 'order key can not be empty';
  return undefined;
}

/** UpdateScatterStrategy.FieldsValidation. */
function scatterProblem(terms: readonly { key?: string; value?: string }[] | undefined): string | undefined {
  const seen = new Set<string>();
  for (const t of terms ?? []) {
    if (!t.key) return 'key should not be empty';
    const id = `${t.key}:${t.value ?? ''}`;
    if (seen.has(id)) return `duplicated key=${t.key} value=${t.value ?? ''}`;
    seen.add(id);
  }
  return undefined;
}

/** IntOrString.String(): the number in decimal, or the string itself. */
const intOrStringText = (v: IntOrString | undefined): string => (v === undefined ? '' : String(v));

function validateUpdateStrategy(strategy: NonNullable<CloneSetLike['spec']['updateStrategy']>, replicas: number): FieldError[] {
  const at = 'spec.updateStrategy';
  const errs: FieldError[] = [];
  const type = strategy.type ?? '';
  if (!(UPDATE_TYPES as readonly string[]).includes(type)) {
    errs.push({ field: `${at}.type`, type: 'Invalid', value: type, detail: "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'" });
  }
  const partition = kruiseScaledValue(strategy.partition, replicas, true);
  if (typeof partition !== 'number') {
    errs.push({ field: `${at}.partition`, type: 'Invalid', value: intOrStringText(strategy.partition), detail: `failed GetScaledValueFromIntOrPercent for partition: ${partition.error}` });
  }
  errs.push(...nonNegative(typeof partition === 'number' ? partition : 0, `${at}.partition`));
  const priority = priorityProblem(strategy.priorityStrategy as PriorityStrategy | undefined);
  if (priority) errs.push({ field: `${at}.priorityStrategy`, type: 'Required', detail: priority });
  const scatter = scatterProblem(strategy.scatterStrategy as { key?: string; value?: string }[] | undefined);
  if (scatter) errs.push({ field: `${at}.scatterStrategy`, type: 'Required', detail: scatter });
  let maxUnavailable = 0;
  if (strategy.maxUnavailable !== undefined) {
    const v = kruiseScaledValue(strategy.maxUnavailable, replicas, true);
    if (typeof v === 'number') maxUnavailable = v;
    else errs.push({ field: `${at}.maxUnavailable`, type: 'Invalid', value: intOrStringText(strategy.maxUnavailable), detail: `failed GetScaledValueFromIntOrPercent for maxUnavailable: ${v.error}` });
  }
  let maxSurge = 0;
  if (strategy.maxSurge !== undefined) {
    const v = kruiseScaledValue(strategy.maxSurge, replicas, true);
    if (typeof v === 'number') maxSurge = v;
    else errs.push({ field: `${at}.maxSurge`, type: 'Invalid', value: intOrStringText(strategy.maxSurge), detail: `failed GetScaledValueFromIntOrPercent for maxSurge: ${v.error}` });
    if (type === 'InPlaceOnly' && maxSurge > 0) {
      errs.push({ field: `${at}.maxSurge`, type: 'Invalid', value: intOrStringText(strategy.maxSurge), detail: 'can not use maxSurge with strategy type InPlaceOnly' });
    }
  }
  if (replicas > 0 && maxUnavailable < 1 && maxSurge < 1) {
    errs.push({ field: `${at}.maxUnavailable`, type: 'Invalid', goValue: goIntOrString(strategy.maxUnavailable), detail: 'maxUnavailable and maxSurge should not both be less than 1' });
  }
  return errs;
}

function validateSpec(cs: CloneSetLike): FieldError[] {
  const spec = cs.spec;
  const replicas = spec.replicas ?? 1;
  return [
    ...nonNegative(replicas, 'spec.replicas'),
    ...validateSelectorAndTemplate(spec),
    ...validateScaleStrategy(spec.scaleStrategy ?? {}),
    ...validateUpdateStrategy(spec.updateStrategy ?? {}, replicas),
  ];
}

/** On UPDATE: the fields OpenKruise lets change, and InPlaceOnly's images-only template rule. */
function validateUpdate(cs: CloneSetLike, old: CloneSetLike): FieldError[] {
  const errs: FieldError[] = [];
  const fixed = (spec: CloneSetLike['spec']) => JSON.stringify(Object.fromEntries(Object.entries(spec).filter(([k, v]) => !MUTABLE_SPEC.includes(k) && v !== undefined && v !== null).sort(([a], [b]) => (a < b ? -1 : 1))));
  if (fixed(cs.spec) !== fixed(old.spec)) errs.push({ field: 'spec', type: 'Forbidden', detail: IMMUTABLE_MESSAGE });
  if (cs.spec.updateStrategy?.type === 'InPlaceOnly') {
    const before = isRecord(old.spec.template) && isRecord(old.spec.template.spec) ? old.spec.template.spec : {};
    const after = isRecord(cs.spec.template) && isRecord(cs.spec.template.spec) ? cs.spec.template.spec : {};
    const other = jsonPatch(before, after).find((op) => op.op !== 'replace' || !IN_PLACE_IMAGE_PATH.test(op.path));
    if (other) errs.push({ field: 'spec', type: 'Forbidden', detail: `only allowed to update images in spec for InPlaceOnly, but found ${other.op} ${other.path}` });
  }
  return errs;
}

/** The errors of a CloneSet being created, or updated from `old`. */
export function validateCloneSet(input: CloneSetLike, oldInput?: CloneSetLike): FieldError[] {
  const cs = defaultedCloneSet(input);
  const errs: FieldError[] = [];
  const name = cs.metadata?.name ?? '';
  if (name) for (const detail of isDNS1123Subdomain(name)) errs.push({ field: 'metadata.name', type: 'Invalid', value: name, detail });
  if (oldInput) errs.push(...validateUpdate(cs, defaultedCloneSet(oldInput)));
  errs.push(...validateSpec(cs));
  return errs;
}
