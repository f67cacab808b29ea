import { describe, expect, it } from 'vitest';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION } from '../types.js';
import { INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import {
  goJson,
  patchPodMetadata,
  podControllerRevision,
  podSidecarSetHash,
  readHashEntries,
  sidecarList,
  withInPlaceUpdateState,
  withUpdatedHashEntry,
  workingHotUpgradeContainers,
} from './annotations.js';
import { injectedPod, sidecar, sidecarSet } from './test-builders.js';

const NOW = new Date('2024-03-01T10:00:00.500Z');
const set = sidecarSet({ containers: [sidecar('b', 'b:1'), sidecar('a', 'a:1')] });

describe('hash entries', () => {
  it.each<[string, string | undefined, string]>([
    ['entry map', '{"mesh":{"hash":"h1","sidecarSetName":"mesh"}}', 'h1'],
    ['legacy map of strings', '{"mesh":"h0"}', 'h0'],
    ['other set only', '{"logs":{"hash":"x"}}', ''],
    ['absent', undefined, ''],
    ['not JSON', 'nope', ''],
  ])('%s', (_name, value, want) => {
    const pod = injectedPod(set, 'p');
    if (value === undefined) delete pod.metadata.annotations![HASH_ANNOTATION];
    else pod.metadata.annotations![HASH_ANNOTATION] = value;
    expect(podSidecarSetHash(pod, 'mesh')).toBe(want);
  });

  it('reads the controllerRevision an entry names', () => {
    expect(podControllerRevision({ ...injectedPod(set, 'p'), metadata: { name: 'p', namespace: 'd', annotations: { [HASH_ANNOTATION]: '{"mesh":{"hash":"h","controllerRevision":"mesh-1"}}' } } }, 'mesh')).toBe('mesh-1');
  });

  it('writes the entry in Go field order, keeps other sets, sorts the map', () => {
    const out = withUpdatedHashEntry({ [HASH_ANNOTATION]: '{"zeta":{"sidecarSetName":"zeta","hash":"z","updateTimestamp":"2024-01-01T00:00:00.9+01:00","sidecarList":["z"]}}' }, set, 'mesh-rev', NOW);
    expect(out[HASH_ANNOTATION]).toBe(
      `{"mesh":{"updateTimestamp":"2024-03-01T10:00:00Z","hash":"${set.metadata.annotations![HASH_ANNOTATION]}","sidecarSetName":"mesh","sidecarList":["a","b"],"controllerRevision":"mesh-rev"},` +
        '"zeta":{"updateTimestamp":"2023-12-31T23:00:00Z","hash":"z","sidecarSetName":"zeta","sidecarList":["z"]}}',
    );
    expect(out[HASH_WITHOUT_IMAGE_ANNOTATION]).toBeUndefined();
  });

  it('converts the legacy form, both annotations, as OpenKruise does', () => {
    const out = withUpdatedHashEntry({ [HASH_ANNOTATION]: '{"logs":"l0"}', [HASH_WITHOUT_IMAGE_ANNOTATION]: '{"logs":"w0"}' }, set, '', NOW);
    expect(readHashEntries(out, HASH_ANNOTATION).entries.get('logs')).toEqual({ updateTimestamp: '2024-03-01T10:00:00Z', hash: 'l0', sidecarSetName: 'mesh', sidecarList: null });
    expect(out[HASH_WITHOUT_IMAGE_ANNOTATION]).toBe('{"logs":{"updateTimestamp":"2024-03-01T10:00:00Z","hash":"w0","sidecarSetName":"mesh","sidecarList":null}}');
    expect(readHashEntries(out, HASH_ANNOTATION).entries.get('mesh')?.controllerRevision).toBeUndefined();
  });

  it('sidecarList: containers and restartPolicy=Always init containers, sorted', () => {
    const s = sidecarSet({ containers: [sidecar('z', 'z'), sidecar('m', 'm')], spec: { initContainers: [sidecar('init', 'i'), sidecar('native', 'n', { restartPolicy: 'Always' })] } });
    expect(sidecarList(s)).toEqual(['m', 'native', 'z']);
  });
});

describe('in-place update state', () => {
  it('adds container imageIDs to an existing entry, keeping its revision, timestamp and other fields', () => {
    const pod = injectedPod(set, 'p', {
      annotations: { [INPLACE_UPDATE_STATE_ANNOTATION]: '{"mesh":{"revision":"old","updateTimestamp":"2024-01-01T00:00:00Z","lastContainerStatuses":{"b":{"imageID":"b0"}},"verticalUpdateOnly":false}}' },
    });
    expect(withInPlaceUpdateState(pod, set, ['a'], NOW)).toBe(
      '{"mesh":{"revision":"old","updateTimestamp":"2024-01-01T00:00:00Z","lastContainerStatuses":{"a":{"imageID":"a:1@id"},"b":{"imageID":"b0"}},"verticalUpdateOnly":false}}',
    );
  });

  it('starts over when the annotation is not JSON', () => {
    const pod = injectedPod(set, 'p', { annotations: { [INPLACE_UPDATE_STATE_ANNOTATION]: '][' } });
    expect(JSON.parse(withInPlaceUpdateState(pod, set, [], NOW))).toEqual({ mesh: { revision: set.metadata.annotations![HASH_ANNOTATION], updateTimestamp: '2024-03-01T10:00:00Z', lastContainerStatuses: {} } });
  });
});

describe('patchPodMetadata', () => {
  const patch = (patchPolicy: 'Retain' | 'Overwrite' | 'MergePatchJson' | undefined, value: string) => [{ annotations: { k: value }, ...(patchPolicy ? { patchPolicy } : {}) }];
  it.each<[string, Record<string, string>, ReturnType<typeof patch>, string | undefined]>([
    ['Retain sets a missing key', {}, patch('Retain', 'v'), 'v'],
    ['Retain keeps the pod value', { k: 'mine' }, patch('Retain', 'v'), 'mine'],
    ['empty policy is Retain', { k: 'mine' }, patch(undefined, 'v'), 'mine'],
    ['Overwrite', { k: 'mine' }, patch('Overwrite', 'v'), 'v'],
    ['MergePatchJson merges, keys sorted, null deletes', { k: '{"b":{"x":1},"a":1}' }, patch('MergePatchJson', '{"b":{"y":2},"a":null}'), '{"b":{"x":1,"y":2}}'],
    ['MergePatchJson on an empty value sets it verbatim', { k: '' }, patch('MergePatchJson', '{ "b": 1 }'), '{ "b": 1 }'],
  ])('%s', (_name, annotations, patches, want) => {
    const got = patchPodMetadata(annotations, patches);
    expect('error' in got ? got.error : got.annotations['k']).toBe(want);
  });
});

describe('encoding', () => {
  it('goJson keeps member order and escapes like Go', () => {
    expect(goJson({ z: '<a&b>', a: [1, null, true] })).toBe('{"z":"\\u003ca\\u0026b\\u003e","a":[1,null,true]}');
  });

  it('reads the working hot-upgrade containers, ignoring invalid values', () => {
    expect(workingHotUpgradeContainers({ 'kruise.io/sidecarset-working-hotupgrade-container': '{"envoy":"envoy-2"}' })).toEqual({ envoy: 'envoy-2' });
    expect(workingHotUpgradeContainers({ 'kruise.io/sidecarset-working-hotupgrade-container': '{"envoy":2}' })).toEqual({});
  });
});
