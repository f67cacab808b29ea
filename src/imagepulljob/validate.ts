// Validation of an ImagePullJob with OpenKruise's rules and messages (pkg/webhook/imagepulljob/
// validating): selector names or a label selector, not both, names unique; podSelector not with
// selector; a parsable image; parallelism a non-negative integer (no percentage); Always jobs'
// activeDeadlineSeconds no shorter than the pull timeout; Never jobs without deadline or TTL.
// OpenKruise stops at the first error; so does this. Pure.
import { isRecord } from '../kube/validation.js';
import { selectorProblems, type UncheckedSelector } from '../kube/selectors.js';
import { imageRefError } from './image-ref.js';
import { DEFAULT_TIMEOUT_SECONDS, type ImagePullJobLike } from './types.js';

const hasLabelTerms = (s: UncheckedSelector) => s.matchLabels != null || s.matchExpressions != null;

/** The node and pod selector rules, shared with ImageListPullJob (its spec inlines this one). */
export function selectorError(spec: ImagePullJobLike['spec']): string | undefined {
  const sel = spec.selector;
  if (isRecord(sel)) {
    if (hasLabelTerms(sel)) {
      if (sel.names != null) return 'can not set both names and labelSelector in this spec.selector';
      const p = selectorProblems(sel)[0];
      if (p) return `invalid selector: ${p.detail}`;
    }
    if (Array.isArray(sel.names) && new Set(sel.names).size !== sel.names.length) return 'duplicated name in selector names';
  }
  if (isRecord(spec.podSelector)) {
    if (sel != null) return 'can not set both selector and podSelector';
    const p = selectorProblems(spec.podSelector)[0];
    if (p) return `invalid podSelector: ${p.detail}`;
  }
  return undefined;
}

function parallelismError(p: ImagePullJobLike['spec']['parallelism']): string | undefined {
  if (p === undefined || p === null) return undefined;
  if (typeof p === 'string') {
    if (p.endsWith('%')) return 'parallelism does not support percentage value';
    if (!/^[+-]?\d+$/.test(p) || Math.abs(Number(p)) > 2 ** 31 - 1) return `parallelism must be a valid integer: strconv.ParseInt: parsing ${JSON.stringify(p)}: ${/^[+-]?\d+$/.test(p) ? 'value out of range' : 'invalid syntax'}`;
    return Number(p) < 0 ? 'parallelism must be non-negative' : undefined;
  }
  return p < 0 ? 'parallelism must be non-negative' : undefined;
}

function completionError(spec: ImagePullJobLike['spec']): string | undefined {
  const c = spec.completionPolicy ?? {};
  const timeout = spec.pullPolicy?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (c.type === 'Always' && c.activeDeadlineSeconds != null && timeout > c.activeDeadlineSeconds) return 'completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)';
  return completionTypeError(spec);
}

/** The completion policy's type rules, shared with ImageListPullJob (which checks no deadline against the timeout). */
export function completionTypeError(spec: ImagePullJobLike['spec']): string | undefined {
  const c = spec.completionPolicy ?? {};
  switch (c.type) {
    case 'Always':
      return undefined;
    case 'Never':
      if (c.activeDeadlineSeconds != null || c.ttlSecondsAfterFinished != null) return 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType';
      return undefined;
    default:
      return `unknown type of completionPolicy: ${c.type ?? ''}`;
  }
}

/** The first error OpenKruise would report for this (defaulted) job, or undefined. */
export function validateImagePullJob(job: ImagePullJobLike): string | undefined {
  const spec = job.spec;
  const selector = selectorError(spec);
  if (selector) return selector;
  const image = spec.image ?? '';
  if (!image) return 'image can not be empty';
  const ref = imageRefError(image);
  if (ref) return `invalid image ${image}: ${ref}`;
  return parallelismError(spec.parallelism) ?? completionError(spec);
}

/** UPDATE: pullSecrets cannot change (OpenKruise denies with this message). */
export function pullSecretsChanged(next: ImagePullJobLike, old: ImagePullJobLike): boolean {
  return JSON.stringify(next.spec.pullSecrets ?? null) !== JSON.stringify(old.spec.pullSecrets ?? null);
}
