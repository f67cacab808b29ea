// The ConversionReview (apiextensions.k8s.io/v1) the API server sends to a CRD's conversion
// webhook, and our answer. Pure. Any bad input is answered with `result.status: Failure` and a
// message saying why; the API server then fails the request with that message.
import { convertObject, ConversionError } from './convert.js';
import { isPlainObject } from './objects.js';

const API_VERSION = 'apiextensions.k8s.io/v1';
/** A list read converts every object in one review: allow far more than an admission review. */
export const MAX_CONVERSION_REVIEW_BYTES = 32 * 1024 * 1024;

export type ConversionReviewResponse = {
  apiVersion: typeof API_VERSION;
  kind: 'ConversionReview';
  response: {
    uid: string;
    convertedObjects: unknown[];
    result: { status: 'Success' } | { status: 'Failure'; message: string };
  };
};

/** Answers a ConversionReview given as its JSON text. */
export function answerConversionReview(body: string): ConversionReviewResponse {
  let review: unknown;
  try {
    review = JSON.parse(body);
  } catch (e) {
    return failure('', `request body is not JSON: ${(e as Error).message}`);
  }
  const request = isPlainObject(review) ? review.request : undefined;
  const uid = isPlainObject(request) && typeof request.uid === 'string' ? request.uid : '';
  if (!isPlainObject(review) || review.apiVersion !== API_VERSION || review.kind !== 'ConversionReview') {
    return failure(uid, `expected a ConversionReview of ${API_VERSION} (set conversionReviewVersions: [v1] on the CRD)`);
  }
  if (!isPlainObject(request) || !uid) return failure(uid, 'ConversionReview has no request.uid');
  if (typeof request.desiredAPIVersion !== 'string') return failure(uid, 'ConversionReview has no request.desiredAPIVersion');
  if (!Array.isArray(request.objects)) return failure(uid, 'ConversionReview has no request.objects list');
  const desired = request.desiredAPIVersion;
  try {
    const convertedObjects = request.objects.map((o, i) => {
      try {
        return convertObject(o, desired);
      } catch (e) {
        if (e instanceof ConversionError) throw new ConversionError(`objects[${i}]: ${e.message}`);
        throw e;
      }
    });
    return { apiVersion: API_VERSION, kind: 'ConversionReview', response: { uid, convertedObjects, result: { status: 'Success' } } };
  } catch (e) {
    // Never a crash: an unexpected error is a failed conversion, with its message.
    return failure(uid, e instanceof ConversionError ? e.message : `conversion failed: ${(e as Error)?.message ?? String(e)}`);
  }
}

function failure(uid: string, message: string): ConversionReviewResponse {
  return { apiVersion: API_VERSION, kind: 'ConversionReview', response: { uid, convertedObjects: [], result: { status: 'Failure', message } } };
}
