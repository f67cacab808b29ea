import { describe, expect, it } from 'vitest';
import { containerReadsMetadata, inPlaceUpdateSpec, isEmptyInPlaceUpdate, type PodTemplate } from './inplace-update.js';
import { splitSubscriptedPath } from '../kube/pod-validation.js';

const noMeta = {
  labels: { set: {}, removed: [] },
  annotations: { set: {}, removed: [] },
  finalizers: { added: [], removed: [], order: null },
};

// Vectors: openkruise/kruise pkg/util/inplaceupdate/inplace_update_test.go TestCalculateInPlaceUpdateSpec
// (revision data `{"spec":{"template":…}}`; here the template itself).
describe('inPlaceUpdateSpec: OpenKruise TestCalculateInPlaceUpdateSpec', () => {
  it('image only → in place', () => {
    const a: PodTemplate = { spec: { containers: [{ name: 'c1', image: 'foo1' }] } };
    const b: PodTemplate = { spec: { containers: [{ name: 'c1', image: 'foo2' }] } };
    expect(inPlaceUpdateSpec(a, b)).toEqual({ kind: 'in-place', images: { c1: 'foo2' }, metadata: noMeta });
  });

  it('image and an added label → in place with the label', () => {
    const a: PodTemplate = { metadata: { labels: { k: 'v' } }, spec: { containers: [{ name: 'c1', image: 'foo1' }] } };
    const b: PodTemplate = { metadata: { labels: { k: 'v', k1: 'v1' } }, spec: { containers: [{ name: 'c1', image: 'foo2' }] } };
    expect(inPlaceUpdateSpec(a, b)).toEqual({
      kind: 'in-place',
      images: { c1: 'foo2' },
      metadata: { ...noMeta, labels: { set: { k1: 'v1' }, removed: [] } },
    });
  });

  it('labels and finalizers changed → in place (metadata patch)', () => {
    const a: PodTemplate = { metadata: { labels: { k: 'v', k2: 'v2' }, finalizers: ['fz1', 'fz2'] }, spec: { containers: [{ name: 'c1', image: 'foo1' }] } };
    const b: PodTemplate = { metadata: { labels: { k: 'v', k1: 'v1' }, finalizers: ['fz2'] }, spec: { containers: [{ name: 'c1', image: 'foo2' }] } };
    expect(inPlaceUpdateSpec(a, b)).toEqual({
      kind: 'in-place',
      images: { c1: 'foo2' },
      metadata: { ...noMeta, labels: { set: { k1: 'v1' }, removed: ['k2'] }, finalizers: { added: [], removed: ['fz1'], order: ['fz2'] } },
    });
  });

  it('a changed label read by an env var: OpenKruise restarts it with its node agent; we recreate', () => {
    const env = [{ name: 'TEST_ENV', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['k']" } } }];
    const a: PodTemplate = { metadata: { labels: { k: 'v' } }, spec: { containers: [{ name: 'c1', image: 'foo1', env }] } };
    const b: PodTemplate = { metadata: { labels: { k: 'v2', k1: 'v1' } }, spec: { containers: [{ name: 'c1', image: 'foo2', env }] } };
    expect(inPlaceUpdateSpec(a, b)).toMatchObject({ kind: 'recreate', reason: 'env-from-metadata' });
    // OpenKruise without kruise-daemon (InPlaceUpdateEnvFromMetadata forced off): patched, env stale.
    expect(inPlaceUpdateSpec(a, b, { envFromMetadata: 'stale' })).toEqual({
      kind: 'in-place',
      images: { c1: 'foo2' },
      metadata: { ...noMeta, labels: { set: { k: 'v2', k1: 'v1' }, removed: [] } },
    });
  });

  it('a spec change beyond images → recreate', () => {
    const a: PodTemplate = { spec: { containers: [{ name: 'c1', image: 'foo1' }] } };
    const b: PodTemplate = { spec: { containers: [{ name: 'c1', image: 'foo2', env: [{ name: 'k', value: 'v' }] }] } };
    expect(inPlaceUpdateSpec(a, b)).toEqual({ kind: 'recreate', reason: 'spec-changed', detail: 'add /spec/containers/0/env' });
  });
});

// Vectors: inplace_update_defaults_test.go TestDefaultCalculateInPlaceUpdateSpec (vertical scaling off,
// the default) and Test_defaultCalculateInPlaceUpdateSpec_VCTHash (nginx:stable-alpine22 → nginx:stable-alpine).
describe('inPlaceUpdateSpec: OpenKruise TestDefaultCalculateInPlaceUpdateSpec', () => {
  const container = (name: string, image: string, cpu = '1', pull = 'Always') => ({
    name,
    image,
    imagePullPolicy: pull,
    resources: { limits: { cpu: '2', memory: '2Gi' }, requests: { cpu, memory: '1Gi' } },
    terminationMessagePath: '/dev/termination-log',
  });
  const template = (...containers: ReturnType<typeof container>[]): PodTemplate => ({
    metadata: { creationTimestamp: null, labels: { app: 'nginx' } },
    spec: { containers, dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {} },
  });
  const base = template(container('nginx', 'nginx:stable-alpine22'), container('nginx2', 'nginx:stable-alpine22'));

  it('images of two containers → in place', () => {
    const next = template(container('nginx', 'nginx:stable-alpine23'), container('nginx2', 'nginx:stable-alpine23'));
    expect(inPlaceUpdateSpec(base, next)).toEqual({ kind: 'in-place', images: { nginx: 'nginx:stable-alpine23', nginx2: 'nginx:stable-alpine23' }, metadata: noMeta });
  });

  it('resources (InPlaceWorkloadVerticalScaling off) → recreate', () => {
    const next = template(container('nginx', 'nginx:stable-alpine23', '2'), container('nginx2', 'nginx:stable-alpine22'));
    expect(inPlaceUpdateSpec(base, next)).toEqual({ kind: 'recreate', reason: 'spec-changed', detail: 'replace /spec/containers/0/resources/requests/cpu' });
  });

  it('another field (imagePullPolicy) with the image → recreate', () => {
    const next = template(container('nginx', 'nginx:stable-alpine23', '1', '222'), container('nginx2', 'nginx:stable-alpine22'));
    expect(inPlaceUpdateSpec(base, next)).toMatchObject({ kind: 'recreate', reason: 'spec-changed', detail: 'replace /spec/containers/0/imagePullPolicy' });
  });

  it('a container added or removed → recreate', () => {
    const next = template(container('nginx', 'nginx:stable-alpine22'));
    expect(inPlaceUpdateSpec(base, next)).toMatchObject({ kind: 'recreate', reason: 'spec-changed' });
  });

  it('nothing Go would write differently (null, [], {}) → an empty in-place update', () => {
    const next: PodTemplate = { ...base, metadata: { labels: { app: 'nginx' } }, spec: { ...base.spec, volumes: [], securityContext: undefined } };
    const spec = inPlaceUpdateSpec(base, next);
    expect(spec).toEqual({ kind: 'in-place', images: {}, metadata: noMeta });
    expect(spec.kind === 'in-place' && isEmptyInPlaceUpdate(spec)).toBe(true);
  });

  it('a change outside metadata and spec → recreate', () => {
    expect(inPlaceUpdateSpec(base, { ...base, extra: 1 })).toMatchObject({ kind: 'recreate', reason: 'template-changed' });
  });
});

// Vectors: k8s.io/kubernetes/pkg/fieldpath SplitMaybeSubscriptedPath; containermeta/env_hash.go IsContainerReferenceToMeta.
describe('env from metadata', () => {
  it.each<[string, [string, string] | undefined]>([
    ["metadata.labels['app']", ['metadata.labels', 'app']],
    ["metadata.annotations['a/b']", ['metadata.annotations', 'a/b']],
    ['metadata.name', undefined],
    ["['x']", undefined],
  ])('%s', (path, want) => expect(splitSubscriptedPath(path)).toEqual(want));

  const ref = (name: string, fieldPath: string, value?: string) => ({ name, ...(value ? { value } : {}), valueFrom: { fieldRef: { fieldPath } } });
  it('matches fieldRef env vars only, skipping literal values and SIDECARSET_VERSION', () => {
    expect(containerReadsMetadata({ env: [ref('A', "metadata.annotations['k']")] }, 'metadata.annotations', 'k')).toBe(true);
    expect(containerReadsMetadata({ env: [ref('A', "metadata.annotations['k']")] }, 'metadata.labels', 'k')).toBe(false);
    expect(containerReadsMetadata({ env: [ref('A', "metadata.annotations['k']", 'lit')] }, 'metadata.annotations', 'k')).toBe(false);
    expect(containerReadsMetadata({ env: [ref('SIDECARSET_VERSION', "metadata.annotations['k']")] }, 'metadata.annotations', 'k')).toBe(false);
  });

  it('an annotation read by an env var recreates; a removed one does not (OpenKruise ignores removals)', () => {
    const env = [ref('CFG', "metadata.annotations['cfg']")];
    const a: PodTemplate = { metadata: { annotations: { cfg: '1' } }, spec: { containers: [{ name: 'c', image: 'i', env }] } };
    expect(inPlaceUpdateSpec(a, { ...a, metadata: { annotations: { cfg: '2' } } })).toMatchObject({ kind: 'recreate', reason: 'env-from-metadata' });
    expect(inPlaceUpdateSpec(a, { ...a, metadata: {} })).toMatchObject({ kind: 'in-place', metadata: { annotations: { set: {}, removed: ['cfg'] } } });
    // A label nobody reads stays in place.
    expect(inPlaceUpdateSpec(a, { ...a, metadata: { annotations: { cfg: '1' }, labels: { x: 'y' } } })).toMatchObject({ kind: 'in-place' });
  });
});
