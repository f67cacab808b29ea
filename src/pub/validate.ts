// Validation of a PodUnavailableBudget (../shared/SEMANTICS.md §4.2): annotations, selector xor targetRef,
// maxUnavailable xor minAvailable, immutable selection on UPDATE, and conflicts with the other PUBs
// of its namespace. Field paths and details are OpenKruise's, including its odd ones
// ("spec.selector, targetRef", "spec.TargetReference"). Pure.
import { goIntOrString } from '../kube/intstr.js';
import type { FieldError } from '../kube/field-errors.js';
import { goLabelSelector, isValidPercent, NEGATIVE_ERROR, validateLabelSelector, type LabelSelector } from '../kube/validation.js';
import { isSelectorLooseOverlap } from './selector-overlap.js';
import {
  PROTECT_OPERATIONS_ANNOTATION,
  PROTECT_TOTAL_REPLICAS_ANNOTATION,
  PUB_OPERATIONS,
  type PodUnavailableBudget,
  type PubTargetReference,
} from './types.js';

const SELECTION = 'spec.selector, targetRef';

/** schema.ParseGroupVersion: the group of `apiVersion`, or the error text for more than one slash. */
export function parseGroup(apiVersion: string): { group: string } | { error: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '' };
  if (parts.length === 2) return { group: parts[0]! };
  return { error: `unexpected GroupVersion string: ${apiVersion}` };
}

/** Go's `%#v` of the v1alpha1.TargetReference (field.Invalid dereferences the pointer). */
function goTargetRef(ref: PubTargetReference): string {
  const q = (s: string | undefined) => JSON.stringify(s ?? '');
  return `v1alpha1.TargetReference{APIVersion:${q(ref.apiVersion)}, Kind:${q(ref.kind)}, Name:${q(ref.name)}}`;
}

/** appsvalidation.ValidatePositiveIntOrPercent then IsNotMoreThan100Percent. */
function validateIntOrPercent(v: number | string, field: string): FieldError[] {
  if (typeof v === 'number') return v < 0 ? [{ field, type: 'Invalid', value: v, detail: NEGATIVE_ERROR }] : [];
  const errs: FieldError[] = isValidPercent(v).map((detail) => ({ field, type: 'Invalid', goValue: goIntOrString(v), detail }));
  if (errs.length === 0 && Number(v.slice(0, -1)) > 100) errs.push({ field, type: 'Invalid', goValue: goIntOrString(v), detail: 'must not be greater than 100%' });
  return errs;
}

const isInt32 = (s: string): boolean => /^[+-]?\d+$/.test(s) && Math.abs(Number(s)) <= 2 ** 31 - (s.startsWith('-') ? 0 : 1);

function validateAnnotations(annotations: Readonly<Record<string, string>>): FieldError[] {
  const errs: FieldError[] = [];
  const ops = annotations[PROTECT_OPERATIONS_ANNOTATION];
  if (ops !== undefined) {
    for (const op of ops.split(',')) {
      if (!(PUB_OPERATIONS as readonly string[]).includes(op)) errs.push({ field: 'metadata', type: 'Internal', detail: `annotation[${PROTECT_OPERATIONS_ANNOTATION}] is invalid` });
    }
  }
  const total = annotations[PROTECT_TOTAL_REPLICAS_ANNOTATION];
  if (total !== undefined && !isInt32(total)) errs.push({ field: 'metadata', type: 'Internal', detail: `annotation[${PROTECT_TOTAL_REPLICAS_ANNOTATION}] is invalid` });
  return errs;
}

function validateSelection(selector: LabelSelector | null | undefined, ref: PubTargetReference | null | undefined): FieldError[] {
  if (!selector && !ref) return [{ field: SELECTION, type: 'Required', detail: 'no selector or targetRef defined in PodUnavailableBudget' }];
  if (selector && ref) return [{ field: SELECTION, type: 'Required', detail: 'selector and targetRef are mutually exclusive' }];
  if (ref) {
    const errs: FieldError[] = [];
    if (!ref.apiVersion || !ref.kind || !ref.name) {
      errs.push({ field: 'spec.TargetReference', type: 'Invalid', goValue: goTargetRef(ref), detail: 'empty TargetReference is not valid for PodUnavailableBudget.' });
    }
    const gv = parseGroup(ref.apiVersion ?? '');
    if ('error' in gv) errs.push({ field: 'spec.TargetReference', type: 'Invalid', goValue: goTargetRef(ref), detail: gv.error });
    return errs;
  }
  const sel = selector!;
  const problems = validateLabelSelector(sel, 'spec.selector');
  const errs = [...problems];
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    errs.push({ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(sel), detail: 'empty selector is not valid for PodUnavailableBudget.' });
  }
  // LabelSelectorAsSelector fails on what ValidateLabelSelector reports; OpenKruise adds one detail-less error.
  if (problems.length > 0) errs.push({ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(sel), detail: '' });
  return errs;
}

function validateAvailability(maxUnavailable: number | string | undefined | null, minAvailable: number | string | undefined | null): FieldError[] {
  const field = 'spec.maxUnavailable, minAvailable';
  const none = (v: unknown) => v === undefined || v === null;
  if (none(maxUnavailable) && none(minAvailable)) return [{ field, type: 'Required', detail: 'no maxUnavailable or minAvailable defined in PodUnavailableBudget' }];
  if (!none(maxUnavailable) && !none(minAvailable)) return [{ field, type: 'Required', detail: 'maxUnavailable and minAvailable are mutually exclusive' }];
  return none(maxUnavailable) ? validateIntOrPercent(minAvailable!, 'spec.minAvailable') : validateIntOrPercent(maxUnavailable!, 'spec.maxUnavailable');
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The first conflict with another PUB of the namespace (OpenKruise stops at the first). */
function conflictWithOthers(pub: PodUnavailableBudget, others: readonly PodUnavailableBudget[]): FieldError[] {
  const ref = pub.spec?.targetRef;
  const sel = pub.spec?.selector as LabelSelector | undefined;
  const groupOf = (r: PubTargetReference) => {
    const g = parseGroup(r.apiVersion ?? '');
    return 'group' in g ? g.group : '';
  };
  for (const other of others) {
    if (other.metadata?.name === pub.metadata?.name || other.metadata?.namespace !== pub.metadata?.namespace) continue;
    const otherRef = other.spec?.targetRef;
    const otherSel = other.spec?.selector as LabelSelector | undefined;
    const detail = (what: string) => `pub.spec.${what} is in conflict with other PodUnavailableBudget ${other.metadata?.name ?? ''}`;
    if (ref && otherRef) {
      if (groupOf(ref) === groupOf(otherRef) && ref.kind === otherRef.kind && ref.name === otherRef.name) {
        return [{ field: 'spec.targetReference', type: 'Invalid', goValue: goTargetRef(ref), detail: detail('targetReference') }];
      }
    } else if (sel && otherSel && isSelectorLooseOverlap(sel, otherSel)) {
      return [{ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(sel), detail: detail('selector') }];
    }
  }
  return [];
}

/** Everything wrong with `pub` (UPDATE: `old` given), against the other PUBs of the cluster. */
export function validatePodUnavailableBudget(pub: PodUnavailableBudget, others: readonly PodUnavailableBudget[], old?: PodUnavailableBudget): FieldError[] {
  const spec = pub.spec ?? {};
  const errs = [
    ...validateAnnotations(pub.metadata?.annotations ?? {}),
    ...validateSelection(spec.selector as LabelSelector | undefined, spec.targetRef),
    ...validateAvailability(spec.maxUnavailable, spec.minAvailable),
  ];
  if (old && (!sameJson(spec.selector, old.spec?.selector) || !sameJson(spec.targetRef, old.spec?.targetRef))) {
    errs.push({ field: SELECTION, type: 'Required', detail: 'selector and targetRef cannot be modified' });
  }
  return [...errs, ...conflictWithOthers(pub, others)];
}
