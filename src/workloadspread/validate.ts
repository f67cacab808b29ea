// The WorkloadSpread validating webhook's rules (../shared/SEMANTICS.md §3.2), with OpenKruise's paths and
// messages. Pure: the other WorkloadSpreads of the namespace, the custom workload whitelist and
// the target workload (for patch validation) come in as arguments.
import type { FieldError } from '../kube/field-errors.js';
import { validateLabelSelector } from '../kube/validation.js';
import { validateSubsetPatch, type PatchTarget } from './patch-validation.js';
import { validateNodeSelectorTerm, validatePreferredSchedulingTerms, validateTolerations } from './scheduling-validation.js';
import { groupOf, type WorkloadSpread, type WorkloadSpreadSubset, type WorkloadSpreadTargetReference } from './types.js';
import { BUILTIN_WORKLOADS, type CustomWorkloadWhitelist } from './workloads.js';
import { MAX_SCHEDULED_FAILED_MS } from './types.js';

export type WorkloadSpreadValidationContext = {
  /** The other WorkloadSpreads of the namespace. */
  others: readonly WorkloadSpread[];
  whitelist: CustomWorkloadWhitelist | { error: string };
  /** The target workload when it exists: its pod template (and volumeClaimTemplates) validate patches. */
  target?: PatchTarget;
  /** The stored object, on UPDATE. */
  old?: WorkloadSpread;
};

const goTargetRef = (r: WorkloadSpreadTargetReference) => `v1alpha1.TargetReference{APIVersion:${JSON.stringify(r.apiVersion ?? '')}, Kind:${JSON.stringify(r.kind ?? '')}, Name:${JSON.stringify(r.name ?? '')}}`;
const goIntOrString = (v: number | string | undefined | null) =>
  v === undefined || v === null ? 'null' : typeof v === 'number' ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}` : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;

function validateTargetRef(ref: WorkloadSpreadTargetReference | undefined, ctx: WorkloadSpreadValidationContext): FieldError[] {
  const field = 'spec.targetRef';
  if (!ref) return [{ field, type: 'Required', detail: 'no targetRef defined in WorkloadSpread' }];
  const invalid = (detail: string): FieldError[] => [{ field, type: 'Invalid', goValue: goTargetRef(ref), detail }];
  if (!ref.apiVersion || !ref.kind || !ref.name) return invalid('empty TargetReference is not valid for WorkloadSpread.');
  const builtin = BUILTIN_WORKLOADS.find((w) => w.kind === ref.kind);
  if (builtin) return builtin.groups.includes(groupOf(ref.apiVersion)) ? [] : invalid(`TargetReference is not valid for ${ref.kind}.`);
  const errs: FieldError[] = 'error' in ctx.whitelist ? [{ field, type: 'Internal', detail: ctx.whitelist.error }] : [];
  const workloads = 'error' in ctx.whitelist ? [] : ctx.whitelist.workloads;
  return workloads.some((w) => w.kind === ref.kind && w.group === groupOf(ref.apiVersion)) ? errs : [...errs, ...invalid("TargetReference's GroupKind is not permitted.")];
}

/** maxReplicas as intstr.GetValueFromIntOrPercent(v, 100, true) reads it; undefined if unparseable. */
function maxReplicasValue(v: number | string): number | undefined {
  if (typeof v === 'number') return v;
  const m = /^([+-]?\d+)%$/.exec(v);
  return m ? Math.ceil(Number(m[1])) : undefined;
}

function validateSubsets(ws: WorkloadSpread, ctx: WorkloadSpreadValidationContext): FieldError[] {
  const subsets = ws.spec.subsets ?? [];
  const path = 'spec.subsets';
  if (subsets.length === 0) return [{ field: path, type: 'Required', detail: 'subsets number must >= 1 in WorkloadSpread' }];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  let firstType: 'int' | 'percent' | undefined;
  let percentSum = 0;
  for (const [i, s] of subsets.entries()) {
    const at = `${path}[${i}]`;
    if (!s.name) errs.push({ field: `${at}.name`, type: 'Invalid', value: '', detail: '' });
    else {
      if (names.has(s.name)) errs.push({ field: `${at}.name`, type: 'Invalid', value: s.name, detail: `duplicated subset name ${s.name}` });
      names.add(s.name);
    }
    if (s.requiredNodeSelectorTerm) errs.push(...validateNodeSelectorTerm(s.requiredNodeSelectorTerm, `${at}.requiredNodeSelectorTerm`));
    if (s.preferredNodeSelectorTerms) errs.push(...validatePreferredSchedulingTerms(s.preferredNodeSelectorTerms, `${at}.preferredSchedulingTerms`));
    if (s.tolerations) errs.push(...validateTolerations(s.tolerations, `${at}.tolerations`));
    errs.push(...validateSubsetPatch(s.patch, ctx.target, `${at}.patch`));
    if (s.maxReplicas === undefined || s.maxReplicas === null) continue;
    // The first problem with maxReplicas ends subset validation, as in OpenKruise.
    const bad = (detail: string) => [...errs, { field: `${at}.maxReplicas`, type: 'Invalid' as const, goValue: goIntOrString(s.maxReplicas), detail }];
    const type = typeof s.maxReplicas === 'number' ? 'int' : 'percent';
    firstType ??= type;
    if (type !== firstType) return bad('the maxReplicas type of all subsets must be the same');
    if (ws.spec.targetRef?.kind === 'StatefulSet' && type !== 'int') return bad('the maxReplicas type must be Int for StatefulSet');
    const value = maxReplicasValue(s.maxReplicas);
    if (value === undefined || value < 0) return bad('maxReplicas is not valid for subset');
    if (type === 'percent') {
      percentSum += value;
      if (percentSum > 100) return bad("the sum of all subset's maxReplicas exceeds 100% is no permitted");
    }
  }
  const last = subsets[subsets.length - 1]!;
  if (firstType === 'percent' && percentSum < 100 && last.maxReplicas !== undefined && last.maxReplicas !== null) {
    errs.push({ field: `${path}[0].maxReplicas`, type: 'Invalid', goValue: goIntOrString(subsets[0]!.maxReplicas), detail: 'maxReplicas sum of all subsets must equal 100% when type is specified as percent' });
  }
  return errs;
}

function validateScheduleStrategy(ws: WorkloadSpread): FieldError[] {
  const strategy = ws.spec.scheduleStrategy ?? {};
  const type = strategy.type ?? '';
  const path = 'spec.scheduleStrategy';
  const errs: FieldError[] = [];
  if (type !== '' && type !== 'Fixed' && type !== 'Adaptive') errs.push({ field: `${path}.type`, type: 'Invalid', value: type, detail: "ScheduleStrategy's type is not valid" });
  const adaptive = strategy.adaptive;
  if (!adaptive) return errs;
  const seconds = adaptive.rescheduleCriticalSeconds;
  const goSeconds = seconds === undefined || seconds === null ? 'null' : String(seconds);
  if (type !== 'Adaptive') errs.push({ field: `${path}.type`, type: 'Invalid', goValue: goSeconds, detail: "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy" });
  const subsets = ws.spec.subsets ?? [];
  const last = subsets[subsets.length - 1];
  if (subsets.length > 1 && last?.maxReplicas !== undefined && last?.maxReplicas !== null) {
    errs.push({ field: `${path}.adaptive`, type: 'Invalid', goValue: goSeconds, detail: 'the last subset must be not specified when using adaptive scheduleStrategy' });
  }
  // Rescheduling across all subsets must fit in the time a subset stays unschedulable (less 5 s of reconcile slack).
  const allowed = subsets.length > 1 ? Math.trunc((MAX_SCHEDULED_FAILED_MS / 1000 - 5) / (subsets.length - 1)) : 2 ** 31 - 1;
  if (seconds !== undefined && seconds !== null && (seconds < 0 || seconds > allowed)) {
    errs.push({ field: `${path}.adaptive.rescheduleCriticalSeconds`, type: 'Invalid', value: seconds, detail: `rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > ${allowed} is not permitted` });
  }
  return errs;
}

function validateConflicts(ws: WorkloadSpread, others: readonly WorkloadSpread[]): FieldError[] {
  const ref = ws.spec.targetRef;
  if (!ref) return [];
  const other = others.find((o) => {
    const r = o.spec?.targetRef;
    return o.metadata?.name !== ws.metadata?.name && r && groupOf(r.apiVersion) === groupOf(ref.apiVersion) && r.kind === ref.kind && r.name === ref.name;
  });
  return other ? [{ field: 'spec.targetRef', type: 'Invalid', goValue: goTargetRef(ref), detail: `ws.spec.targetRef is in conflict with other WorkloadSpread ${other.metadata?.name}` }] : [];
}

function validateUpdate(ws: WorkloadSpread, old: WorkloadSpread): FieldError[] {
  const ref = ws.spec.targetRef;
  const was = old.spec?.targetRef;
  if (!ref || !was) return [];
  const changed = groupOf(ref.apiVersion) !== groupOf(was.apiVersion) || ref.kind !== was.kind || ref.name !== was.name;
  return changed ? [{ field: 'spec.targetRef', type: 'Invalid', goValue: goTargetRef(ref), detail: 'change TargetReference is not permitted for WorkloadSpread' }] : [];
}

/** Every §3.2 error for a WorkloadSpread being created or (with ctx.old) updated. */
export function validateWorkloadSpread(ws: WorkloadSpread, ctx: WorkloadSpreadValidationContext): FieldError[] {
  const filter = ws.spec.targetFilter;
  return [
    ...validateTargetRef(ws.spec.targetRef, ctx),
    ...validateSubsets(ws, ctx),
    ...validateScheduleStrategy(ws),
    ...(filter?.selector ? validateLabelSelector(filter.selector as Parameters<typeof validateLabelSelector>[0], 'spec.targetFilter.selector') : []),
    ...validateConflicts(ws, ctx.others),
    ...(ctx.old ? validateUpdate(ws, ctx.old) : []),
  ];
}
