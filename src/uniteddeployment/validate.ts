// Validation of a UnitedDeployment, with OpenKruise's rules, field paths and messages
// (pkg/webhook/uniteddeployment/validating): replicas, the selector and the template labels it
// must match, exactly one of the four templates (no replicas or partition of their own), the
// subsets' names, replicas / minReplicas / maxReplicas and their sums, Adaptive's ban on fixed
// replicas, the manual partitions' subsets, and on UPDATE the subsets' nodeSelectorTerm and
// tolerations, which may not change. Pure.
//
// Kept from OpenKruise: an advancedStatefulSetTemplate's label mismatch is reported under
// `statefulSetTemplate`; a cloneSetTemplate's labels are not checked. Not kept: where OpenKruise's
// message prints the address of spec.replicas (a `%d` of a pointer), ours prints its value. The
// pod template itself is left to the subset workload's own validation.
import { reservesUnschedulablePods } from './reservation.js';
import type { FieldError } from '../kube/field-errors.js';
import { supportedValues } from '../kube/field-errors.js';
import { goIntOrString, type IntOrString } from '../kube/intstr.js';
import { matchesLabelSelector } from '../kube/selectors.js';
import { NEGATIVE_ERROR, goLabelSelector, goStringMap, isDNS1123Label, isRecord, validateLabelSelector } from '../kube/validation.js';
import { parseSubsetReplicas } from './replicas.js';
import { TEMPLATE_FIELDS, isAdaptive, type Subset, type UnitedDeploymentLike, type UnitedDeploymentSpecLike as UnitedDeploymentSpec } from './types.js';

const ONE_OF = 'statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate';

function templateErrors(spec: UnitedDeploymentSpec): FieldError[] {
  const errs: FieldError[] = [];
  const set = TEMPLATE_FIELDS.filter((f) => spec.template?.[f]);
  if (set.length < 1) errs.push({ field: 'spec.template', type: 'Required', detail: `should provide one of ${ONE_OF}` });
  else if (set.length > 1) errs.push({ field: 'spec.template', type: 'Invalid', goValue: 'v1beta1.SubsetTemplate{…}', detail: `should provide only one of ${ONE_OF}` });
  const field = set[0];
  if (!field || !spec.selector) return errs;
  const t = spec.template?.[field] ?? {};
  const labels = t.metadata?.labels;
  const at = `spec.template.${field}`;
  if (field !== 'cloneSetTemplate' && !matchesLabelSelector(spec.selector, labels ?? {})) {
    const reported = field === 'advancedStatefulSetTemplate' ? 'statefulSetTemplate' : field;
    errs.push({ field: `spec.template.${reported}.metadata.labels`, type: 'Invalid', goValue: goStringMap(labels), detail: '`selector` does not match template `labels`' });
  }
  const tspec = isRecord(t.spec) ? t.spec : {};
  const name = field === 'cloneSetTemplate' ? undefined : field;
  if (name && typeof tspec.replicas === 'number') errs.push({ field: `${at}.spec.replicas`, type: 'Invalid', value: tspec.replicas, detail: `replicas in ${name} will not be used` });
  const strategy = isRecord(tspec.updateStrategy) ? tspec.updateStrategy : {};
  const rolling = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : undefined;
  if ((field === 'statefulSetTemplate' || field === 'advancedStatefulSetTemplate') && strategy.type === 'RollingUpdate' && rolling && typeof rolling.partition === 'number') {
    errs.push({ field: `${at}.spec.updateStrategy.rollingUpdate.partition`, type: 'Invalid', value: rolling.partition, detail: `partition in ${field} will not be used` });
  }
  return errs;
}

/** validateSubsetReplicas: each value parses; fixed replicas and min/max exclude each other; the sums fit. */
export function subsetReplicasErrors(expected: number | null | undefined, subsets: readonly Subset[]): FieldError[] {
  const path = 'spec.topology.subsets';
  const total = expected ?? -1;
  const errs: FieldError[] = [];
  let sum = 0;
  let sumMin = 0;
  let sumMax = 0;
  let countReplicas = 0;
  let countMax = 0;
  let hasReplicas = false;
  let hasCapacity = false;
  const parse = (v: IntOrString, field: string): number => {
    const r = parseSubsetReplicas(total, v);
    if (typeof r === 'number') return r;
    errs.push({ field, type: 'Invalid', goValue: goIntOrString(v), detail: r.error });
    return 0;
  };
  subsets.forEach((s, i) => {
    let replicas = 0;
    if (s.replicas != null) {
      countReplicas++;
      hasReplicas = true;
      replicas = parse(s.replicas, `${path}[${i}].replicas`);
    }
    sum += replicas;
    let min = 0;
    if (s.minReplicas != null) {
      hasCapacity = true;
      min = parse(s.minReplicas, `${path}[${i}].minReplicas`);
    }
    sumMin += min;
    let max = 1000000;
    if (s.maxReplicas != null) {
      countMax++;
      hasCapacity = true;
      max = parse(s.maxReplicas, `${path}[${i}].maxReplicas`);
    }
    sumMax += max;
    if (min > max) errs.push({ field: `${path}[${i}].minReplicas`, type: 'Invalid', goValue: goIntOrString(s.minReplicas), detail: `subset[${i}].minReplicas must be less than or equal to maxReplicas` });
  });
  if (hasReplicas && hasCapacity) {
    errs.push({ field: path, type: 'Invalid', goValue: '[]v1beta1.Subset{…}', detail: 'subset.Replicas and subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment' });
    return errs;
  }
  if (hasCapacity) {
    if (total === -1) errs.push({ field: path, type: 'Invalid', value: -1, detail: 'spec.replicas must be not empty if you set subset.minReplicas/maxReplicas' });
    if (countMax >= subsets.length) errs.push({ field: path, type: 'Invalid', value: countMax, detail: 'at least one subset.maxReplicas must be empty' });
    if (sumMin > sumMax) errs.push({ field: path, type: 'Invalid', value: sumMin, detail: 'sum of indicated subset.minReplicas should not be greater than sum of indicated subset.maxReplicas' });
  } else if (total !== -1) {
    if (sum > total) errs.push({ field: path, type: 'Invalid', value: sum, detail: `sum of indicated subset replicas ${sum} should not be greater than UnitedDeployment replicas ${total}` });
    if (countReplicas > 0 && countReplicas === subsets.length && sum !== total) {
      errs.push({ field: path, type: 'Invalid', value: sum, detail: `if replicas of all subsets are provided, the sum of indicated subset replicas ${sum} should equal UnitedDeployment replicas ${total}` });
    }
  } else if (countReplicas !== subsets.length) {
    errs.push({ field: path, type: 'Invalid', value: sum, detail: 'if UnitedDeployment replicas is not provided, replicas of all subsets should be provided' });
  }
  return errs;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function validateUnitedDeployment(ud: UnitedDeploymentLike, old?: UnitedDeploymentLike): FieldError[] {
  const spec = ud.spec;
  const errs: FieldError[] = [];
  if (typeof spec.replicas === 'number' && spec.replicas < 0) errs.push({ field: 'spec.replicas', type: 'Invalid', value: spec.replicas, detail: NEGATIVE_ERROR });
  if (!spec.selector) errs.push({ field: 'spec.selector', type: 'Required', detail: '' });
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    if (Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions ?? []).length === 0) {
      errs.push({ field: 'spec.selector', type: 'Invalid', goValue: goLabelSelector(spec.selector), detail: 'empty selector is invalid for statefulset' });
    }
  }
  if (reservesUnschedulablePods(spec) && (spec.template?.advancedStatefulSetTemplate || spec.template?.statefulSetTemplate)) {
    errs.push({
      field: 'spec.topology.scheduleStrategy',
      type: 'Invalid',
      goValue: 'v1alpha1.UnitedDeploymentScheduleStrategy{…}',
      detail: 'only stateless workloads (Deployment and CloneSet) are supported by reserved rescheduling',
    });
  }
  errs.push(...templateErrors(spec));
  const subsets = spec.topology?.subsets ?? [];
  errs.push(...subsetReplicasErrors(spec.replicas, subsets));
  const names = new Set<string>();
  subsets.forEach((s, i) => {
    const at = `spec.topology.subsets[${i}]`;
    const name = s.name ?? '';
    if (!name) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
    if (names.has(name)) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail: `duplicated subset name ${name}` });
    names.add(name);
    const dns = isDNS1123Label(name);
    if (dns.length) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail: `invalid subset name ${dns.join(', ')}` });
    if (s.replicas != null && isAdaptive(spec)) errs.push({ field: `${at}.replicas`, type: 'Forbidden', detail: 'specify replicas use minReplicas/maxReplicas to enable adaptive strategy' });
  });
  const type = spec.updateStrategy?.type || 'Manual';
  if (type === 'Manual') {
    const partitions = spec.updateStrategy?.manualUpdate?.partitions ?? {};
    for (const s of Object.keys(partitions)) {
      if (!names.has(s)) {
        const m = `map[string]int32{${Object.keys(partitions).sort().map((k) => `${JSON.stringify(k)}:${partitions[k]}`).join(', ')}}`;
        errs.push({ field: 'spec.updateStrategy.manualUpdate.partitions', type: 'Invalid', goValue: m, detail: `subset ${s} does not exist` });
      }
    }
  } else {
    errs.push({ field: 'spec.updateStrategy.type', type: 'NotSupported', value: type, detail: supportedValues(['Manual', '']) });
  }
  if (old) {
    const before = new Map((old.spec.topology?.subsets ?? []).map((s) => [s.name ?? '', s]));
    subsets.forEach((s, i) => {
      const o = before.get(s.name ?? '');
      if (!o) return;
      const at = `spec.topology.subsets[${i}]`;
      if (!same(o.nodeSelectorTerm, s.nodeSelectorTerm)) errs.push({ field: `${at}.nodeSelectorTerm`, type: 'Forbidden', detail: 'may not be changed in an update' });
      if (!same(o.tolerations, s.tolerations)) errs.push({ field: `${at}.tolerations`, type: 'Forbidden', detail: 'may not be changed in an update' });
    });
  }
  return errs;
}
