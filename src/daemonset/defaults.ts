// Advanced DaemonSet defaults as OpenKruise's mutating webhook sets them (SetDefaultsDaemonSet,
// v1alpha1): burstReplicas 250; updateStrategy RollingUpdate; the deprecated `Surging` type becomes
// `Standard` with maxSurge 1 and maxUnavailable 0 unless set (OpenKruise 1.9 folded it so); an
// empty type becomes `Standard`; maxUnavailable 1 and maxSurge 0 when neither is set;
// revisionHistoryLimit 10. The pod template is left as written, as OpenKruise leaves it (its
// revision data, and so a takeover, depend on that). Pure: returns a copy.
import { isRecord } from '../kube/validation.js';
import { DEFAULT_BURST_REPLICAS, DEFAULT_REVISION_HISTORY_LIMIT, type DaemonSetLike } from './types.js';

export function defaultedDaemonSet<T extends DaemonSetLike>(input: T): T {
  const ds = structuredClone(input);
  const spec = isRecord(ds.spec) ? ds.spec : (ds.spec = {} as T['spec']);
  spec.burstReplicas ??= DEFAULT_BURST_REPLICAS;
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
    if (rolling.rollingUpdateType === 'Surging') {
      rolling.maxSurge ??= 1;
      rolling.maxUnavailable ??= 0;
    }
    if (!rolling.rollingUpdateType || rolling.rollingUpdateType === 'Surging') rolling.rollingUpdateType = 'Standard';
    if (rolling.maxUnavailable === undefined && rolling.maxSurge === undefined) {
      rolling.maxUnavailable = 1;
      rolling.maxSurge = 0;
    }
  }
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
  return ds;
}
