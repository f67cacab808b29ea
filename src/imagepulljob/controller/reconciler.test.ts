import { describe, expect, it } from 'vitest';
import { parsePullHelper } from './reconciler.js';

describe('parsePullHelper ($KS_IMAGE_PULL_HELPER)', () => {
  it.each([
    [undefined, { image: 'busybox:1.36.1-musl', binary: '/bin/true' }],
    ['', { image: 'busybox:1.36.1-musl', binary: '/bin/true' }],
    ['mirror.local/busybox:1.36.1-musl', { image: 'mirror.local/busybox:1.36.1-musl', binary: '/bin/true' }],
    ['mirror.local/tools:1, /usr/bin/true', { image: 'mirror.local/tools:1', binary: '/usr/bin/true' }],
  ])('%j', (text, want) => expect(parsePullHelper(text)).toEqual(want));
});
