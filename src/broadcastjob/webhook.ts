// The BroadcastJob webhooks: defaulting on mutate-broadcastjob, validation on validate-kruise.
// OpenKruise answers an invalid BroadcastJob with 500 on CREATE and UPDATE alike (its handler
// returns the aggregated field errors as an error). Neither reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { defaultedBroadcastJob, sameTemplate } from './defaults.js';
import { BROADCASTJOB_KIND, type BroadcastJobLike } from './types.js';
import { validateBroadcastJob } from './validate.js';

export const BROADCASTJOB_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: BROADCASTJOB_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

const NO_JOB = 'the admission request carries no BroadcastJob';

export const validateBroadcastJobHandler: AdmissionHandler = (req) => {
  const job = req.object;
  if (!isRecord(job) || !isRecord(job.spec)) return deny(400, NO_JOB);
  const errs = validateBroadcastJob(job as BroadcastJobLike);
  return errs.length ? deny(500, formatFieldErrors(errs)) : allow();
};

/** SetDefaultsBroadcastJob; the template's defaults on CREATE, and on UPDATE only when the template changed. */
export const defaultBroadcastJobHandler: AdmissionHandler = (req) => {
  const job = req.object;
  if (!isRecord(job)) return deny(400, NO_JOB);
  if (job.spec !== undefined && job.spec !== null && !isRecord(job.spec)) return allow();
  const spec = isRecord(job.spec) ? job.spec : {};
  const old = isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? req.oldObject.spec : undefined;
  const template = req.operation === 'CREATE' || !sameTemplate(spec.template, old?.template);
  return allow(defaultedBroadcastJob({ ...job, spec } as BroadcastJobLike, { template }));
};
