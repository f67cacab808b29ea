// Validation of a PersistentPodState with OpenKruise's rules (pkg/webhook/persistentpodstate/
// validating): a complete targetRef to a StatefulSet, at least one topology, targetRef immutable,
// and no other PersistentPodState on the same workload. OpenKruise reports every error (a
// field.ErrorList aggregate); so does this. Go's %v of the offending value is rendered as JSON. Pure.
import { groupOf, isSupportedTarget, type StoredPersistentPodState, type PersistentPodStateLike } from './types.js';

const aggregate = (errs: string[]): string => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

export function validatePersistentPodState(obj: PersistentPodStateLike, old: PersistentPodStateLike | undefined, others: readonly StoredPersistentPodState[]): string | undefined {
  const spec = obj.spec ?? {};
  const ref = spec.targetRef ?? {};
  const errs: string[] = [];
  const refText = JSON.stringify(ref);
  if (!ref.apiVersion || !ref.name || !ref.kind) errs.push(`spec.TargetReference: Invalid value: ${refText}: empty TargetReference is not valid for PersistentPodState.`);
  if (!isSupportedTarget(ref.apiVersion, ref.kind)) errs.push(`spec.TargetReference: Invalid value: ${refText}: TargetReference.Kind must be StatefulSet or in PPS_Watch_Custom_Workload_WhiteList`);
  if (!spec.requiredPersistentTopology && !(spec.preferredPersistentTopology ?? []).length) errs.push(`spec: Invalid value: ${JSON.stringify(spec)}: TopologyConstraint and TopologyPreference cannot be empty at the same time`);
  if (old && JSON.stringify(old.spec?.targetRef ?? {}) !== refText) errs.push('spec.targetRef: Required value: targetRef cannot be modified');
  const clash = others.find((o) => o.metadata.name !== obj.metadata?.name && o.metadata.namespace === obj.metadata?.namespace && groupOf(o.spec?.targetRef?.apiVersion) === groupOf(ref.apiVersion) && o.spec?.targetRef?.kind === ref.kind && o.spec?.targetRef?.name === ref.name);
  if (clash) errs.push(`spec.targetReference: Invalid value: ${refText}: targetReference is in conflict with other PersistentPodState ${clash.metadata.name}`);
  return errs.length ? aggregate(errs) : undefined;
}
