import { describe, expect, it } from 'vitest';
import { inPlaceUpdatePendingReason, isInPlaceUpdateCompleted, isPodInPlaceUpdateCompleted } from './inplace-update-completion.js';
import { INPLACE_UPDATE_GRACE_KEY } from './inplace-update-grace.js';
import { INPLACE_UPDATE_STATE_KEY, type InPlaceUpdateState } from './inplace-update-state.js';
import type { ContainerStatus, Pod } from './pods.js';

const STATE = '{"revision":"new-revision","lastContainerStatuses":{"c1":{"imageID":"img01"}}}';
const pod = (annotations: Record<string, string>, statuses?: ContainerStatus[], image?: string): Pod => ({
  metadata: { name: 'p', namespace: 'ns', labels: { 'controller-revision-hash': 'new-revision' }, annotations },
  spec: { containers: image ? [{ name: 'c1', image }] : [] },
  ...(statuses ? { status: { containerStatuses: statuses } } : {}),
});

// Vectors: pkg/util/inplaceupdate/inplace_update_test.go TestCheckInPlaceUpdateCompleted.
describe('isPodInPlaceUpdateCompleted: OpenKruise TestCheckInPlaceUpdateCompleted', () => {
  it('s1: no state → complete', () => expect(isPodInPlaceUpdateCompleted(pod({}))).toBe(true));
  it('s2: imageID changed → complete', () => expect(isPodInPlaceUpdateCompleted(pod({ [INPLACE_UPDATE_STATE_KEY]: STATE }, [{ name: 'c1', imageID: 'img02' }]))).toBe(true));
  it('f2: same imageID, status image differs from spec → not complete', () =>
    expect(isPodInPlaceUpdateCompleted(pod({ [INPLACE_UPDATE_STATE_KEY]: STATE }, [{ name: 'c1', imageID: 'img01', image: 'image01' }]))).toBe(false));
  it('f3: no container status → not complete', () => expect(isPodInPlaceUpdateCompleted(pod({ [INPLACE_UPDATE_STATE_KEY]: STATE }, []))).toBe(false));
});

// defaultCheckContainersInPlaceUpdateCompleted / DefaultCheckInPlaceUpdateCompleted rules.
describe('completion rules', () => {
  const state: InPlaceUpdateState = { revision: 'r', updateTimestamp: null, lastContainerStatuses: { c1: { imageID: 'img01' } } };

  it('same imageID but the status image is the spec image (a retag the kubelet restarted) → complete', () => {
    expect(isInPlaceUpdateCompleted(pod({}, [{ name: 'c1', imageID: 'img01', image: 'nginx:2' }], 'nginx:2'), state)).toBe(true);
  });

  it('a spec image without a tag compares as :latest', () => {
    expect(isInPlaceUpdateCompleted(pod({}, [{ name: 'c1', imageID: 'img01', image: 'nginx:latest' }], 'nginx'), state)).toBe(true);
    expect(isInPlaceUpdateCompleted(pod({}, [{ name: 'c1', imageID: 'img01', image: 'nginx' }], 'nginx'), state)).toBe(false);
  });

  it('says why it waits', () => {
    expect(inPlaceUpdatePendingReason(pod({}, [{ name: 'c1', imageID: 'img01' }], 'x:1'), state)).toBe('container c1 imageID not changed');
    expect(inPlaceUpdatePendingReason(pod({}, []), state)).toBe('no status yet for containers c1');
  });

  it('a pending grace period, a later batch or an unreadable state → not complete', () => {
    expect(isPodInPlaceUpdateCompleted(pod({ [INPLACE_UPDATE_GRACE_KEY]: '{}', [INPLACE_UPDATE_STATE_KEY]: STATE }, [{ name: 'c1', imageID: 'img02' }]))).toBe(false);
    const next = '{"revision":"r","lastContainerStatuses":{"c1":{"imageID":"img01"}},"nextContainerImages":{"c2":"x"}}';
    expect(isPodInPlaceUpdateCompleted(pod({ [INPLACE_UPDATE_STATE_KEY]: next }, [{ name: 'c1', imageID: 'img02' }]))).toBe(false);
    expect(isPodInPlaceUpdateCompleted(pod({ [INPLACE_UPDATE_STATE_KEY]: '{' }))).toBe(false);
  });
});
