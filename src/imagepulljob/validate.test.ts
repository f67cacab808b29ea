import { describe, expect, it } from 'vitest';
import { defaultedImagePullJob } from './defaults.js';
import { imageRefError } from './image-ref.js';
import type { ImagePullJobLike } from './types.js';
import { pullSecretsChanged, validateImagePullJob } from './validate.js';

const job = (spec: Partial<ImagePullJobLike['spec']> = {}): ImagePullJobLike => defaultedImagePullJob({ metadata: { name: 'j', namespace: 'ns' }, spec: { image: 'nginx:1.25', ...spec } });

describe('validateImagePullJob', () => {
  it.each([
    ['valid', job(), undefined],
    ['names and labels', job({ selector: { names: ['a'], matchLabels: { a: 'b' } } }), 'can not set both names and labelSelector in this spec.selector'],
    ['duplicated names', job({ selector: { names: ['a', 'a'] } }), 'duplicated name in selector names'],
    ['selector and podSelector', job({ selector: { names: ['a'] }, podSelector: { matchLabels: { a: 'b' } } }), 'can not set both selector and podSelector'],
    ['a bad podSelector', job({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' }] } }), 'invalid podSelector: the operator must be In, NotIn, Exists or DoesNotExist'],
    ['no image', job({ image: '' }), 'image can not be empty'],
    ['an uppercase image', job({ image: 'Nginx' }), 'invalid image Nginx: invalid reference format: repository name (library/Nginx) must be lowercase'],
    ['a percentage', job({ parallelism: '10%' }), 'parallelism does not support percentage value'],
    ['a numeric string', job({ parallelism: '3' }), undefined],
    ['a text', job({ parallelism: 'x' }), 'parallelism must be a valid integer: strconv.ParseInt: parsing "x": invalid syntax'],
    ['negative', job({ parallelism: -2 }), 'parallelism must be non-negative'],
    ['deadline under the timeout', job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 599 } }), 'completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)'],
    ['deadline at the timeout', job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 }, pullPolicy: { timeoutSeconds: 60 } }), undefined],
    ['Never with a deadline', job({ completionPolicy: { type: 'Never', activeDeadlineSeconds: 700 } }), 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType'],
    ['an unknown type', job({ completionPolicy: { type: 'Sometimes' } }), 'unknown type of completionPolicy: Sometimes'],
  ])('%s', (_name, j, want) => {
    expect(validateImagePullJob(j)).toBe(want);
  });

  it('pullSecrets are compared as given', () => {
    expect(pullSecretsChanged(job({ pullSecrets: ['a'] }), job({ pullSecrets: ['a'] }))).toBe(false);
    expect(pullSecretsChanged(job({ pullSecrets: ['a'] }), job({ pullSecrets: ['b'] }))).toBe(true);
  });
});

describe('imageRefError', () => {
  it.each([
    ['nginx', undefined],
    ['registry.example:5000/team/app:v1.2', undefined],
    [`app@sha256:${'a'.repeat(64)}`, undefined],
    ['app:', 'invalid reference format'],
    ['a b', 'invalid reference format'],
  ])('%s', (ref, want) => expect(imageRefError(ref)).toBe(want));
});

describe('defaultedImagePullJob', () => {
  it("OpenKruise's defaults, leaving set fields alone", () => {
    expect(job().spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' });
    expect(job({ completionPolicy: { type: 'Never' }, pullPolicy: { backoffLimit: 0 }, imagePullPolicy: 'Always' }).spec).toMatchObject({ completionPolicy: { type: 'Never' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 0 }, imagePullPolicy: 'Always' });
  });
});
