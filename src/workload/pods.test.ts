import { describe, expect, it } from 'vitest';
import { isContainerImageEqual, isImageDigest, parseImage } from './pods.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const OTHER = `sha256:${'b'.repeat(64)}`;

describe('image references', () => {
  it.each<[string, ReturnType<typeof parseImage>]>([
    ['nginx', { repo: 'docker.io/library/nginx', tag: '', digest: '' }],
    ['nginx:1.25', { repo: 'docker.io/library/nginx', tag: '1.25', digest: '' }],
    ['team/app:v1', { repo: 'docker.io/team/app', tag: 'v1', digest: '' }],
    ['index.docker.io/library/nginx:1', { repo: 'docker.io/library/nginx', tag: '1', digest: '' }],
    ['registry:5000/app:v1', { repo: 'registry:5000/app', tag: 'v1', digest: '' }],
    [`busybox@${DIGEST}`, { repo: 'docker.io/library/busybox', tag: '', digest: DIGEST }],
    ['busybox@sha256:short', undefined],
    ['', undefined],
  ])('%j', (image, want) => expect(parseImage(image)).toEqual(want));

  it.each<[string, string, boolean]>([
    [`busybox@${DIGEST}`, `docker.io/library/busybox@${DIGEST}`, true],
    [`busybox@${DIGEST}`, `busybox@${OTHER}`, false],
    ['nginx:1', 'docker.io/library/nginx:1', true],
    ['nginx:1', 'nginx:2', false],
  ])('%s equals %s: %s', (a, b, want) => expect(isContainerImageEqual(a, b)).toBe(want));

  it('digest images', () => {
    expect([isImageDigest(`busybox@${DIGEST}`), isImageDigest('busybox:1')]).toEqual([true, false]);
  });
});
