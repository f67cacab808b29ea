// BroadcastJob defaults as OpenKruise's mutating webhook sets them (SetDefaultsBroadcastJob):
// completionPolicy.type Always, parallelism 2147483647 (no limit), failurePolicy.type FailFast,
// and the pod template's defaults (src/workload/template-defaults.ts) on CREATE and on an UPDATE
// that changes the template, so a stored job is never rewritten by a newer defaulting alone.
// An admitted object is untrusted: a field of the wrong type is left for the schema check. Pure.
import { isRecord } from '../kube/validation.js';
import { defaultedTemplateSpec } from '../workload/template-defaults.js';
import type { BroadcastJobLike } from './types.js';

/** int32 max: OpenKruise's "no limit" parallelism. */
export const UNLIMITED_PARALLELISM = 2147483647;

export function defaultedBroadcastJob<T extends BroadcastJobLike>(input: T, opts: { template?: boolean } = {}): T {
  const job = structuredClone(input);
  const spec = job.spec;
  if (opts.template && isRecord(spec.template) && (spec.template.spec === undefined || isRecord(spec.template.spec))) {
    spec.template.spec = defaultedTemplateSpec(spec.template.spec);
  }
  const completion = isRecord(spec.completionPolicy) ? spec.completionPolicy : spec.completionPolicy == null ? (spec.completionPolicy = {}) : undefined;
  if (completion && !completion.type) completion.type = 'Always';
  if (spec.parallelism === undefined || spec.parallelism === null) spec.parallelism = UNLIMITED_PARALLELISM;
  const failure = isRecord(spec.failurePolicy) ? spec.failurePolicy : spec.failurePolicy == null ? (spec.failurePolicy = {}) : undefined;
  if (failure && !failure.type) failure.type = 'FailFast';
  return job;
}

/** Keys sorted, so two templates compare as Go's reflect.DeepEqual would compare the decoded structs. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (isRecord(v)) return Object.fromEntries(Object.keys(v).sort().filter((k) => v[k] !== undefined && v[k] !== null).map((k) => [k, sorted(v[k])]));
  return v;
}

export const sameTemplate = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a ?? {})) === JSON.stringify(sorted(b ?? {}));
