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

// kruise#2297: a new tag of the same digest keeps the imageID; the runtime may report the old tag.
describe('a retag whose digest (imageID) is unchanged', () => {
  const PATCHED = '2026-01-01T10:00:05Z';
  const state: InPlaceUpdateState = {
    revision: 'r', updateTimestamp: '2026-01-01T10:00:00Z', lastContainerStatuses: { c1: { imageID: 'img01' } },
    containerBatchesRecord: [{ timestamp: PATCHED, containers: ['c1'] }],
  };
  const status = (started: string, previousEnded?: string): ContainerStatus => ({
    name: 'c1', imageID: 'img01', image: 'repo/app:v1', state: { running: { startedAt: started } },
    ...(previousEnded ? { lastState: { terminated: { exitCode: 0, finishedAt: previousEnded } } } : {}),
  });
  const check = (cs: ContainerStatus, s: InPlaceUpdateState = state) => isInPlaceUpdateCompleted(pod({}, [cs], 'repo/app:v2'), s);

  it('is done once the container started after its batch was patched', () => expect(check(status('2026-01-01T10:00:06Z', '2026-01-01T10:00:06Z'))).toBe(true));
  it('is done when it restarted in the second of the patch, its predecessor ending then too', () =>
    expect(check(status('2026-01-01T10:00:05Z', '2026-01-01T10:00:05Z'))).toBe(true));
  it('waits while the container runs from before the patch', () => {
    expect(check(status('2026-01-01T09:00:00Z'))).toBe(false);
    expect(check(status('2026-01-01T09:00:00Z', '2026-01-01T08:59:59Z'))).toBe(false);
  });
  it('waits when it started in the second of the patch with no predecessor ending then (it may predate the patch)', () =>
    expect(check(status('2026-01-01T10:00:05Z', '2026-01-01T10:00:01Z'))).toBe(false));
  it('waits without a batch record naming the container (no patch time to compare with)', () => {
    expect(check(status('2026-01-01T10:00:06Z'), { ...state, containerBatchesRecord: [{ timestamp: PATCHED, containers: ['other'] }] })).toBe(false);
    expect(check(status('2026-01-01T10:00:06Z'), { ...state, containerBatchesRecord: undefined })).toBe(false);
  });
  it('takes the latest batch naming the container', () => {
    const later = { ...state, containerBatchesRecord: [{ timestamp: PATCHED, containers: ['c1'] }, { timestamp: '2026-01-01T10:01:00Z', containers: ['c1'] }] };
    expect(check(status('2026-01-01T10:00:30Z', '2026-01-01T10:00:30Z'), later)).toBe(false);
  });
  it('waits while the container is not running', () =>
    expect(check({ name: 'c1', imageID: 'img01', image: 'repo/app:v1', state: { waiting: { reason: 'ContainerCreating' } } })).toBe(false));
});
