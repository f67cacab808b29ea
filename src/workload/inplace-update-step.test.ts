import { describe, expect, it } from 'vitest';
import type { InPlaceUpdateSpec } from './inplace-update.js';
import { applyInPlaceUpdate } from './inplace-update-apply.js';
import { INPLACE_UPDATE_GRACE_KEY } from './inplace-update-grace.js';
import { INPLACE_UPDATE_STATE_KEY, INPLACE_UPDATE_STATE_KEY_OLD, writeInPlaceUpdateState } from './inplace-update-state.js';
import { inPlaceUpdateStep, type InPlaceUpdateAction } from './inplace-update-step.js';
import type { Pod } from './pods.js';

const NOW = new Date('2024-05-01T10:00:00Z');
const TEN_SECONDS_AGO = '2024-05-01T09:59:50Z';
const AN_HOUR_AGO = '2024-05-01T09:00:00Z';
const GATES = [{ conditionType: 'InPlaceUpdateReady' }];
const noMeta = { labels: { set: {}, removed: [] }, annotations: { set: {}, removed: [] }, finalizers: { added: [], removed: [], order: null } };
const images = (m: Record<string, string>): InPlaceUpdateSpec => ({ kind: 'in-place', images: m, metadata: noMeta });

function podOf(p: Partial<Pod['metadata']>, spec: Partial<Pod['spec']>, status?: Pod['status']): Pod {
  return {
    metadata: { name: 'pod-0', namespace: 'ns', resourceVersion: '5', labels: { 'controller-revision-hash': 'new-revision' }, ...p },
    spec: { containers: [], readinessGates: GATES, ...spec },
    ...(status ? { status } : {}),
  };
}

function updated(a: InPlaceUpdateAction): Pod {
  if (a.type !== 'update-pod') throw new Error(`expected update-pod, got ${a.type}`);
  return a.pod;
}

// Vectors: pkg/util/inplaceupdate/inplace_update_test.go TestRefresh (grace and next-batch cases).
describe('inPlaceUpdateStep: OpenKruise TestRefresh', () => {
  const state = (grace: number) =>
    podOf(
      {
        annotations: {
          [INPLACE_UPDATE_STATE_KEY]: writeInPlaceUpdateState({ revision: 'new-revision', updateTimestamp: TEN_SECONDS_AGO, lastContainerStatuses: { c1: { imageID: 'img01' } } }),
          [INPLACE_UPDATE_GRACE_KEY]: `{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":${grace}}`,
        },
      },
      { containers: [{ name: 'main', image: 'img-name01' }] },
    );

  it('still in grace (10s of 30s): wait until the period ends', () => {
    expect(inPlaceUpdateStep(state(30), undefined, 'new-revision', NOW, 30)).toEqual({ type: 'wait-grace', until: new Date('2024-05-01T10:00:20Z') });
  });

  it('grace over (10s of 5s): images patched, grace dropped, batch recorded', () => {
    const pod = updated(inPlaceUpdateStep(state(5), undefined, 'new-revision', NOW, 5));
    expect(pod.spec.containers).toEqual([{ name: 'main', image: 'img-name02' }]);
    expect(pod.metadata.annotations).toEqual({
      [INPLACE_UPDATE_STATE_KEY]:
        '{"revision":"new-revision","updateTimestamp":"2024-05-01T09:59:50Z","lastContainerStatuses":{"c1":{"imageID":"img01"}},"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["main"]}]}',
    });
  });

  it('grace for a revision the pod no longer has: dropped', () => {
    const p = state(30);
    p.metadata.labels = { 'controller-revision-hash': 'other' };
    const a = inPlaceUpdateStep(p, undefined, 'other', NOW, 30);
    expect(a).toMatchObject({ type: 'update-pod', step: 'drop-grace' });
    expect(Object.keys(updated(a).metadata.annotations ?? {})).toEqual([INPLACE_UPDATE_STATE_KEY]);
  });

  const nextBatch = (c1ImageID: string) =>
    podOf(
      {
        annotations: {
          [INPLACE_UPDATE_STATE_KEY]: writeInPlaceUpdateState({
            revision: 'new-revision',
            updateTimestamp: AN_HOUR_AGO,
            lastContainerStatuses: { c1: { imageID: 'c1-img1-ID' } },
            containerBatchesRecord: [{ timestamp: AN_HOUR_AGO, containers: ['c1'] }],
            nextContainerImages: { c2: 'c2-img2' },
          }),
        },
      },
      { containers: [{ name: 'c1', image: 'c1-img2' }, { name: 'c2', image: 'c2-img1' }] },
      {
        containerStatuses: [{ name: 'c1', imageID: c1ImageID }, { name: 'c2', imageID: 'c2-img1-ID' }],
        conditions: [{ type: 'ContainersReady', status: 'True' }, { type: 'InPlaceUpdateReady', status: 'False', lastTransitionTime: AN_HOUR_AGO }],
      },
    );

  it('next batch waits while the first batch is not consistent', () => {
    expect(inPlaceUpdateStep(nextBatch('c1-img1-ID'), undefined, 'new-revision', NOW, 0)).toEqual({ type: 'wait-completion', reason: 'container c1 imageID not changed' });
  });

  it('next batch goes once the first is consistent', () => {
    const pod = updated(inPlaceUpdateStep(nextBatch('c1-img2-ID'), undefined, 'new-revision', NOW, 0));
    expect(pod.spec.containers).toEqual([{ name: 'c1', image: 'c1-img2' }, { name: 'c2', image: 'c2-img2' }]);
    expect(pod.metadata.annotations?.[INPLACE_UPDATE_STATE_KEY]).toBe(
      '{"revision":"new-revision","updateTimestamp":"2024-05-01T09:00:00Z","lastContainerStatuses":{"c1":{"imageID":"c1-img1-ID"},"c2":{"imageID":"c2-img1-ID"}},' +
        '"containerBatchesRecord":[{"timestamp":"2024-05-01T09:00:00Z","containers":["c1"]},{"timestamp":"2024-05-01T10:00:00Z","containers":["c2"]}]}',
    );
  });

  it('no gate and nothing recorded: done; a gated pod without the condition gets True', () => {
    expect(inPlaceUpdateStep(podOf({}, { readinessGates: [] }), undefined, 'new-revision', NOW, 0)).toEqual({ type: 'done' });
    expect(inPlaceUpdateStep(podOf({}, {}), undefined, 'new-revision', NOW, 0)).toMatchObject({ type: 'set-ready' });
  });
});

// Vectors: inplace_update_defaults_test.go TestDefaultPatchUpdateSpecToPod (containers without launch priority).
describe('applyInPlaceUpdate: OpenKruise TestDefaultPatchUpdateSpecToPod', () => {
  const given = podOf(
    { labels: { 'label-k1': 'foo' }, annotations: { 'annotation-k1': 'foo' } },
    { containers: ['c1', 'c3', 'c4'].map((n) => ({ name: n, image: `${n}-img` })) },
    { containerStatuses: ['c1', 'c3', 'c4'].map((n) => ({ name: n, imageID: `containerd://${n}-img` })) },
  );
  const start = { revision: '', updateTimestamp: null, lastContainerStatuses: null };

  it('one container image', () => {
    const pod = applyInPlaceUpdate(given, images({ c1: 'c1-img-new' }), start, NOW);
    expect(pod.spec.containers.map((c) => c.image)).toEqual(['c1-img-new', 'c3-img', 'c4-img']);
    expect(pod.metadata.annotations?.[INPLACE_UPDATE_STATE_KEY]).toBe(
      '{"revision":"","updateTimestamp":null,"lastContainerStatuses":{"c1":{"imageID":"containerd://c1-img"}},"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["c1"]}]}',
    );
  });

  it('two container images and a new annotation', () => {
    const spec: InPlaceUpdateSpec = { ...images({ c3: 'c3-img-new', c4: 'c4-img-new' }), metadata: { ...noMeta, annotations: { set: { 'new-key': 'bar' }, removed: [] } } };
    const pod = applyInPlaceUpdate(given, spec, start, NOW);
    expect(pod.metadata.annotations?.['new-key']).toBe('bar');
    expect(pod.metadata.annotations?.['annotation-k1']).toBe('foo');
    expect(pod.metadata.annotations?.[INPLACE_UPDATE_STATE_KEY]).toContain(
      '"lastContainerStatuses":{"c3":{"imageID":"containerd://c3-img"},"c4":{"imageID":"containerd://c4-img"}},"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["c3","c4"]}]',
    );
  });
});

describe('inPlaceUpdateStep: a whole update', () => {
  const old = (): Pod =>
    podOf(
      { labels: { 'controller-revision-hash': 'cs-old', app: 'a' }, annotations: { [INPLACE_UPDATE_STATE_KEY_OLD]: '{"revision":"cs-old"}' } },
      { containers: [{ name: 'main', image: 'nginx:1' }] },
      {
        containerStatuses: [{ name: 'main', imageID: 'sha-1', image: 'nginx:1', ready: true }],
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'ContainersReady', status: 'True' },
          { type: 'InPlaceUpdateReady', status: 'True' },
        ],
      },
    );
  const spec = images({ main: 'nginx:2' });

  it('not ready → images → wait for the kubelet → ready → done', () => {
    let pod = old();
    const first = inPlaceUpdateStep(pod, spec, 'cs-new', NOW, 0);
    expect(first).toMatchObject({ type: 'set-not-ready', write: { resourceVersion: '5' } });
    pod = { ...pod, status: { ...pod.status, conditions: (first.type === 'set-not-ready' && (first.write.status['conditions'] as never)) || [] } };

    const second = inPlaceUpdateStep(pod, spec, 'cs-new', NOW, 0);
    expect(second).toMatchObject({ type: 'update-pod', step: 'start' });
    pod = updated(second);
    expect(pod.metadata.labels).toEqual({ 'controller-revision-hash': 'cs-new', app: 'a' });
    expect(pod.spec.containers).toEqual([{ name: 'main', image: 'nginx:2' }]);
    expect(pod.metadata.annotations).toEqual({
      [INPLACE_UPDATE_STATE_KEY]:
        '{"revision":"cs-new","updateTimestamp":"2024-05-01T10:00:00Z","lastContainerStatuses":{"main":{"imageID":"sha-1"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-05-01T10:00:00Z","containers":["main"]}]}',
    });

    expect(inPlaceUpdateStep(pod, spec, 'cs-new', NOW, 0)).toEqual({ type: 'wait-completion', reason: 'container main imageID not changed' });
    pod = { ...pod, status: { ...pod.status, containerStatuses: [{ name: 'main', imageID: 'sha-2', image: 'nginx:2', ready: true }] } };
    const ready = inPlaceUpdateStep(pod, spec, 'cs-new', NOW, 0);
    expect(ready).toMatchObject({ type: 'set-ready' });
    pod = { ...pod, status: { ...pod.status, conditions: (ready.type === 'set-ready' && (ready.write.status['conditions'] as never)) || [] } };
    expect(inPlaceUpdateStep(pod, spec, 'cs-new', NOW, 0)).toEqual({ type: 'done' });
  });

  it('with a grace period: state and grace annotation first, images after the wake-up time', () => {
    let pod = old();
    pod.status!.conditions = [{ type: 'InPlaceUpdateReady', status: 'False' }];
    const at = new Date('2024-05-01T10:00:00.400Z');
    const first = inPlaceUpdateStep(pod, spec, 'cs-new', at, 30);
    expect(first).toMatchObject({ type: 'update-pod', step: 'start-grace', wakeAt: new Date('2024-05-01T10:00:30Z') });
    pod = updated(first);
    expect(pod.spec.containers).toEqual([{ name: 'main', image: 'nginx:1' }]);
    expect(pod.metadata.annotations).toEqual({
      [INPLACE_UPDATE_STATE_KEY]: '{"revision":"cs-new","updateTimestamp":"2024-05-01T10:00:00Z","lastContainerStatuses":null,"updateImages":true}',
      [INPLACE_UPDATE_GRACE_KEY]: '{"revision":"cs-new","containerImages":{"main":"nginx:2"},"graceSeconds":30}',
    });
    expect(inPlaceUpdateStep(pod, spec, 'cs-new', new Date('2024-05-01T10:00:29Z'), 30)).toEqual({ type: 'wait-grace', until: new Date('2024-05-01T10:00:30Z') });
    const finish = inPlaceUpdateStep(pod, spec, 'cs-new', new Date('2024-05-01T10:00:30Z'), 30);
    expect(finish).toMatchObject({ type: 'update-pod', step: 'finish-grace' });
    expect(updated(finish).spec.containers).toEqual([{ name: 'main', image: 'nginx:2' }]);
    expect(Object.keys(updated(finish).metadata.annotations ?? {})).toEqual([INPLACE_UPDATE_STATE_KEY]);
  });

  it('unreadable annotations are reported, not guessed', () => {
    const p = podOf({ annotations: { [INPLACE_UPDATE_STATE_KEY]: 'x' } }, {});
    expect(inPlaceUpdateStep(p, undefined, 'new-revision', NOW, 0)).toMatchObject({ type: 'invalid' });
    const q = podOf({ annotations: { [INPLACE_UPDATE_GRACE_KEY]: '{"revision":"new-revision"}' } }, {});
    expect(inPlaceUpdateStep(q, undefined, 'new-revision', NOW, 0)).toMatchObject({ type: 'invalid' });
  });
});
