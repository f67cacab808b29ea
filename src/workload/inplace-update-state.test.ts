import { describe, expect, it } from 'vitest';
import {
  INPLACE_UPDATE_STATE_KEY,
  INPLACE_UPDATE_STATE_KEY_OLD,
  readInPlaceUpdateState,
  withInPlaceUpdateState,
  writeInPlaceUpdateState,
  type InPlaceUpdateState,
} from './inplace-update-state.js';

// Field names, order and omitempty: openkruise/kruise apis/apps/pub/inplace_update.go InPlaceUpdateState.
// Expected bytes: json.Marshal of the structs in pkg/util/inplaceupdate/inplace_update_test.go TestRefresh
// and inplace_update_defaults_test.go TestDefaultPatchUpdateSpecToPod.
describe('writeInPlaceUpdateState', () => {
  it('TestRefresh "in-place update still in grace": revision, timestamp, imageIDs', () => {
    const state: InPlaceUpdateState = { revision: 'new-revision', updateTimestamp: '2024-05-01T10:00:00Z', lastContainerStatuses: { c1: { imageID: 'img01' } } };
    expect(writeInPlaceUpdateState(state)).toBe('{"revision":"new-revision","updateTimestamp":"2024-05-01T10:00:00Z","lastContainerStatuses":{"c1":{"imageID":"img01"}}}');
  });

  it('TestRefresh "reach grace period": a batch record follows', () => {
    const state: InPlaceUpdateState = {
      revision: 'new-revision',
      updateTimestamp: '2024-05-01T10:00:00Z',
      lastContainerStatuses: { c1: { imageID: 'img01' } },
      containerBatchesRecord: [{ timestamp: '2024-05-01T09:00:10Z', containers: ['main'] }],
    };
    expect(writeInPlaceUpdateState(state)).toBe(
      '{"revision":"new-revision","updateTimestamp":"2024-05-01T10:00:00Z","lastContainerStatuses":{"c1":{"imageID":"img01"}},"containerBatchesRecord":[{"timestamp":"2024-05-01T09:00:10Z","containers":["main"]}]}',
    );
  });

  it('a zero time and a nil map are null (Go), not omitted', () => {
    expect(writeInPlaceUpdateState({ revision: 'r', updateTimestamp: null, lastContainerStatuses: null })).toBe('{"revision":"r","updateTimestamp":null,"lastContainerStatuses":null}');
  });

  it('every field, in struct order, maps sorted, timestamps in UTC seconds', () => {
    const state: InPlaceUpdateState = {
      revision: 'rev',
      updateTimestamp: '2024-05-01T12:00:00.789+02:00',
      lastContainerStatuses: { c2: { imageID: 'containerd://c2-img' }, c1: {} },
      updateEnvFromMetadata: true,
      updateResources: true,
      updateImages: true,
      nextContainerImages: { c4: 'c4-img-new', c2: 'c2-img-new' },
      nextContainerRefMetadata: { c3: { labels: { 'label-k2': 'bar' } } },
      nextContainerResources: { c2: { requests: { memory: '1024Mi', cpu: '1000m' } } },
      preCheckBeforeNext: { containersRequiredReady: ['c1'] },
      containerBatchesRecord: [{ timestamp: '2024-05-01T10:00:00Z', containers: ['c1'] }],
    };
    expect(writeInPlaceUpdateState(state)).toBe(
      '{"revision":"rev","updateTimestamp":"2024-05-01T10:00:00Z","lastContainerStatuses":{"c1":{},"c2":{"imageID":"containerd://c2-img"}},' +
        '"updateEnvFromMetadata":true,"updateResources":true,"updateImages":true,"nextContainerImages":{"c2":"c2-img-new","c4":"c4-img-new"},' +
        '"nextContainerRefMetadata":{"c3":{"creationTimestamp":null,"labels":{"label-k2":"bar"}}},' +
        '"nextContainerResources":{"c2":{"requests":{"cpu":"1","memory":"1Gi"}}},' +
        '"preCheckBeforeNext":{"containersRequiredReady":["c1"]},"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["c1"]}]}',
    );
  });

  it('omitempty drops false, empty maps and an empty batch list', () => {
    const state: InPlaceUpdateState = { revision: 'r', updateTimestamp: null, lastContainerStatuses: {}, updateImages: false, nextContainerImages: {}, containerBatchesRecord: [] };
    expect(writeInPlaceUpdateState(state)).toBe('{"revision":"r","updateTimestamp":null,"lastContainerStatuses":{}}');
  });
});

describe('readInPlaceUpdateState', () => {
  // TestCheckInPlaceUpdateCompleted's annotation (no updateTimestamp).
  const text = '{"revision":"new-revision","lastContainerStatuses":{"c1":{"imageID":"img01"}}}';

  it('reads the new key, else the legacy one (apis/apps/pub GetInPlaceUpdateState)', () => {
    const want = { revision: 'new-revision', updateTimestamp: null, lastContainerStatuses: { c1: { imageID: 'img01' } } };
    expect(readInPlaceUpdateState({ [INPLACE_UPDATE_STATE_KEY]: text })).toEqual(want);
    expect(readInPlaceUpdateState({ [INPLACE_UPDATE_STATE_KEY_OLD]: text })).toEqual(want);
    expect(readInPlaceUpdateState({ [INPLACE_UPDATE_STATE_KEY]: text, [INPLACE_UPDATE_STATE_KEY_OLD]: '{"revision":"old"}' })).toMatchObject({ revision: 'new-revision' });
    expect(readInPlaceUpdateState({})).toBeUndefined();
    expect(readInPlaceUpdateState({ [INPLACE_UPDATE_STATE_KEY]: 'nope' })).toBe('invalid');
  });

  it('round-trips what it writes', () => {
    const full =
      '{"revision":"rev","updateTimestamp":"2024-05-01T10:00:00Z","lastContainerStatuses":{"c1":{"imageID":"a"}},"updateImages":true,' +
      '"nextContainerImages":{"c2":"x"},"nextContainerRefMetadata":{"c3":{"creationTimestamp":null,"annotations":{"k":"v"}}},' +
      '"preCheckBeforeNext":{"containersRequiredReady":["c1"]},"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["c1"]}]}';
    const state = readInPlaceUpdateState({ [INPLACE_UPDATE_STATE_KEY]: full });
    expect(state).not.toBe('invalid');
    expect(writeInPlaceUpdateState(state as InPlaceUpdateState)).toBe(full);
  });

  it('writing moves a legacy state to the new key', () => {
    const out = withInPlaceUpdateState({ [INPLACE_UPDATE_STATE_KEY_OLD]: text, other: 'x' }, { revision: 'r', updateTimestamp: null, lastContainerStatuses: null });
    expect(out).toEqual({ other: 'x', [INPLACE_UPDATE_STATE_KEY]: '{"revision":"r","updateTimestamp":null,"lastContainerStatuses":null}' });
  });
});
