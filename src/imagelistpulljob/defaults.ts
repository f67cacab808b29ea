// ImageListPullJob defaults as OpenKruise's mutating webhook sets them (SetDefaultsImageListPullJob):
// completionPolicy.type Always, pullPolicy timeoutSeconds 600 and backoffLimit 3. Unlike an
// ImagePullJob, imagePullPolicy is left unset (each ImagePullJob gets its default when created).
// A field of the wrong type is left for the schema check. Pure.
import { defaultPolicies } from '../imagepulljob/defaults.js';
import type { ImageListPullJobLike } from './types.js';

export function defaultedImageListPullJob<T extends ImageListPullJobLike>(input: T): T {
  const job = structuredClone(input);
  defaultPolicies(job.spec);
  return job;
}
