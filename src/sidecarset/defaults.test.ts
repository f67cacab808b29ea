import { describe, expect, it } from 'vitest';
import { defaultSidecarSet, imageTag, withHashAnnotations } from './defaults.js';
import { goJSON } from '../kube/go-json.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, type SidecarSet } from './types.js';

type Obj = Record<string, unknown>;
const set = (spec: Obj, metadata: Obj = { name: 's' }) =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata, spec }) as unknown as SidecarSet;
const specOf = (s: SidecarSet) => s.spec as unknown as Obj;
const container = (c: Obj) => (specOf(defaultSidecarSet(set({ containers: [{ name: 'c', image: 'x:1', ...c }] }))).containers as Obj[])[0]!;
const initContainer = (c: Obj) => (specOf(defaultSidecarSet(set({ initContainers: [{ name: 'c', image: 'x:1', ...c }] }))).initContainers as Obj[])[0]!;
const volume = (v: Obj) => (specOf(defaultSidecarSet(set({ volumes: [{ name: 'v', ...v }] }))).volumes as Obj[])[0]!;

describe('defaultSidecarSet: spec', () => {
  it.each<[string, Obj, Obj]>([
    ['updateStrategy RollingUpdate, maxUnavailable 1, partition 0', {}, { updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 } }],
    ['updateStrategy values kept', { updateStrategy: { type: 'NotUpdate', maxUnavailable: '10%', partition: 3 } }, { updateStrategy: { type: 'NotUpdate', maxUnavailable: '10%', partition: 3 } }],
    ['revisionHistoryLimit 10', {}, { revisionHistoryLimit: 10 }],
    ['revisionHistoryLimit kept (0 included)', { revisionHistoryLimit: 0 }, { revisionHistoryLimit: 0 }],
    ['patchPolicy Retain', { patchPodMetadata: [{ annotations: { a: 'b' } }, { annotations: { c: 'd' }, patchPolicy: 'Overwrite' }] },
      { patchPodMetadata: [{ annotations: { a: 'b' }, patchPolicy: 'Retain' }, { annotations: { c: 'd' }, patchPolicy: 'Overwrite' }] }],
    ['revision policy Always when a revision is given', { injectionStrategy: { revision: { customVersion: '1' } } },
      { injectionStrategy: { revision: { customVersion: '1', policy: 'Always' } } }],
    ['revision policy kept', { injectionStrategy: { revision: { revisionName: 'r', policy: 'Partial' } } },
      { injectionStrategy: { revision: { revisionName: 'r', policy: 'Partial' } } }],
    ['no revision, no policy', { injectionStrategy: { paused: true } }, { injectionStrategy: { paused: true } }],
  ])('%s', (_name, spec, want) => {
    expect(specOf(defaultSidecarSet(set(spec)))).toMatchObject(want);
  });

  it('does not touch its input, and is idempotent', () => {
    const input = set({ containers: [{ name: 'c', image: 'x' }] });
    const copy = structuredClone(input);
    const once = defaultSidecarSet(input);
    expect(input).toEqual(copy);
    expect(defaultSidecarSet(once)).toEqual(once);
  });
});

describe('defaultSidecarSet: containers', () => {
  it.each<[string, Obj, Obj]>([
    ['podInjectPolicy BeforeAppContainer, ColdUpgrade, share disabled', {},
      { podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, shareVolumePolicy: { type: 'disabled' } }],
    ['injection settings kept', { podInjectPolicy: 'AfterAppContainer', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' }, shareVolumePolicy: { type: 'enabled' } },
      { podInjectPolicy: 'AfterAppContainer', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' }, shareVolumePolicy: { type: 'enabled' } }],
    ['termination message defaults', {}, { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
    ['imagePullPolicy IfNotPresent for a tag', { image: 'nginx:1.25' }, { imagePullPolicy: 'IfNotPresent' }],
    ['imagePullPolicy Always for latest', { image: 'nginx:latest' }, { imagePullPolicy: 'Always' }],
    ['imagePullPolicy Always without a tag', { image: 'registry.example.com:5000/team/nginx' }, { imagePullPolicy: 'Always' }],
    ['imagePullPolicy IfNotPresent for a digest', { image: `nginx@sha256:${'a'.repeat(64)}` }, { imagePullPolicy: 'IfNotPresent' }],
    ['imagePullPolicy kept', { image: 'nginx', imagePullPolicy: 'Never' }, { imagePullPolicy: 'Never' }],
    ['port protocol TCP', { ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }] }, { ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }] }],
    ['env fieldRef apiVersion v1', { env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] },
      { env: [{ name: 'N', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }] }],
    ['transferEnv fieldRef apiVersion v1', { transferEnv: [{ sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } }, envName: 'X' }] },
      { transferEnv: [{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } }, envName: 'X' }] }],
    ['resource quantities rounded to milli and canonical', { resources: { limits: { cpu: '0.0001', memory: '1024Mi' }, requests: { cpu: '0.5' } } },
      { resources: { limits: { cpu: '1m', memory: '1Gi' }, requests: { cpu: '500m' } } }],
    ['liveness and readiness probe defaults', { livenessProbe: { httpGet: { port: 80 } }, readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 } }, {
      livenessProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
      readinessProbe: { exec: { command: ['true'] }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 },
    }],
    ['lifecycle httpGet defaults', { lifecycle: { preStop: { httpGet: { port: 80 } }, postStart: { httpGet: { port: 81, path: '/x', scheme: 'HTTPS' } } } },
      { lifecycle: { preStop: { httpGet: { port: 80, path: '/', scheme: 'HTTP' } }, postStart: { httpGet: { port: 81, path: '/x', scheme: 'HTTPS' } } } }],
  ])('%s', (_name, c, want) => {
    expect(container(c)).toMatchObject(want);
  });

  it('a startupProbe is not defaulted (OpenKruise 1.8 defaults only liveness and readiness)', () => {
    expect(container({ startupProbe: { tcpSocket: { port: 80 } } }).startupProbe).toEqual({ tcpSocket: { port: 80 } });
  });

  it('init containers default to AfterAppContainer', () => {
    expect(initContainer({})).toMatchObject({ podInjectPolicy: 'AfterAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, imagePullPolicy: 'IfNotPresent' });
  });
});

describe('defaultSidecarSet: volumes', () => {
  it.each<[string, Obj, Obj]>([
    ['no source ⇒ emptyDir', {}, { name: 'v', emptyDir: {} }],
    ['hostPath type ""', { hostPath: { path: '/x' } }, { name: 'v', hostPath: { path: '/x', type: '' } }],
    ['secret defaultMode 420', { secret: { secretName: 's' } }, { name: 'v', secret: { secretName: 's', defaultMode: 420 } }],
    ['configMap defaultMode 420', { configMap: { name: 'c', defaultMode: 256 } }, { name: 'v', configMap: { name: 'c', defaultMode: 256 } }],
    ['downwardAPI defaultMode and fieldRef apiVersion', { downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      { name: 'v', downwardAPI: { defaultMode: 420, items: [{ path: 'l', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] } }],
    ['projected defaultMode, fieldRef and token expiry', { projected: { sources: [{ downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }, { serviceAccountToken: { path: 't' } }] } },
      { name: 'v', projected: { defaultMode: 420, sources: [{ downwardAPI: { items: [{ path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }] } }, { serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] } }],
    ['iscsi interface (SetDefaultPodVolumes)', { iscsi: { targetPortal: 'p', iqn: 'iqn.x', lun: 0 } }, { name: 'v', iscsi: { targetPortal: 'p', iqn: 'iqn.x', lun: 0, iscsiInterface: 'default' } }],
    ['rbd pool, user, keyring', { rbd: { monitors: ['m'], image: 'i' } }, { name: 'v', rbd: { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } }],
    ['azureDisk caching, kind, fsType, readOnly', { azureDisk: { diskName: 'd', diskURI: 'u' } },
      { name: 'v', azureDisk: { diskName: 'd', diskURI: 'u', cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false } }],
    ['scaleIO storageMode and fsType', { scaleIO: { gateway: 'g', system: 's' } }, { name: 'v', scaleIO: { gateway: 'g', system: 's', storageMode: 'ThinProvisioned', fsType: 'xfs' } }],
    ['other sources untouched', { persistentVolumeClaim: { claimName: 'c' } }, { name: 'v', persistentVolumeClaim: { claimName: 'c' } }],
  ])('%s', (_name, v, want) => {
    expect(volume(v)).toEqual(want);
  });
});

describe('imageTag', () => {
  it.each([
    ['nginx', 'latest'],
    ['nginx:1.25', '1.25'],
    ['library/nginx:1', '1'],
    ['localhost:5000/a/b', 'latest'],
    ['localhost:5000/a/b:v2', 'v2'],
    [`a@sha256:${'0'.repeat(64)}`, ''],
    ['Nginx:1', ''], // not a valid reference: the tag is unknown
    ['', ''],
  ])('%s → %s', (image, want) => {
    expect(imageTag(image)).toBe(want);
  });
});

describe('defaultSidecarSet: the object OpenKruise marshals', () => {
  // OpenKruise's TestMutatingSidecarSetFn input, and what json.Marshal writes for its spec after
  // SetDefaultsSidecarSet: struct fields (resources, injectionStrategy, …) are never omitted.
  it('matches the Go object field for field', () => {
    const input = set({
      containers: [{ name: 'dns-f', image: 'dns:1.0' }],
      patchPodMetadata: [{ annotations: { key1: 'value1' } }],
      injectionStrategy: { revision: { customVersion: '1' } },
    });
    expect(specOf(defaultSidecarSet(input))).toEqual({
      containers: [{
        name: 'dns-f', image: 'dns:1.0', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent', podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, shareVolumePolicy: { type: 'disabled' },
      }],
      updateStrategy: { type: 'RollingUpdate', partition: 0, maxUnavailable: 1 },
      injectionStrategy: { revision: { customVersion: '1', policy: 'Always' } },
      revisionHistoryLimit: 10,
      patchPodMetadata: [{ annotations: { key1: 'value1' }, patchPolicy: 'Retain' }],
    });
  });

  it('a defaulted container is the one OpenKruise hashes (../shared/SEMANTICS.md §2.2), as the API server stores it', () => {
    const go = '{"name":"dns-f","image":"dns:1.0","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent","podInjectPolicy":"BeforeAppContainer","upgradeStrategy":{"upgradeType":"ColdUpgrade"},"shareVolumePolicy":{"type":"disabled"}}';
    const ours = (specOf(defaultSidecarSet(set({ containers: [{ name: 'dns-f', image: 'dns:1.0' }] }))).containers as Obj[])[0];
    // Stored custom resources are re-encoded with sorted keys, so equal content is equal bytes.
    expect(goJSON(ours)).toBe(goJSON(JSON.parse(go)));
  });

  it.each<[string, Obj, Obj]>([
    ['resources {} on containers and init containers', { containers: [{ name: 'c', image: 'x:1' }], initContainers: [{ name: 'i', image: 'x:1', resources: null }] },
      { containers: [{ resources: {} }], initContainers: [{ resources: {} }] }],
    ['resources kept', { containers: [{ name: 'c', image: 'x:1', resources: { limits: { cpu: '1' } } }] }, { containers: [{ resources: { limits: { cpu: '1' } } }] }],
    ['injectionStrategy {} when left out', {}, { injectionStrategy: {} }],
    ['injectionStrategy kept', { injectionStrategy: { paused: true } }, { injectionStrategy: { paused: true } }],
  ])('%s', (_name, spec, want) => {
    expect(specOf(defaultSidecarSet(set(spec)))).toMatchObject(want);
  });
});

describe('withHashAnnotations', () => {
  // OpenKruise's TestMutatingSidecarSetFn (older version): a container with a volume mount.
  it('matches OpenKruise for a defaulted container with a volume mount', async () => {
    const s = defaultSidecarSet(set({ containers: [{ name: 'dns-f', image: 'dns:1.0', volumeMounts: [{ name: 'podinfo', mountPath: '/etc/podinfo' }] }] }));
    expect((await withHashAnnotations(s)).metadata.annotations?.[HASH_ANNOTATION]).toBe('7b64cw4d5xv2wvx6229fbxzf4x55wvzwxc47fvd6bbx97d44xcz6xf8844594xbz');
  });

  it('adds both hashes, overwriting user values and keeping other annotations', async () => {
    const s = defaultSidecarSet(set({ containers: [{ name: 'dns-f', image: 'dns:1.0' }] }, { name: 's', annotations: { keep: 'me', [HASH_ANNOTATION]: 'forged' } }));
    const out = await withHashAnnotations(s);
    expect(out.metadata.annotations).toEqual({
      keep: 'me',
      [HASH_ANNOTATION]: '6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684',
      [HASH_WITHOUT_IMAGE_ANNOTATION]: '82684vwf9d4cb4wz4vffx4ddfbb47ww4z4wwxdbwb8w2zbb7zvf4524cdd49bv94',
    });
  });
});
