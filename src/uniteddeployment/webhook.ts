// The UnitedDeployment webhooks: defaulting on mutate-uniteddeployment, validation on
// validate-kruise. OpenKruise answers an invalid UnitedDeployment with 422 on CREATE and UPDATE,
// carrying the aggregated field errors. Neither reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { defaultedUnitedDeployment } from './defaults.js';
import { UD_KIND, type UnitedDeploymentLike } from './types.js';
import { validateUnitedDeployment } from './validate.js';

export const UD_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: UD_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

const NO_UD = 'the admission request carries no UnitedDeployment';

export const validateUnitedDeploymentHandler: AdmissionHandler = (req) => {
  const ud = req.object;
  if (!isRecord(ud) || !isRecord(ud.spec)) return deny(400, NO_UD);
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? (req.oldObject as UnitedDeploymentLike) : undefined;
  const errs = validateUnitedDeployment(ud as UnitedDeploymentLike, old);
  return errs.length ? deny(422, formatFieldErrors(errs)) : allow();
};

const sorted = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sorted) : isRecord(v) ? Object.fromEntries(Object.keys(v).sort().filter((k) => v[k] != null).map((k) => [k, sorted(v[k])])) : v;

/** SetDefaultsUnitedDeployment; the template's defaults on CREATE, and on UPDATE only when the template changed. */
export const defaultUnitedDeploymentHandler: AdmissionHandler = (req) => {
  const ud = req.object;
  if (!isRecord(ud) || !isRecord(ud.spec)) return deny(400, NO_UD);
  const old = isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? req.oldObject.spec : undefined;
  const template = req.operation === 'CREATE' || JSON.stringify(sorted(ud.spec.template)) !== JSON.stringify(sorted(old?.template));
  return allow(defaultedUnitedDeployment(ud as UnitedDeploymentLike, { template }));
};
