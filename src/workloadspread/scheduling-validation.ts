// Kubernetes' validation of the scheduling pieces a subset carries (pkg/apis/core/validation:
// ValidateNodeSelectorTerm, ValidatePreferredSchedulingTerms, ValidateTolerations), with their
// paths and messages. Lives here until a second feature needs it (then: src/kube/).
import type { V1NodeSelectorRequirement, V1NodeSelectorTerm, V1PreferredSchedulingTerm, V1Toleration } from '@kubernetes/client-node';
import { supportedValues, type FieldError } from '../kube/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, selectorOperatorErrors } from '../kube/validation.js';

const labelName = (key: string, field: string): FieldError[] => isQualifiedName(key).map((detail) => ({ field, type: 'Invalid', value: key, detail }));

function nodeSelectorRequirement(r: V1NodeSelectorRequirement, at: string): FieldError[] {
  return [...selectorOperatorErrors(r.operator, r.values ?? [], at, true), ...labelName(r.key ?? '', `${at}.key`)];
}

function nodeFieldRequirement(r: V1NodeSelectorRequirement, at: string): FieldError[] {
  const values = r.values ?? [];
  const errs: FieldError[] = [];
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (values.length !== 1) errs.push({ field: `${at}.values`, type: 'Required', detail: "must be only one value when `operator` is 'In' or 'NotIn' for node field selector" });
  } else errs.push({ field: `${at}.operator`, type: 'Invalid', value: r.operator ?? '', detail: 'not a valid selector operator' });
  // metadata.name is the only field a node selector may use.
  if (r.key !== 'metadata.name') errs.push({ field: `${at}.key`, type: 'Invalid', value: r.key ?? '', detail: 'not a valid field selector key' });
  else values.forEach((v, i) => isDNS1123Subdomain(v).forEach((detail) => errs.push({ field: `${at}.values[${i}]`, type: 'Invalid', value: v, detail })));
  return errs;
}

export function validateNodeSelectorTerm(term: V1NodeSelectorTerm, field: string): FieldError[] {
  return [
    ...(term.matchExpressions ?? []).flatMap((r, j) => nodeSelectorRequirement(r, `${field}.matchExpressions[${j}]`)),
    ...(term.matchFields ?? []).flatMap((r, j) => nodeFieldRequirement(r, `${field}.matchFields[${j}]`)),
  ];
}

export function validatePreferredSchedulingTerms(terms: readonly V1PreferredSchedulingTerm[], field: string): FieldError[] {
  return terms.flatMap((t, i) => [
    ...(t.weight <= 0 || t.weight > 100 ? [{ field: `${field}[${i}].weight`, type: 'Invalid' as const, value: t.weight, detail: 'must be in the range 1-100' }] : []),
    ...validateNodeSelectorTerm(t.preference ?? {}, `${field}[${i}].preference`),
  ]);
}

/** Go's %#v of a core.Toleration, as field.Invalid prints it. */
function goToleration(t: V1Toleration): string {
  const seconds = t.tolerationSeconds === undefined ? '(*int64)(nil)' : `(*int64)(${t.tolerationSeconds})`;
  return `core.Toleration{Key:${JSON.stringify(t.key ?? '')}, Operator:${JSON.stringify(t.operator ?? '')}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(t.effect ?? '')}, TolerationSeconds:${seconds}}`;
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateTolerations(tolerations: readonly V1Toleration[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const at = `${field}[${i}]`;
    if (t.key) errs.push(...labelName(t.key, `${at}.key`));
    if (!t.key && t.operator !== 'Exists') {
      errs.push({ field: `${at}.operator`, type: 'Invalid', value: t.operator ?? '', detail: 'operator must be Exists when `key` is empty, which means "match all values and all keys"' });
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
      errs.push({ field: `${at}.effect`, type: 'Invalid', value: t.effect ?? '', detail: "effect must be 'NoExecute' when `tolerationSeconds` is set" });
    }
    if (t.operator === 'Equal' || !t.operator) {
      const bad = isValidLabelValue(t.value ?? '');
      if (bad.length) errs.push({ field: `${at}.operator`, type: 'Invalid', value: t.value ?? '', detail: bad.join(';') });
    } else if (t.operator === 'Exists') {
      if (t.value) errs.push({ field: `${at}.operator`, type: 'Invalid', goValue: goToleration(t), detail: "value must be empty when `operator` is 'Exists'" });
    } else errs.push({ field: `${at}.operator`, type: 'NotSupported', value: t.operator, detail: supportedValues(['Equal', 'Exists']) });
    if (t.effect && !EFFECTS.includes(t.effect)) errs.push({ field: `${at}.effect`, type: 'NotSupported', value: t.effect, detail: supportedValues(EFFECTS) });
  });
  return errs;
}
