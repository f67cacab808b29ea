// The AdvancedCronJob webhooks: defaulting on mutate-advancedcronjob, validation on
// validate-kruise. OpenKruise answers an invalid AdvancedCronJob with 422 on CREATE and UPDATE,
// carrying the aggregated field errors. Neither reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { defaultedAdvancedCronJob } from './defaults.js';
import { ACJ_KIND, type AdvancedCronJobLike } from './types.js';
import { validateAdvancedCronJob } from './validate.js';

export const ACJ_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: ACJ_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

const oldOf = (req: { operation: string; oldObject?: unknown }) =>
  req.operation === 'UPDATE' && isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? (req.oldObject as AdvancedCronJobLike) : undefined;

export const validateAdvancedCronJobHandler: AdmissionHandler = (req) => {
  const acj = req.object;
  if (!isRecord(acj) || !isRecord(acj.spec)) return deny(400, 'the admission request carries no AdvancedCronJob');
  const errs = validateAdvancedCronJob(acj as AdvancedCronJobLike, oldOf(req));
  return errs.length ? deny(422, formatFieldErrors(errs)) : allow();
};

export const defaultAdvancedCronJobHandler: AdmissionHandler = (req) => {
  const acj = req.object;
  if (!isRecord(acj) || !isRecord(acj.spec)) return deny(400, 'the admission request carries no AdvancedCronJob');
  const old = oldOf(req);
  const templateChanged = !old || JSON.stringify(old.spec.template) !== JSON.stringify(acj.spec.template);
  return allow(defaultedAdvancedCronJob(acj as AdvancedCronJobLike, templateChanged));
};
