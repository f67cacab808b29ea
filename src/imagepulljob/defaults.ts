// ImagePullJob defaults as OpenKruise's mutating webhook sets them (SetDefaultsImagePullJob):
// completionPolicy.type Always, pullPolicy timeoutSeconds 600 and backoffLimit 3, imagePullPolicy
// IfNotPresent. Its protection finalizer is not added: it guards the copies of pull secrets
// kruise-daemon needs, and the pull pods here read the secrets in the job's own namespace.
// An admitted object is untrusted: a field of the wrong type is left for the schema check. Pure.
import { isRecord } from '../kube/validation.js';
import { DEFAULT_BACKOFF_LIMIT, DEFAULT_TIMEOUT_SECONDS, type ImagePullJobLike } from './types.js';

export function defaultedImagePullJob<T extends ImagePullJobLike>(input: T): T {
  const job = structuredClone(input);
  defaultPolicies(job.spec);
  if (!job.spec.imagePullPolicy) job.spec.imagePullPolicy = 'IfNotPresent';
  return job;
}

/** completionPolicy and pullPolicy defaults, in place: shared with ImageListPullJob (its spec inlines this one). */
export function defaultPolicies(spec: ImagePullJobLike['spec']): void {
  const completion = isRecord(spec.completionPolicy) ? spec.completionPolicy : spec.completionPolicy == null ? (spec.completionPolicy = {}) : undefined;
  if (completion && !completion.type) completion.type = 'Always';
  const pull = isRecord(spec.pullPolicy) ? spec.pullPolicy : spec.pullPolicy == null ? (spec.pullPolicy = {}) : undefined;
  if (pull && (pull.timeoutSeconds === undefined || pull.timeoutSeconds === null)) pull.timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (pull && (pull.backoffLimit === undefined || pull.backoffLimit === null)) pull.backoffLimit = DEFAULT_BACKOFF_LIMIT;
}
