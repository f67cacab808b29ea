import { describe, expect, it } from 'vitest';
import { MAX_REVIEW_BYTES, parseReview } from './review.js';

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: 'uid-1',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    name: 'web-0',
    namespace: 'default',
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['dev'], extra: { scopes: ['a'] } },
    object: { metadata: { name: 'web-0' } },
    oldObject: null,
    dryRun: false,
    ...overrides,
  };
}

function review(req: unknown = request(), top: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: req, ...top });
}

describe('parseReview: valid reviews', () => {
  it('reads every field of a v1 review', () => {
    const got = parseReview(review(request({ subResource: 'status', options: { kind: 'CreateOptions' } })), 'prod');
    expect(got).toEqual({
      ok: true,
      apiVersion: 'admission.k8s.io/v1',
      input: {
        uid: 'uid-1',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        subResource: 'status',
        name: 'web-0',
        namespace: 'default',
        operation: 'CREATE',
        userInfo: { username: 'alice', groups: ['dev'], extra: { scopes: ['a'] } },
        object: { metadata: { name: 'web-0' } },
        dryRun: false,
        options: { kind: 'CreateOptions' },
        clusterId: 'prod',
      },
    });
  });

  it('keeps v1beta1 as the answer version', () => {
    const got = parseReview(review(request(), { apiVersion: 'admission.k8s.io/v1beta1' }), 'c');
    expect(got.ok && got.apiVersion).toBe('admission.k8s.io/v1beta1');
  });

  it('defaults what may be absent', () => {
    const req = request();
    for (const k of ['namespace', 'userInfo', 'object', 'oldObject', 'dryRun', 'name']) delete req[k];
    const got = parseReview(review(req), 'c');
    if (!got.ok) throw new Error(got.message);
    expect(got.input).toMatchObject({ namespace: '', userInfo: {}, dryRun: false });
    expect(got.input).not.toHaveProperty('object');
    expect(got.input).not.toHaveProperty('oldObject');
    expect(got.input).not.toHaveProperty('name');
  });

  it.each(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'])('accepts operation %s', (operation) => {
    expect(parseReview(review(request({ operation })), 'c').ok).toBe(true);
  });

  it('passes dryRun through', () => {
    const got = parseReview(review(request({ dryRun: true })), 'c');
    expect(got.ok && got.input.dryRun).toBe(true);
  });
});

describe('parseReview: invalid reviews', () => {
  // [name, body, recovered uid, message]
  it.each<[string, string, string | undefined, string | RegExp]>([
    ['not JSON', '{"apiVersion":', undefined, /^body: invalid JSON: /],
    ['empty body', '', undefined, /^body: invalid JSON: /],
    ['a JSON array', '[1,2]', undefined, 'body: must be a JSON object, got an array'],
    ['a JSON string', '"x"', undefined, 'body: must be a JSON object, got "x"'],
    ['no request', JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }), undefined, 'request: required'],
    ['request is a number', review(7), undefined, 'request: must be an object, got number 7'],
    ['request is an array', review([]), undefined, 'request: must be an object, got an array'],
    ['no uid', review(request({ uid: undefined })), undefined, 'request.uid: must be a non-empty string, got nothing'],
    ['empty uid', review(request({ uid: '' })), undefined, 'request.uid: must be a non-empty string, got ""'],
    ['numeric uid', review(request({ uid: 12 })), undefined, 'request.uid: must be a non-empty string, got number 12'],
    ['wrong apiVersion', review(request(), { apiVersion: 'admission.k8s.io/v2' }), 'uid-1', 'apiVersion: must be admission.k8s.io/v1 or admission.k8s.io/v1beta1, got "admission.k8s.io/v2"'],
    ['wrong kind', review(request(), { kind: 'Review' }), 'uid-1', 'kind: must be AdmissionReview, got "Review"'],
    ['bad operation', review(request({ operation: 'PATCH' })), 'uid-1', 'request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"'],
    ['lower-case operation', review(request({ operation: 'create' })), 'uid-1', 'request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "create"'],
    ['kind missing', review(request({ kind: undefined })), 'uid-1', 'request.kind: must be an object {group, version, kind}, got nothing'],
    ['kind.version a number', review(request({ kind: { group: '', version: 1, kind: 'Pod' } })), 'uid-1', 'request.kind.version: must be a string, got number 1'],
    ['resource.resource missing', review(request({ resource: { group: '', version: 'v1' } })), 'uid-1', 'request.resource.resource: must be a string, got nothing'],
    ['namespace a number', review(request({ namespace: 3 })), 'uid-1', 'request.namespace: must be a string, got number 3'],
    ['object an array', review(request({ object: [] })), 'uid-1', 'request.object: must be an object or null, got an array'],
    ['oldObject a string', review(request({ oldObject: 'x' })), 'uid-1', 'request.oldObject: must be an object or null, got "x"'],
    ['dryRun a string', review(request({ dryRun: 'true' })), 'uid-1', 'request.dryRun: must be a boolean, got "true"'],
    ['userInfo a string', review(request({ userInfo: 'alice' })), 'uid-1', 'request.userInfo: must be an object, got "alice"'],
    ['groups not strings', review(request({ userInfo: { groups: [1] } })), 'uid-1', 'request.userInfo.groups: must be an array of strings, got an array'],
    ['extra not arrays', review(request({ userInfo: { extra: { a: 'b' } } })), 'uid-1', 'request.userInfo.extra["a"]: must be an array of strings, got "b"'],
    ['subResource a boolean', review(request({ subResource: true })), 'uid-1', 'request.subResource: must be a string, got boolean true'],
    [
      'several problems, as a field error list',
      review(request({ operation: 'X', dryRun: 1 })),
      'uid-1',
      '[request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "X", request.dryRun: must be a boolean, got number 1]',
    ],
  ])('%s', (_name, body, uid, message) => {
    const got = parseReview(body, 'c');
    if (got.ok) throw new Error('expected an error');
    expect(got.uid).toBe(uid);
    if (typeof message === 'string') expect(got.message).toBe(message);
    else expect(got.message).toMatch(message);
  });

  it('answers a broken v1beta1 review in v1beta1', () => {
    const got = parseReview(review(request({ operation: 'X' }), { apiVersion: 'admission.k8s.io/v1beta1' }), 'c');
    expect(got).toMatchObject({ ok: false, uid: 'uid-1', apiVersion: 'admission.k8s.io/v1beta1' });
  });

  it('shortens huge values in messages', () => {
    const got = parseReview(review(request({ operation: 'x'.repeat(10_000) })), 'c');
    expect(!got.ok && got.message).toBe('request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got a 10000-character string');
  });
});

describe('parseReview: size limit', () => {
  const padded = (bytes: number, filler: string) => {
    const base = review(request({ object: { pad: '' } }));
    const room = bytes - new TextEncoder().encode(base).length;
    const unit = new TextEncoder().encode(filler).length;
    return base.replace('"pad":""', `"pad":"${filler.repeat(Math.floor(room / unit))}${'x'.repeat(room % unit)}"`);
  };

  it.each([
    ['ASCII at the limit', padded(MAX_REVIEW_BYTES, 'x'), true],
    ['ASCII one byte over', padded(MAX_REVIEW_BYTES + 1, 'x'), false],
    ['3-byte characters at the limit', padded(MAX_REVIEW_BYTES, '日'), true],
    ['3-byte characters one byte over', padded(MAX_REVIEW_BYTES + 1, '日'), false],
    ['4-byte characters at the limit', padded(MAX_REVIEW_BYTES, '🚀'), true],
    ['4-byte characters over', padded(MAX_REVIEW_BYTES + 4, '🚀'), false],
  ])('%s', (_name, body, fits) => {
    const got = parseReview(body, 'c');
    expect(got.ok).toBe(fits);
    if (!got.ok) {
      expect(got).toMatchObject({ tooLarge: true, message: expect.stringMatching(/^request entity too large/) });
      expect(got.uid).toBeUndefined();
    }
  });

  it('refuses an oversized body without parsing it', () => {
    const got = parseReview(`{${' '.repeat(MAX_REVIEW_BYTES)}`, 'c');
    expect(got).toMatchObject({ ok: false, tooLarge: true });
  });
});
