// The Advanced DaemonSet webhooks: defaulting on mutate-daemonset, validation on validate-kruise.
// OpenKruise answers an invalid DaemonSet with 500 on CREATE (its handler returns the field
// errors as an error) and 422 on UPDATE; both carry the aggregated field errors. Neither reads
// cluster state. The defaulting also keeps the template generation annotation (template-generation.ts).
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { defaultedDaemonSet } from './defaults.js';
import { withTemplateGeneration } from './template-generation.js';
import { DAEMONSET_KIND, type DaemonSetLike } from './types.js';
import { validateDaemonSet } from './validate.js';

export const DAEMONSET_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: DAEMONSET_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

export const validateDaemonSetHandler: AdmissionHandler = (req) => {
  const ds = req.object;
  if (!isRecord(ds) || !isRecord(ds.spec)) return deny(400, 'the admission request carries no DaemonSet');
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? (req.oldObject as DaemonSetLike) : undefined;
  const errs = validateDaemonSet(ds as DaemonSetLike, old);
  if (!errs.length) return allow();
  return deny(req.operation === 'UPDATE' ? 422 : 500, formatFieldErrors(errs));
};

/**
 * SetDefaultsDaemonSet (the pod template is not defaulted: OpenKruise's v1alpha1 webhook leaves
 * it), and the template generation annotation moved as the apps/v1 API server moves it.
 */
export const defaultDaemonSetHandler: AdmissionHandler = (req) => {
  const ds = req.object;
  if (!isRecord(ds) || !isRecord(ds.spec)) return deny(400, 'the admission request carries no DaemonSet');
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? (req.oldObject as DaemonSetLike) : undefined;
  return allow(withTemplateGeneration(defaultedDaemonSet(ds as DaemonSetLike), old));
};
