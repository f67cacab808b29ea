// AdmissionReview out, in the version the request came in. Conventions follow
// controller-runtime (../shared/SEMANTICS.md §1.2): a denial is allowed=false with status.code and
// status.message; a plain policy denial is 403 Forbidden; an unchanged object carries no patch.
import { encodePatch, type PatchOperation } from './patch.js';
import type { ReviewVersion } from './review.js';

/** What the framework decided for one request, before it is put on the wire. */
export type Outcome =
  | { allowed: true; patch?: PatchOperation[]; warnings?: string[] }
  | { allowed: false; code: number; message: string; reason?: string; warnings?: string[] };

export type AdmissionStatus = { code: number; message: string; reason?: string; status: 'Failure' };

export type AdmissionResponse = {
  uid: string;
  allowed: boolean;
  status?: AdmissionStatus;
  patchType?: 'JSONPatch';
  /** base64 of the RFC 6902 patch's UTF-8 JSON. */
  patch?: string;
  warnings?: string[];
};

export type AdmissionReviewResponse = {
  apiVersion: ReviewVersion;
  kind: 'AdmissionReview';
  response: AdmissionResponse;
};

/** metav1.StatusReason for the codes admission answers use; undefined for others. */
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export function reasonFor(code: number): string | undefined {
  return REASONS[code];
}

export function admissionReview(apiVersion: ReviewVersion, uid: string, outcome: Outcome): AdmissionReviewResponse {
  const response: AdmissionResponse = { uid, allowed: outcome.allowed };
  if (outcome.allowed) {
    if (outcome.patch?.length) {
      response.patchType = 'JSONPatch';
      response.patch = encodePatch(outcome.patch);
    }
  } else {
    const status: AdmissionStatus = { code: outcome.code, message: outcome.message, status: 'Failure' };
    const reason = outcome.reason || reasonFor(outcome.code);
    if (reason) status.reason = reason;
    response.status = status;
  }
  if (outcome.warnings?.length) response.warnings = outcome.warnings;
  return { apiVersion, kind: 'AdmissionReview', response };
}

/**
 * The review as JSON text. Same as JSON.stringify, except that the patch (base64, so nothing to
 * escape: encodePatch made it) is appended rather than scanned again: it is most of the answer when sidecars are
 * injected, tens of KB.
 */
export function reviewText(review: AdmissionReviewResponse): string {
  const { patch, ...response } = review.response;
  const text = JSON.stringify({ ...review, response });
  if (patch === undefined) return text;
  // `response` is the review's last member, so the text ends with the two closing braces.
  return `${text.slice(0, -2)},"patch":"${patch}"}}`;
}
