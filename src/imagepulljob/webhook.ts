// The ImagePullJob webhooks: defaulting on mutate-imagepulljob, validation on validate-kruise.
// OpenKruise answers an invalid job with 400 and a changed pullSecrets with a denial (403).
// Neither reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { isRecord } from '../kube/validation.js';
import { defaultedImagePullJob } from './defaults.js';
import { IMAGEPULLJOB_KIND, type ImagePullJobLike } from './types.js';
import { pullSecretsChanged, validateImagePullJob } from './validate.js';

export const IMAGEPULLJOB_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: IMAGEPULLJOB_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

const NO_JOB = 'the admission request carries no ImagePullJob';

export const validateImagePullJobHandler: AdmissionHandler = (req) => {
  const job = req.object;
  if (!isRecord(job) || !isRecord(job.spec)) return deny(400, NO_JOB);
  const old = req.oldObject;
  if (req.operation === 'UPDATE' && isRecord(old) && isRecord(old.spec) && pullSecretsChanged(job as ImagePullJobLike, old as ImagePullJobLike)) {
    return deny(403, 'spec.pullSecrets is immutable', 'Forbidden');
  }
  const err = validateImagePullJob(job as ImagePullJobLike);
  return err ? deny(400, err) : allow();
};

export const defaultImagePullJobHandler: AdmissionHandler = (req) => {
  const job = req.object;
  if (!isRecord(job)) return deny(400, NO_JOB);
  if (!isRecord(job.spec)) return allow();
  return allow(defaultedImagePullJob(job as ImagePullJobLike));
};
