// UnitedDeployment defaults as OpenKruise's mutating webhook sets them (SetDefaultsUnitedDeployment):
// replicas 1, revisionHistoryLimit 10, updateStrategy Manual with an empty manualUpdate, the
// statefulSetTemplate's pod template defaults (on CREATE and on an UPDATE that changes the
// template), and minReplicas 0 on every subset when min/max are used and fixed replicas are not.
// Status is cleared, as OpenKruise's webhook does. Pure.
import { isRecord } from '../kube/validation.js';
import { defaultedTemplateSpec } from '../workload/template-defaults.js';
import { DEFAULT_REVISION_HISTORY_LIMIT, type UnitedDeploymentLike } from './types.js';

export function defaultedUnitedDeployment<T extends UnitedDeploymentLike>(input: T, opts: { template?: boolean } = {}): T {
  const ud = structuredClone(input);
  const spec = ud.spec;
  if (spec.replicas == null) spec.replicas = 1;
  if (spec.revisionHistoryLimit == null) spec.revisionHistoryLimit = DEFAULT_REVISION_HISTORY_LIMIT;
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!strategy.type) strategy.type = 'Manual';
  if (strategy.type === 'Manual' && strategy.manualUpdate == null) strategy.manualUpdate = {};
  const sts = spec.template?.statefulSetTemplate;
  if (opts.template && sts && isRecord(sts.spec) && isRecord(sts.spec.template)) {
    const pod = sts.spec.template;
    if (pod.spec === undefined || isRecord(pod.spec)) pod.spec = defaultedTemplateSpec(pod.spec);
  }
  const subsets = spec.topology?.subsets ?? [];
  const fixed = subsets.some((s) => s.replicas != null);
  const capacity = subsets.some((s) => s.minReplicas != null || s.maxReplicas != null);
  if (capacity && !fixed) for (const s of subsets) if (s.minReplicas == null) s.minReplicas = 0;
  delete ud.status;
  return ud;
}
