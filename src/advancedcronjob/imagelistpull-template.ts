// A v1beta1 imageListPullJobTemplate as OpenKruise 1.9's AdvancedCronJob webhooks treat it:
// defaults (completionPolicy Always with a 600 s pull timeout, 3 retries and IfNotPresent, and
// concurrencyPolicy Replace, since concurrent pulls of the same images are useless) and the
// validation of validateImageListPullJobTemplateSpec, with its field paths and messages (first
// error wins). Pure.
import type { FieldError } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { imageRefError } from '../imagepulljob/image-ref.js';
import { selectorError } from '../imagepulljob/validate.js';

const PATH = 'spec.template.imageListPullJobTemplate.spec';
const MAX_IMAGES = 255;
/** OpenKruise's MaxActiveDeadLineSeconds for a template's completionPolicy (one day). */
const MAX_ACTIVE_DEADLINE_SECONDS = 3600 * 24;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isRecord(v) ? v : {});

/** A Go []string as field.Invalid prints it (%#v). */
const goStrings = (v: unknown) => `[]string{${(Array.isArray(v) ? v : []).map((s) => JSON.stringify(String(s))).join(', ')}}`;

/** Sets the template's defaults in place (SetDefaultsAdvancedCronJob, v1beta1). */
export function defaultImageListPullJobTemplate(template: unknown): void {
  if (!isRecord(template)) return;
  const spec = isRecord(template.spec) ? template.spec : (template.spec = {});
  const completion = isRecord(spec.completionPolicy) ? spec.completionPolicy : (spec.completionPolicy = {});
  if (completion.type) return;
  completion.type = 'Always';
  const pull = isRecord(spec.pullPolicy) ? spec.pullPolicy : (spec.pullPolicy = {});
  pull.timeoutSeconds ??= 600;
  pull.backoffLimit ??= 3;
  if (!spec.imagePullPolicy) spec.imagePullPolicy = 'IfNotPresent';
}

const SELECTOR_PATHS: [RegExp, string][] = [
  [/^can not set both names/, `${PATH}.selector`],
  [/^invalid selector/, `${PATH}.selector.labelSelector`],
  [/^duplicated name/, `${PATH}.selector.names`],
  [/^can not set both selector and podSelector/, PATH],
  [/^invalid podSelector/, `${PATH}.podSelector.labelSelector`],
];

function selectorFieldError(spec: Obj): FieldError | undefined {
  const message = selectorError(spec);
  if (!message) return undefined;
  const field = SELECTOR_PATHS.find(([re]) => re.test(message))?.[1] ?? PATH;
  // OpenKruise reports a bad podSelector with the selector's wording. Go prints a selector struct
  // with %#v, which is not reproduced: its value reads as JSON here.
  const value = field.endsWith('names') ? { goValue: goStrings(obj(spec.selector).names) } : { value: field === PATH ? spec : field.includes('podSelector') ? spec.podSelector : spec.selector };
  return { field, type: 'Invalid', ...value, detail: message.replace(/^invalid podSelector/, 'invalid selector') };
}

function imagesFieldError(images: unknown): FieldError | undefined {
  const at = (detail: string): FieldError => ({ field: `${PATH}.images`, type: 'Invalid', goValue: goStrings(images), detail });
  const list = Array.isArray(images) ? images.map(String) : [];
  if (list.length === 0) return at('image can not be empty');
  if (list.length > MAX_IMAGES) return at('the maximum number of images cannot > 255');
  if (new Set(list).size !== list.length) return at('images cannot have duplicate values');
  for (const image of list) {
    const err = imageRefError(image);
    if (err) return at(`invalid image ${image}: ${err}`);
  }
  return undefined;
}

function completionFieldError(spec: Obj): FieldError | undefined {
  const c = obj(spec.completionPolicy);
  const type = typeof c.type === 'string' ? c.type : '';
  if (type !== 'Always') return { field: `${PATH}.completionPolicy.type`, type: 'Invalid', value: type, detail: `completionPolicy should be Always, but current value is: ${type}` };
  const deadline = typeof c.activeDeadlineSeconds === 'number' ? c.activeDeadlineSeconds : undefined;
  const timeout = obj(spec.pullPolicy).timeoutSeconds;
  if (deadline !== undefined && deadline > MAX_ACTIVE_DEADLINE_SECONDS) {
    return { field: `${PATH}.completionPolicy.activeDeadlineSeconds`, type: 'Invalid', value: deadline, detail: `activeDeadlineSeconds must be less than ${MAX_ACTIVE_DEADLINE_SECONDS}, current value is: ${deadline}` };
  }
  if (deadline !== undefined && typeof timeout === 'number' && timeout > deadline) {
    return { field: `${PATH}.completionPolicy.activeDeadlineSeconds`, type: 'Invalid', value: deadline, detail: `completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(${timeout})` };
  }
  if (c.ttlSecondsAfterFinished !== undefined && c.ttlSecondsAfterFinished !== null) {
    return { field: `${PATH}.completionPolicy.ttlSecondsAfterFinished`, type: 'Invalid', value: c.ttlSecondsAfterFinished, detail: 'ttlSecondsAfterFinished is not supported in advancedCronJob' };
  }
  return undefined;
}

/** The errors OpenKruise reports for an imageListPullJobTemplate: the concurrency policy, then the template's first. */
export function validateImageListPullJobTemplate(template: unknown, concurrencyPolicy: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const policy = typeof concurrencyPolicy === 'string' ? concurrencyPolicy : '';
  if (policy !== 'Replace' && policy !== 'Forbid') {
    // spec.spec.concurrencyPolicy: OpenKruise's path, as it writes it.
    errs.push({ field: 'spec.spec.concurrencyPolicy', type: 'Invalid', value: policy, detail: `concurrencyPolicy should be Replace or Forbid, but current value is: ${policy}` });
  }
  const spec = obj(obj(template).spec);
  const first = selectorFieldError(spec) ?? imagesFieldError(spec.images) ?? completionFieldError(spec);
  return first ? [...errs, first] : errs;
}
