import { describe, expect, it } from 'vitest';
import { isPodStateConsistent } from './pod-state.js';
import { injectedPod, sidecar, sidecarSet } from './test-builders.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const OTHER = `sha256:${'b'.repeat(64)}`;

describe('isPodStateConsistent with digest images', () => {
  const set = sidecarSet({ containers: [sidecar('proxy', `proxy@${DIGEST}`)] });
  it.each<[string, string, boolean]>([
    ['the running imageID has the spec digest', `docker-pullable://proxy@${DIGEST}`, true],
    ['the running imageID is the old digest', `docker-pullable://proxy@${OTHER}`, false],
  ])('%s', (_name, imageID, want) => {
    const pod = injectedPod(set, 'a', { statuses: { proxy: { imageID } } });
    expect(isPodStateConsistent(set, pod)).toBe(want);
  });
});
