// Kubernetes label selectors (metav1.LabelSelector): syntax checks and matching, with
// LabelSelectorAsSelector's semantics. A missing selector matches nothing, an empty one matches
// everything; matchLabels and every expression must all hold.

export type SelectorRequirement = { key: string; operator: string; values?: string[] | null };
export type LabelSelector = {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: SelectorRequirement[] | null;
};
export type Labels = Readonly<Record<string, string>>;
/** A selector as written in an object not yet validated: any part may be missing. */
export type UncheckedSelector = {
  matchLabels?: Readonly<Record<string, unknown>> | null;
  matchExpressions?: readonly { key?: string; operator?: string; values?: readonly string[] | null }[] | null;
};

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `key` is not a valid label key (`[prefix/]name`), or undefined. */
export function labelKeyError(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix.length === 0) return 'a label key prefix must not be empty';
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) {
      return 'a label key prefix must be a lowercase DNS subdomain (e.g. example.com) of at most 253 characters';
    }
  }
  if (name.length === 0) return 'a label key name must not be empty';
  if (name.length > 63) return 'a label key name must be at most 63 characters';
  if (!NAME_PART.test(name)) {
    return "a label key name must be alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character";
  }
  return undefined;
}

/** Why `value` is not a valid label value, or undefined. The empty string is valid. */
export function labelValueError(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63) return 'a label value must be at most 63 characters';
  if (!NAME_PART.test(value)) {
    return "a label value must be empty or alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character";
  }
  return undefined;
}

/** A problem with a selector, located relative to the selector (e.g. `matchExpressions[0].values`). */
export type SelectorProblem = { field: string; value: unknown; detail: string };

/** Everything LabelSelectorAsSelector would refuse. Empty when the selector is usable. */
export function selectorProblems(sel: UncheckedSelector | undefined | null): SelectorProblem[] {
  if (!sel) return [];
  const out: SelectorProblem[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    const keyErr = labelKeyError(k);
    if (keyErr) out.push({ field: 'matchLabels', value: k, detail: keyErr });
    const valueErr = typeof v === 'string' ? labelValueError(v) : 'a label value must be a string';
    if (valueErr) out.push({ field: `matchLabels[${k}]`, value: v, detail: valueErr });
  }
  for (const [i, req] of (sel.matchExpressions ?? []).entries()) {
    const at = `matchExpressions[${i}]`;
    const keyErr = labelKeyError(req.key ?? '');
    if (keyErr) out.push({ field: `${at}.key`, value: req.key, detail: keyErr });
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) out.push({ field: `${at}.values`, value: values, detail: `operator ${req.operator} needs at least one value` });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) out.push({ field: `${at}.values`, value: values, detail: `operator ${req.operator} takes no values` });
        break;
      default:
        out.push({ field: `${at}.operator`, value: req.operator, detail: 'the operator must be In, NotIn, Exists or DoesNotExist' });
        continue;
    }
    for (const [j, v] of values.entries()) {
      const valueErr = labelValueError(v);
      if (valueErr) out.push({ field: `${at}.values[${j}]`, value: v, detail: valueErr });
    }
  }
  return out;
}

/** True when the selector has no terms (it then matches every object). */
export function isEmptySelector(sel: LabelSelector): boolean {
  return Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
}

type Requirement = { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values: readonly string[] };

/**
 * A label selector converted the way ValidatedLabelSelectorAsSelector does it (OpenKruise uses
 * it for SidecarSets and PUBs): a missing selector matches nothing, an empty one everything, and
 * only an unknown operator is an error (keys and values are not re-validated).
 */
export type CompiledSelector =
  | { kind: 'nothing' }
  | { kind: 'everything' }
  | { kind: 'requirements'; requirements: readonly Requirement[] }
  | { kind: 'invalid'; error: string };

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

export function compileSelector(sel: LabelSelector | null | undefined): CompiledSelector {
  if (!sel) return { kind: 'nothing' };
  const labels = Object.entries(sel.matchLabels ?? {});
  const exprs = sel.matchExpressions ?? [];
  if (labels.length + exprs.length === 0) return { kind: 'everything' };
  const requirements: Requirement[] = labels.map(([key, v]) => ({ key, operator: 'In', values: [v] }));
  for (const e of exprs) {
    if (!OPERATORS.has(e.operator)) return { kind: 'invalid', error: `${JSON.stringify(e.operator)} is not a valid pod selector operator` };
    requirements.push({ key: e.key, operator: e.operator as Requirement['operator'], values: e.values ?? [] });
  }
  return { kind: 'requirements', requirements };
}

export function selectorMatches(sel: CompiledSelector, labels: Labels = {}): boolean {
  if (sel.kind === 'everything') return true;
  if (sel.kind !== 'requirements') return false;
  return sel.requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    switch (r.operator) {
      case 'In':
        return has && r.values.includes(labels[r.key]!);
      case 'NotIn':
        return !has || !r.values.includes(labels[r.key]!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
    }
  });
}

/**
 * Whether `labels` satisfy the selector, as LabelSelectorAsSelector would: missing selector: false
 * (nothing); empty selector: true (everything); an invalid selector (see selectorProblems) matches
 * nothing.
 */
export function matchesLabelSelector(sel: LabelSelector | undefined | null, labels: Labels = {}): boolean {
  if (!sel || selectorProblems(sel).length > 0) return false;
  return selectorMatches(compileSelector(sel), labels);
}

/**
 * metav1.FormatLabelSelector: the selector as a string (`app=web,tier in (a,b)`), which a scale
 * subresource reports for HPAs; `<none>` for an empty one.
 */
export function formatLabelSelector(sel: LabelSelector | null | undefined): string {
  if (!sel) return '<none>';
  const parts = Object.keys(sel.matchLabels ?? {}).sort().map((k) => `${k}=${sel.matchLabels![k]}`);
  for (const e of sel.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length ? parts.join(',') : '<none>';
}
