// AdmissionReview in: the raw request body → a validated AdmissionInput, or a precise error.
// The API server sends admission.k8s.io/v1 or v1beta1 (same request shape). Every check names
// the field so a misbehaving caller can be told what is wrong; when the uid is recoverable the
// caller answers with a well-formed AdmissionReview error instead of a bare HTTP 400.
import type { AdmissionInput, GroupVersionKind, GroupVersionResource, Operation } from './types.js';

export const REVIEW_V1 = 'admission.k8s.io/v1';
export const REVIEW_V1BETA1 = 'admission.k8s.io/v1beta1';
export type ReviewVersion = typeof REVIEW_V1 | typeof REVIEW_V1BETA1;

/** The API server's request body limit (3 MiB); bigger bodies are refused unparsed. */
export const MAX_REVIEW_BYTES = 3 * 1024 * 1024;

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

export type ParsedReview =
  | { ok: true; input: AdmissionInput; apiVersion: ReviewVersion }
  | {
      ok: false;
      /** The request's uid when one could be recovered; answer with an AdmissionReview then. */
      uid?: string;
      /** The version to answer in: the request's when it was a supported one, else v1. */
      apiVersion: ReviewVersion;
      message: string;
      /** The body exceeded MAX_REVIEW_BYTES (HTTP 413); nothing was parsed. */
      tooLarge?: boolean;
    };

type Json = Record<string, unknown>;

export function parseReview(body: string, clusterId: string): ParsedReview {
  if (exceedsUtf8Bytes(body, MAX_REVIEW_BYTES)) {
    return {
      ok: false,
      apiVersion: REVIEW_V1,
      tooLarge: true,
      message: `request entity too large: the body exceeds the ${MAX_REVIEW_BYTES}-byte limit`,
    };
  }
  let review: unknown;
  try {
    review = JSON.parse(body);
  } catch (e) {
    return { ok: false, apiVersion: REVIEW_V1, message: `body: invalid JSON: ${(e as Error).message}` };
  }
  if (!isObject(review)) return { ok: false, apiVersion: REVIEW_V1, message: `body: must be a JSON object, got ${describe(review)}` };

  const apiVersion = review.apiVersion === REVIEW_V1BETA1 ? REVIEW_V1BETA1 : REVIEW_V1;
  const request = review.request;
  if (request === undefined || request === null) return { ok: false, apiVersion, message: 'request: required' };
  if (!isObject(request)) return { ok: false, apiVersion, message: `request: must be an object, got ${describe(request)}` };
  const uid = request.uid;
  if (typeof uid !== 'string' || uid === '') {
    return { ok: false, apiVersion, message: `request.uid: must be a non-empty string, got ${describe(uid)}` };
  }

  const errors: string[] = [];
  if (review.apiVersion !== REVIEW_V1 && review.apiVersion !== REVIEW_V1BETA1) {
    errors.push(`apiVersion: must be ${REVIEW_V1} or ${REVIEW_V1BETA1}, got ${describe(review.apiVersion)}`);
  }
  if (review.kind !== 'AdmissionReview') errors.push(`kind: must be AdmissionReview, got ${describe(review.kind)}`);
  const input = readRequest(request, uid, clusterId, errors);
  if (errors.length === 0) return { ok: true, apiVersion, input };
  // Several problems read like a Kubernetes field.ErrorList (../shared/SEMANTICS.md §1.2).
  return { ok: false, uid, apiVersion, message: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}

/** Reads the request's fields; each problem is pushed to `errors` (the result is then unused). */
function readRequest(r: Json, uid: string, clusterId: string, errors: string[]): AdmissionInput {
  const operation = r.operation;
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation as Operation)) {
    errors.push(`request.operation: must be one of ${OPERATIONS.join(', ')}, got ${describe(operation)}`);
  }
  const input: AdmissionInput = {
    uid,
    kind: readTriple(r.kind, 'request.kind', ['group', 'version', 'kind'], errors) as GroupVersionKind,
    resource: readTriple(r.resource, 'request.resource', ['group', 'version', 'resource'], errors) as GroupVersionResource,
    namespace: optionalString(r.namespace, 'request.namespace', errors) ?? '',
    operation: operation as Operation,
    userInfo: readUserInfo(r.userInfo, errors),
    dryRun: readDryRun(r.dryRun, errors),
    clusterId,
  };
  const subResource = optionalString(r.subResource, 'request.subResource', errors);
  if (subResource !== undefined) input.subResource = subResource;
  const name = optionalString(r.name, 'request.name', errors);
  if (name !== undefined) input.name = name;
  const object = optionalObject(r.object, 'request.object', errors);
  if (object !== undefined) input.object = object;
  const oldObject = optionalObject(r.oldObject, 'request.oldObject', errors);
  if (oldObject !== undefined) input.oldObject = oldObject;
  if (r.options !== undefined && r.options !== null) input.options = r.options;
  return input;
}

function readTriple(v: unknown, path: string, fields: string[], errors: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) {
    errors.push(`${path}: must be an object {${fields.join(', ')}}, got ${describe(v)}`);
    return out;
  }
  for (const f of fields) {
    const s = v[f];
    if (typeof s === 'string') out[f] = s;
    else errors.push(`${path}.${f}: must be a string, got ${describe(s)}`);
  }
  return out;
}

function readUserInfo(v: unknown, errors: string[]): AdmissionInput['userInfo'] {
  const out: AdmissionInput['userInfo'] = {};
  if (v === undefined || v === null) return out;
  if (!isObject(v)) {
    errors.push(`request.userInfo: must be an object, got ${describe(v)}`);
    return out;
  }
  const username = optionalString(v.username, 'request.userInfo.username', errors);
  if (username !== undefined) out.username = username;
  const uid = optionalString(v.uid, 'request.userInfo.uid', errors);
  if (uid !== undefined) out.uid = uid;
  if (v.groups !== undefined && v.groups !== null) out.groups = stringArray(v.groups, 'request.userInfo.groups', errors);
  if (v.extra === undefined || v.extra === null) return out;
  if (!isObject(v.extra)) {
    errors.push(`request.userInfo.extra: must be an object, got ${describe(v.extra)}`);
    return out;
  }
  const extra: Record<string, string[]> = {};
  for (const [k, vals] of Object.entries(v.extra)) extra[k] = stringArray(vals, `request.userInfo.extra[${JSON.stringify(k)}]`, errors);
  out.extra = extra;
  return out;
}

function readDryRun(v: unknown, errors: string[]): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  errors.push(`request.dryRun: must be a boolean, got ${describe(v)}`);
  return false;
}

function optionalString(v: unknown, path: string, errors: string[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  errors.push(`${path}: must be a string, got ${describe(v)}`);
  return undefined;
}

function optionalObject(v: unknown, path: string, errors: string[]): Json | undefined {
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return v;
  errors.push(`${path}: must be an object or null, got ${describe(v)}`);
  return undefined;
}

function stringArray(v: unknown, path: string, errors: string[]): string[] {
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
  errors.push(`${path}: must be an array of strings, got ${describe(v)}`);
  return [];
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short, safe description of an unexpected value for error messages. */
function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v.length > 64 ? `a ${v.length}-character string` : JSON.stringify(v);
  return `${typeof v} ${String(v)}`;
}

/**
 * Whether `s` encodes to more than `limit` UTF-8 bytes, without encoding it. UTF-16 code units
 * never outnumber UTF-8 bytes and each costs at most 3, so most bodies are decided without a scan.
 */
function exceedsUtf8Bytes(s: string, limit: number): boolean {
  if (s.length > limit) return true;
  if (s.length * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one 4-byte code point
      i++;
    } else bytes += 3;
    if (bytes > limit) return true;
  }
  return false;
}
