import { describe, expect, it } from 'vitest';
import { defaultedImageListPullJob } from './defaults.js';
import type { ImageListPullJobLike } from './types.js';
import { validateImageListPullJob } from './validate.js';

const job = (spec: Partial<ImageListPullJobLike['spec']> = {}): ImageListPullJobLike =>
  defaultedImageListPullJob({ metadata: { name: 'j', namespace: 'ns' }, spec: { images: ['nginx:1.25', 'busybox:1.36'], ...spec } });

describe('validateImageListPullJob', () => {
  it.each([
    ['valid', job(), undefined],
    ['names and labels', job({ selector: { names: ['a'], matchLabels: { a: 'b' } } }), 'can not set both names and labelSelector in this spec.selector'],
    ['duplicated names', job({ selector: { names: ['a', 'a'] } }), 'duplicated name in selector names'],
    ['selector and podSelector', job({ selector: { names: ['a'] }, podSelector: { matchLabels: { a: 'b' } } }), 'can not set both selector and podSelector'],
    ['no images', job({ images: [] }), 'image can not be empty'],
    ['duplicated images', job({ images: ['a:1', 'b:1', 'a:1'] }), 'images cannot have duplicate values'],
    ['256 images', job({ images: Array.from({ length: 256 }, (_, i) => `app:${i}`) }), 'the maximum number of images cannot > 255'],
    ['an uppercase image', job({ images: ['ok:1', 'Nginx'] }), 'invalid image Nginx: invalid reference format: repository name (library/Nginx) must be lowercase'],
    // Unlike an ImagePullJob: neither parallelism nor the deadline against the timeout is checked.
    ['a percentage', job({ parallelism: '10%' }), undefined],
    ['a deadline under the timeout', job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 5 } }), undefined],
    ['Never with a TTL', job({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 5 } }), 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType'],
    ['an unknown type', job({ completionPolicy: { type: 'Sometimes' } }), 'unknown type of completionPolicy: Sometimes'],
  ])('%s', (_name, j, want) => {
    expect(validateImageListPullJob(j)).toBe(want);
  });
});

describe('defaultedImageListPullJob', () => {
  it("sets OpenKruise's completionPolicy and pullPolicy, not imagePullPolicy", () => {
    const spec = job().spec;
    expect(spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
    expect(spec.imagePullPolicy).toBeUndefined();
    expect(job({ pullPolicy: { backoffLimit: 0 } }).spec.pullPolicy).toEqual({ timeoutSeconds: 600, backoffLimit: 0 });
  });
});
