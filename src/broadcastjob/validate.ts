// Validation of a BroadcastJob, with OpenKruise's rules, field paths and messages
// (pkg/webhook/broadcastjob/validating): the name (letters, digits and '-', at most 63), the
// deadline and TTL only with completionPolicy Always, restartPolicy Never or OnFailure, the job's
// own pod labels not preset, and the template as a pod. The object is defaulted first, as
// OpenKruise's mutating webhook does before its validating one (so an unset restartPolicy is
// Always, and refused). Pure.
import type { FieldError } from '../kube/field-errors.js';
import { defaultPodSpecParts } from '../kube/pod-defaults.js';
import { validatePodParts } from '../kube/pod-validation.js';
import { goStringMap, isRecord, maxLenError, regexError, validateAnnotations, validateLabels } from '../kube/validation.js';
import { defaultedBroadcastJob } from './defaults.js';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL, type BroadcastJobLike } from './types.js';

const NAME_FORMAT = '^[a-zA-Z0-9\\-]+$';
const NAME_MESSAGE = "BroadcastJob name must consist of alphanumeric characters or '-'";
const NAME_MAX = 63;

function validateName(name: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!new RegExp(NAME_FORMAT).test(name)) errs.push({ field: 'metadata.name', type: 'Invalid', value: name, detail: regexError(NAME_MESSAGE, NAME_FORMAT, 'example-com') });
  if (name.length > NAME_MAX) errs.push({ field: 'metadata.name', type: 'Invalid', value: name, detail: maxLenError(NAME_MAX) });
  return errs;
}

function validateMeta(meta: BroadcastJobLike['metadata']): FieldError[] {
  const name = meta?.name ?? '';
  const generateName = typeof meta?.generateName === 'string' ? meta.generateName : '';
  if (!name && !generateName) return [{ field: 'metadata.name', type: 'Required', detail: 'name or generateName is required' }];
  return [...(name ? validateName(name) : []), ...validateLabels(meta?.labels, 'metadata.labels'), ...validateAnnotations(meta?.annotations, 'metadata.annotations')];
}

function validateCompletionPolicy(spec: BroadcastJobLike['spec']): FieldError[] {
  const policy = spec.completionPolicy ?? {};
  if (policy.type !== 'Never') return [];
  const at = 'spec.completionPolicy';
  const errs: FieldError[] = [];
  if (policy.ttlSecondsAfterFinished !== undefined && policy.ttlSecondsAfterFinished !== null) {
    errs.push({ field: `${at}.ttlSecondsAfterFinished`, type: 'Invalid', value: policy.ttlSecondsAfterFinished, detail: 'ttlSecondsAfterFinished can just work with Always CompletionPolicyType' });
  }
  if (policy.activeDeadlineSeconds !== undefined && policy.activeDeadlineSeconds !== null) {
    errs.push({ field: `${at}.activeDeadlineSeconds`, type: 'Invalid', value: policy.activeDeadlineSeconds, detail: 'activeDeadlineSeconds can just work with Always CompletionPolicyType' });
  }
  return errs;
}

function validateTemplate(spec: BroadcastJobLike['spec']): FieldError[] {
  const errs: FieldError[] = [];
  const template = isRecord(spec.template) ? spec.template : {};
  const podSpec = isRecord(template.spec) ? template.spec : {};
  const restart = podSpec.restartPolicy;
  if (restart !== 'OnFailure' && restart !== 'Never') {
    errs.push({ field: 'spec.template.spec.restartPolicy', type: 'Invalid', value: restart ?? '', detail: 'pod restartPolicy can only be Never or OnFailure' });
  }
  const meta = isRecord(template.metadata) ? template.metadata : {};
  const labels = isRecord(meta.labels) ? (meta.labels as Record<string, string>) : undefined;
  if (labels && (labels[JOB_NAME_LABEL] || labels[CONTROLLER_UID_LABEL])) {
    errs.push({ field: 'spec.template.metadata.labels', type: 'Invalid', goValue: goStringMap(labels), detail: `"${JOB_NAME_LABEL}" and "${CONTROLLER_UID_LABEL}" are not allowed to preset in pod labels` });
  }
  errs.push(...validateLabels(meta.labels, 'spec.template.metadata.labels'), ...validateAnnotations(meta.annotations, 'spec.template.metadata.annotations'));
  const parts = defaultPodSpecParts(structuredClone(podSpec));
  errs.push(...validatePodParts({ containers: parts.containers, initContainers: parts.initContainers, volumes: parts.volumes }).map((e) => ({ ...e, field: e.field.replace(/^spec\./, 'spec.template.spec.') })));
  return errs;
}

/** The errors of a BroadcastJob being created or updated (OpenKruise checks both alike). */
export function validateBroadcastJob(input: BroadcastJobLike): FieldError[] {
  const job = defaultedBroadcastJob(input, { template: true });
  return [...validateMeta(job.metadata), ...validateCompletionPolicy(job.spec), ...validateTemplate(job.spec)];
}
