// The ImageListPullJob webhooks: defaulting on mutate-imagelistpulljob, validation on
// validate-kruise, for both served versions. OpenKruise answers an invalid job with 400. Neither
// reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { isRecord } from '../kube/validation.js';
import { defaultedImageListPullJob } from './defaults.js';
import { IMAGELISTPULLJOB_GROUP, IMAGELISTPULLJOB_KIND, type ImageListPullJobLike } from './types.js';
import { validateImageListPullJob } from './validate.js';

export const IMAGELISTPULLJOB_MATCH: HandlerMatch = { group: IMAGELISTPULLJOB_GROUP, kind: IMAGELISTPULLJOB_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

const NO_JOB = 'the admission request carries no ImageListPullJob';

export const validateImageListPullJobHandler: AdmissionHandler = (req) => {
  const job = req.object;
  if (!isRecord(job) || !isRecord(job.spec)) return deny(400, NO_JOB);
  const err = validateImageListPullJob(job as ImageListPullJobLike);
  return err ? deny(400, err) : allow();
};

export const defaultImageListPullJobHandler: AdmissionHandler = (req) => {
  const job = req.object;
  if (!isRecord(job)) return deny(400, NO_JOB);
  if (!isRecord(job.spec)) return allow();
  return allow(defaultedImageListPullJob(job as ImageListPullJobLike));
};
