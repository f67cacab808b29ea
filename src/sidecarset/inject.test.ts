import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultSidecarSet, withHashAnnotations } from './defaults.js';
import { injectSidecarSets, type InjectablePod } from './inject.js';
import type { SidecarSet } from './types.js';
import { deepFreeze } from '../kube/frozen.js';

const NOW = new Date('2026-11-23T10:00:00.123Z');
const STAMP = '2026-11-23T10:00:00Z';
const seed = (file: string) => parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/seeds', file), 'utf8')) as SidecarSet;

type Spec = SidecarSet['spec'];
function set(name: string, spec: Partial<Spec>, extra: Partial<SidecarSet> = {}): SidecarSet {
  return defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name, annotations: { 'kruise.io/sidecarset-hash': `h-${name}`, 'kruise.io/sidecarset-hash-without-image': `w-${name}` } },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [], ...spec } as Spec,
    ...extra,
  } as SidecarSet);
}

function pod(spec: Record<string, unknown> = {}, annotations?: Record<string, string>, labels: Record<string, string> = { app: 'web' }): InjectablePod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', labels, ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'main', image: 'app:1' }], ...spec },
  };
}

function inject(p: InjectablePod, ...sets: SidecarSet[]): InjectablePod {
  const r = injectSidecarSets(p, sets, NOW, 'ns');
  if ('error' in r) throw new Error(r.error);
  return r.pod;
}
const names = (cs: { name?: string }[] | undefined) => (cs ?? []).map((c) => c.name);
const env = (p: InjectablePod, container: string) => p.spec?.containers?.find((c) => c.name === container)?.env;

describe('container placement (§2.4.6)', () => {
  it.each([
    ['BeforeAppContainer goes first', 'BeforeAppContainer', ['side', 'main']],
    ['AfterAppContainer goes last', 'AfterAppContainer', ['main', 'side']],
  ] as const)('%s', (_n, policy, want) => {
    const out = inject(pod(), set('s', { containers: [{ name: 'side', image: 'side:1', podInjectPolicy: policy }] }));
    expect(names(out.spec?.containers)).toEqual(want);
  });

  it('keeps build order within a group, across sets', () => {
    const a = set('a', { containers: [{ name: 'a1', image: 'x' }, { name: 'a2', image: 'x', podInjectPolicy: 'AfterAppContainer' }] });
    const b = set('b', { containers: [{ name: 'b1', image: 'x' }] });
    expect(names(inject(pod(), a, b).spec?.containers)).toEqual(['a1', 'b1', 'main', 'a2']);
  });

  it('replaces a pod container with the sidecar of the same name, in place (§8)', () => {
    const p = pod({ containers: [{ name: 'main', image: 'app:1' }, { name: 'side', image: 'placeholder' }, { name: 'tail', image: 't' }] });
    const out = inject(p, set('s', { containers: [{ name: 'side', image: 'side:2' }] }));
    expect(names(out.spec?.containers)).toEqual(['main', 'side', 'tail']);
    expect(out.spec?.containers?.[1]?.image).toBe('side:2');
  });

  it('sorts injected init containers by name; After (the default) after the pod’s own', () => {
    const s = set('s', { initContainers: [{ name: 'z-init', image: 'x' }, { name: 'b-init', image: 'x' }, { name: 'a-first', image: 'x', podInjectPolicy: 'BeforeAppContainer' }] });
    const out = inject(pod({ initContainers: [{ name: 'own', image: 'o' }] }), s);
    expect(names(out.spec?.initContainers)).toEqual(['a-first', 'own', 'b-init', 'z-init']);
  });

  it('drops the SidecarSet-only fields and appends IS_INJECTED after the sidecar’s own env', () => {
    const out = inject(pod(), set('s', { containers: [{ name: 'side', image: 'x', env: [{ name: 'A', value: '1' }] }] }));
    const side = out.spec!.containers![0]!;
    expect(side).not.toHaveProperty('podInjectPolicy');
    expect(side).not.toHaveProperty('upgradeStrategy');
    expect(side).not.toHaveProperty('shareVolumePolicy');
    expect(side.env).toEqual([{ name: 'A', value: '1' }, { name: 'IS_INJECTED', value: 'true' }]);
  });

  it('refuses two sets injecting the same container name, naming both', () => {
    const r = injectSidecarSets(pod(), [set('a', { containers: [{ name: 'dup', image: 'x' }] }), set('b', { containers: [{ name: 'dup', image: 'y' }] })], NOW, 'ns');
    expect(r).toEqual({ error: expect.stringContaining('sidecarsets "a" and "b" both inject a container named "dup"') });
  });
});

describe('sets held read-only (as in an injection plan)', () => {
  it('gives each pod its own env and mounts on the shared, frozen sidecar', () => {
    const sidecar = { name: 'proxy', image: 'envoy:1', env: [{ name: 'A', value: '1' }], shareVolumePolicy: { type: 'enabled' }, transferEnv: [{ sourceContainerName: 'main', envName: 'TZ' }] };
    const frozen = deepFreeze(set('mesh', { containers: [sidecar] as Spec['containers'] }));
    const first = inject(pod({ containers: [{ name: 'main', image: 'app:1', env: [{ name: 'TZ', value: 'UTC' }], volumeMounts: [{ name: 'data', mountPath: '/data' }] }] }), frozen);
    const second = inject(pod({ containers: [{ name: 'main', image: 'app:1', env: [{ name: 'TZ', value: 'CET' }] }] }), frozen);
    expect(env(first, 'proxy')).toEqual([{ name: 'A', value: '1' }, { name: 'IS_INJECTED', value: 'true' }, { name: 'TZ', value: 'UTC' }]);
    expect(env(second, 'proxy')).toEqual([{ name: 'A', value: '1' }, { name: 'IS_INJECTED', value: 'true' }, { name: 'TZ', value: 'CET' }]);
    expect(first.spec?.containers?.find((c) => c.name === 'proxy')?.volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }]);
    expect(second.spec?.containers?.find((c) => c.name === 'proxy')?.volumeMounts).toEqual([]);
  });
});

describe('volumes and image pull secrets', () => {
  it('injects only the set volumes its sidecars mount; the pod’s own volume wins a name clash', () => {
    const s = set('s', {
      containers: [{ name: 'side', image: 'x', volumeMounts: [{ name: 'logs', mountPath: '/l' }, { name: 'conf', mountPath: '/c' }] }],
      volumes: [{ name: 'logs', emptyDir: {} }, { name: 'conf', hostPath: { path: '/etc/x' } }, { name: 'unused', emptyDir: {} }],
    });
    const out = inject(pod({ volumes: [{ name: 'conf', configMap: { name: 'mine' } }] }), s);
    expect(out.spec?.volumes).toEqual([{ name: 'conf', configMap: { name: 'mine' } }, { name: 'logs', emptyDir: {} }]);
  });

  it('de-duplicates the pod’s image pull secrets and adds the set’s missing ones', () => {
    const s = set('s', { containers: [{ name: 'side', image: 'x' }], imagePullSecrets: [{ name: 'a' }, { name: 'c' }] });
    const out = inject(pod({ imagePullSecrets: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] }), s);
    expect(out.spec?.imagePullSecrets).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  });
});

describe('shareVolumePolicy and transferEnv (§2.4.5)', () => {
  const app = {
    name: 'main', image: 'app:1',
    env: [{ name: 'POD', value: 'p1' }, { name: 'PROXY_IP', value: '10.0.0.1' }, { name: 'B', value: 'b' }, { name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
    volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'logs', mountPath: '/logs', subPathExpr: '$(POD)' }, { name: 'clash', mountPath: '/l' }],
  };

  it('enabled: shares the app containers’ mounts (mountPath clashes keep the sidecar’s) and the env their subPathExpr needs', () => {
    const s = set('s', { containers: [{ name: 'side', image: 'x', shareVolumePolicy: { type: 'enabled' }, volumeMounts: [{ name: 'own', mountPath: '/l' }] }], volumes: [{ name: 'own', emptyDir: {} }] });
    const out = inject(pod({ containers: [app] }), s);
    const side = out.spec!.containers![0]!;
    expect(side.volumeMounts).toEqual([{ name: 'own', mountPath: '/l' }, { name: 'data', mountPath: '/data' }, { name: 'logs', mountPath: '/logs', subPathExpr: '$(POD)' }]);
    expect(side.env).toEqual([{ name: 'IS_INJECTED', value: 'true' }, { name: 'POD', value: 'p1' }]);
  });

  it('disabled: shares nothing', () => {
    const out = inject(pod({ containers: [app] }), set('s', { containers: [{ name: 'side', image: 'x' }] }));
    expect(out.spec!.containers![0]!.volumeMounts).toEqual([]);
  });

  it('copies named env vars whole, names sorted, skipping missing ones and names the sidecar has', () => {
    const s = set('s', {
      containers: [{ name: 'side', image: 'x', env: [{ name: 'B', value: 'mine' }], transferEnv: [{ sourceContainerName: 'main', envNames: ['PROXY_IP', 'A', 'B', 'MISSING'] }] }],
    });
    expect(env(inject(pod({ containers: [app] }), s), 'side')).toEqual([
      { name: 'B', value: 'mine' }, { name: 'IS_INJECTED', value: 'true' },
      { name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }, { name: 'PROXY_IP', value: '10.0.0.1' },
    ]);
  });

  it('reads the source container from a pod label (sourceContainerNameFrom)', () => {
    const s = set('s', {
      containers: [{ name: 'side', image: 'x', transferEnv: [{ sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['src']" } }, envName: 'PROXY_IP' }] }],
    });
    const p = pod({ containers: [app] }, undefined, { app: 'web', src: 'main' });
    expect(env(inject(p, s), 'side')).toContainEqual({ name: 'PROXY_IP', value: '10.0.0.1' });
    expect(env(inject(pod({ containers: [app] }), s), 'side')).toEqual([{ name: 'IS_INJECTED', value: 'true' }]);
  });

  it('seed 000 container injection: nginx before main, PROXY_IP transferred, hostPath volume', () => {
    const s = defaultSidecarSet(seed('000-sidecarset-container-injection.yaml'));
    const out = inject(pod({ containers: [app] }, undefined, { app: 'sample' }), s);
    expect(names(out.spec?.containers)).toEqual(['nginx', 'main']);
    expect(env(out, 'nginx')).toEqual([{ name: 'IS_INJECTED', value: 'true' }, { name: 'PROXY_IP', value: '10.0.0.1' }]);
    expect(out.spec?.volumes).toEqual([{ name: 'nginx-conf', hostPath: { path: '/data/nginx/conf', type: '' } }]);
  });
});

describe('hot upgrade (§2.4.7)', () => {
  it('seed 003: nginx-sidecar-1 with the image, -2 with the empty image, version env and annotations', () => {
    const s = defaultSidecarSet(seed('003-sidecarset-hot-upgrade.yaml'));
    const out = inject(pod({}, { 'kruise.io/sidecarset-working-hotupgrade-container': '{"other":"other-2"}' }), s);
    expect(names(out.spec?.containers)).toEqual(['nginx-sidecar-1', 'nginx-sidecar-2', 'main']);
    const [one, two] = out.spec!.containers!;
    expect([one!.image, two!.image]).toEqual(['nginx:1.18', 'empty:1.0.0']);
    expect(one!.env).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'SIDECARSET_VERSION', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['version.sidecarset.kruise.io/nginx-sidecar-1']" } } },
      { name: 'SIDECARSET_VERSION_ALT', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['versionalt.sidecarset.kruise.io/nginx-sidecar-1']" } } },
    ]);
    expect(out.metadata?.annotations).toMatchObject({
      'version.sidecarset.kruise.io/nginx-sidecar-1': '1',
      'versionalt.sidecarset.kruise.io/nginx-sidecar-1': '0',
      'version.sidecarset.kruise.io/nginx-sidecar-2': '0',
      'versionalt.sidecarset.kruise.io/nginx-sidecar-2': '1',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"nginx-sidecar":"nginx-sidecar-1","other":"other-2"}',
    });
    expect(JSON.parse(out.metadata!.annotations!['kruise.io/sidecarset-hash']!)['nginx-sidecar-hotupgrade'].sidecarList).toEqual(['nginx-sidecar']);
  });
});

describe('annotations (§2.4.4, §2.4.6)', () => {
  it('writes the hash entries exactly as Go does, and the sorted injected list', async () => {
    const s = await withHashAnnotations(defaultSidecarSet(seed('000-sidecarset-basic.yaml')));
    const withRevision = { ...s, status: { matchedPods: 0, updatedPods: 0, readyPods: 0, latestRevision: 'test-sidecarset-5f8c' } };
    const out = inject(pod({}, { 'kruise.io/sidecarset-injected-list': 'zeta' }, { app: 'nginx' }), withRevision);
    const hash = s.metadata!.annotations!['kruise.io/sidecarset-hash'];
    const without = s.metadata!.annotations!['kruise.io/sidecarset-hash-without-image'];
    expect(out.metadata?.annotations).toEqual({
      'kruise.io/sidecarset-hash': `{"test-sidecarset":{"updateTimestamp":"${STAMP}","hash":"${hash}","sidecarSetName":"test-sidecarset","sidecarList":["sidecar1"],"controllerRevision":"test-sidecarset-5f8c"}}`,
      'kruise.io/sidecarset-hash-without-image': `{"test-sidecarset":{"updateTimestamp":"${STAMP}","hash":"${without}","sidecarSetName":"test-sidecarset","sidecarList":["sidecar1"]}}`,
      'kruise.io/sidecarset-injected-list': 'test-sidecarset,zeta',
    });
  });

  it('keeps other sets’ entries and converts the legacy {"set":"hash"} form', () => {
    const out = inject(pod({}, { 'kruise.io/sidecarset-hash': '{"old":"abc"}' }), set('s', { containers: [{ name: 'side', image: 'x' }] }));
    const entries = JSON.parse(out.metadata!.annotations!['kruise.io/sidecarset-hash']!);
    expect(Object.keys(entries)).toEqual(['old', 's']);
    expect(entries.old).toEqual({ updateTimestamp: STAMP, hash: 'abc', sidecarSetName: 'old', sidecarList: null });
  });

  it('fails on an unreadable hash annotation, naming the pod', () => {
    const r = injectSidecarSets(pod({}, { 'kruise.io/sidecarset-hash': '[1,2]' }), [set('s', { containers: [{ name: 'side', image: 'x' }] })], NOW, 'ns');
    expect(r).toEqual({ error: expect.stringMatching(/^pod\(ns\/p\) invalid annotations\[kruise.io\/sidecarset-hash\] value \[1,2\], unmarshal failed/) });
  });

  it.each([
    ['Retain keeps the pod’s value', 'Retain', '{"a":1}', '{"a":1}'],
    ['Overwrite replaces it', 'Overwrite', '{"a":1}', '{"b": 2}'],
    ['MergePatchJson merges, keys sorted', 'MergePatchJson', '{"z":1,"a":1}', '{"a":1,"b":2,"z":1}'],
    ['MergePatchJson sets an absent key verbatim', 'MergePatchJson', undefined, '{"b": 2}'],
  ] as const)('patchPodMetadata: %s', (_n, policy, before, want) => {
    const s = set('s', { containers: [{ name: 'side', image: 'x' }], patchPodMetadata: [{ annotations: { cfg: '{"b": 2}' }, patchPolicy: policy }] });
    const out = inject(pod({}, before === undefined ? undefined : { cfg: before }), s);
    expect(out.metadata?.annotations?.cfg).toBe(want);
  });

  it('leaves a pod alone when no set is given', () => {
    const p = pod();
    expect(injectSidecarSets(p, [], NOW, 'ns')).toEqual({ pod: p });
  });
});
