// ImageListPullJob defaults as OpenKruise's mutating webhook sets them (SetDefaultsImageListPullJob):
// completionPolicy.type Always, pullPolicy timeoutSeconds 600 and backoffLimit 3. Unlike an
// ImagePullJob, imagePullPolicy is left unset (each ImagePullJob gets its default when created).
// A field of the wrong type is left for the schema check. Pure.
import { isRecord } from '../kube/validation.js';
import { DEFAULT_BACKOFF_LIMIT, DEFAULT_TIMEOUT_SECONDS } from '../imagepulljob/types.js';
import type { ImageListPullJobLike } from './types.js';

export function defaultedImageListPullJob<T extends ImageListPullJobLike>(input: T): T {
  const job = structuredClone(input);
  const spec = job.spec;
  const completion = isRecord(spec.completionPolicy) ? spec.completionPolicy : spec.completionPolicy == null ? (spec.completionPolicy = {}) : undefined;
  if (completion && !completion.type) completion.type = 'Always';
  const pull = isRecord(spec.pullPolicy) ? spec.pullPolicy : spec.pullPolicy == null ? (spec.pullPolicy = {}) : undefined;
  if (pull && (pull.timeoutSeconds === undefined || pull.timeoutSeconds === null)) pull.timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (pull && (pull.backoffLimit === undefined || pull.backoffLimit === null)) pull.backoffLimit = DEFAULT_BACKOFF_LIMIT;
  return job;
}
