// Validation of an ImageListPullJob with OpenKruise's rules and messages (pkg/webhook/
// imagelistpulljob/validating): the ImagePullJob's selector rules, then a non-empty list of at
// most 255 distinct, parsable images, then the completion policy. Unlike an ImagePullJob, neither
// parallelism nor the deadline against the pull timeout is checked. First error wins. Pure.
import { isRecord } from '../kube/validation.js';
import { imageRefError } from '../imagepulljob/image-ref.js';
import { completionTypeError, selectorError } from '../imagepulljob/validate.js';
import { MAX_IMAGES, type ImageListPullJobLike } from './types.js';

function imagesError(images: unknown): string | undefined {
  if (!Array.isArray(images) || images.length === 0) return 'image can not be empty';
  if (new Set(images).size !== images.length) return 'images cannot have duplicate values';
  if (images.length > MAX_IMAGES) return 'the maximum number of images cannot > 255';
  for (const image of images) {
    const err = typeof image === 'string' ? imageRefError(image) : 'invalid reference format';
    if (err) return `invalid image ${String(image)}: ${err}`;
  }
  return undefined;
}

/** The first error OpenKruise would report for this (defaulted) job, or undefined. */
export function validateImageListPullJob(job: ImageListPullJobLike): string | undefined {
  return selectorError(job.spec) ?? imagesError(job.spec.images) ?? completionTypeError(job.spec);
}
