// Injection of the SidecarSet fields of OpenKruise 1.9: native sidecars, resourcesPolicy (with the
// vectors of OpenKruise's sidecarset_resources_test.go), shareVolumeDevicePolicy and the
// EnableSortSidecarContainerByName gate.
import { describe, expect, it } from 'vitest';
import { defaultSidecarSet } from './defaults.js';
import { injectSidecarSets, type InjectablePod } from './inject.js';
import type { SidecarSet } from './types.js';
import type { Container } from '../workload/pods.js';

const NOW = new Date('2026-11-23T10:00:00.123Z');
type Spec = SidecarSet['spec'];
type Obj = Record<string, unknown>;

function set(name: string, spec: Partial<Spec>): SidecarSet {
  return defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name, annotations: { 'kruise.io/sidecarset-hash': `h-${name}`, 'kruise.io/sidecarset-hash-without-image': `w-${name}` } },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [], ...spec } as Spec,
  } as SidecarSet);
}
const pod = (spec: Obj): InjectablePod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' } }, spec: { containers: [], ...spec } });
const app = (name: string, limits: Obj, requests: Obj, extra: Obj = {}): Container => ({ name, image: 'nginx:1.14.2', resources: { limits, requests }, ...extra });
const names = (cs: { name?: string }[] | undefined) => (cs ?? []).map((c) => c.name);

function inject(p: InjectablePod, sets: SidecarSet[], opts = {}): InjectablePod {
  const r = injectSidecarSets(p, sets, NOW, 'ns', opts);
  if ('error' in r) throw new Error(r.error);
  return r.pod;
}
const injectError = (p: InjectablePod, sets: SidecarSet[]) => {
  const r = injectSidecarSets(p, sets, NOW, 'ns');
  return 'error' in r ? r.error : undefined;
};
const resourcesOf = (p: InjectablePod, name: string, init = false) =>
  ((init ? p.spec?.initContainers : p.spec?.containers) ?? []).find((c) => c.name === name)?.resources;

const policy = (mode: string, regex: string, limits?: Obj, requests?: Obj) => ({
  targetContainersMode: mode, targetContainersNameRegex: regex, resourcesExpr: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) },
});
const sidecarWith = (resourcesPolicy: Obj) => set('rp', { containers: [{ name: 'sidecar1', image: 'sidecar:latest', resourcesPolicy } as never] });

const TWO_APPS = [
  app('large.engine.v4', { cpu: '200m', memory: '200Mi' }, { cpu: '50m', memory: '100Mi' }),
  app('large.engine.v8', { cpu: '400m', memory: '400Mi' }, { cpu: '100m', memory: '200Mi' }),
];

describe('resourcesPolicy (OpenKruise sidecarset_resources_test.go vectors)', () => {
  it.each([
    ['sum with percentages', policy('sum', '.*', { cpu: 'cpu*50%', memory: '200Mi' }, { cpu: 'cpu*50%', memory: '100Mi' }), TWO_APPS,
      { limits: { cpu: '300m', memory: '200Mi' }, requests: { cpu: '75m', memory: '100Mi' } }],
    ['max with an expression', policy('max', '^large.engine.v.*$', { cpu: 'max(cpu*50%, 50m)', memory: '200Mi' }, { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' }), TWO_APPS,
      { limits: { cpu: '200m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' } }],
    ['a regex that picks one container', policy('sum', '^large.engine.v4$', { cpu: 'max(cpu*50%, 50m)', memory: '200Mi' }, { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' }), TWO_APPS,
      { limits: { cpu: '100m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' } }],
    ['sum, one container without a CPU limit: the CPU limit stays unlimited', policy('sum', '.*', { cpu: 'cpu*50%', memory: 'memory*30%' }, { cpu: 'cpu*30%', memory: 'memory*20%' }),
      [app('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' }), app('app2', { memory: '400Mi' }, { cpu: '50m', memory: '200Mi' })],
      { limits: { memory: '180Mi' }, requests: { cpu: '45m', memory: '60Mi' } }],
    ['max, one container without a memory limit', policy('max', '.*', { cpu: 'cpu*40%', memory: 'memory*30%' }, { cpu: 'cpu*25%', memory: 'memory*20%' }),
      [app('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' }), app('app2', { cpu: '400m' }, { cpu: '200m' })],
      { limits: { cpu: '160m' }, requests: { cpu: '50m', memory: '20Mi' } }],
    ['sum, a container without requests counts as 0', policy('sum', '.*', { cpu: 'cpu*50%', memory: 'memory*30%' }, { cpu: 'cpu*30%', memory: 'memory*20%' }),
      [app('app1', { cpu: '200m', memory: '200Mi' }, { cpu: '100m', memory: '100Mi' }), { name: 'app2', image: 'nginx', resources: { limits: { cpu: '400m', memory: '400Mi' } } }],
      { limits: { cpu: '300m', memory: '180Mi' }, requests: { cpu: '30m', memory: '20Mi' } }],
  ])('%s', (_name, rp, containers, want) => {
    const out = inject(pod({ containers }), [sidecarWith(rp)]);
    expect(resourcesOf(out, 'sidecar1')).toEqual(want);
  });

  it('a native sidecar init container sized from the pod’s native sidecars and containers', () => {
    const s = set('rp', {
      initContainers: [{ name: 'init-sidecar', image: 'sidecar:latest', restartPolicy: 'Always',
        resourcesPolicy: policy('sum', '^app.*$', { cpu: 'max(cpu*30%, 50m)', memory: 'max(memory*25%, 100Mi)' }, { cpu: 'cpu*20%', memory: 'memory*15%' }) } as never],
    });
    const p = pod({
      initContainers: [
        app('app1', { cpu: '400m', memory: '800Mi' }, { cpu: '200m', memory: '400Mi' }, { restartPolicy: 'Always' }),
        app('app2', { cpu: '400m', memory: '800Mi' }, { cpu: '200m', memory: '400Mi' }), // a plain init container: not a target
      ],
      containers: [app('app2', { cpu: '600m', memory: '1200Mi' }, { cpu: '300m', memory: '600Mi' })],
    });
    expect(resourcesOf(inject(p, [s]), 'init-sidecar', true)).toEqual({ limits: { cpu: '300m', memory: '500Mi' }, requests: { cpu: '100m', memory: '150Mi' } });
  });

  it('no matching container refuses the pod; containers any matched set injects are never targets', () => {
    expect(injectError(pod({ containers: TWO_APPS }), [sidecarWith(policy('sum', '^nonexistent$', { cpu: 'cpu*50%' }))]))
      .toBe('no containers match the regex pattern "^nonexistent$"');
    const other = set('other', { containers: [{ name: 'large.engine.v8', image: 'x' }] });
    const out = inject(pod({ containers: TWO_APPS }), [sidecarWith(policy('sum', '.*', { cpu: 'cpu' })), other]);
    expect(resourcesOf(out, 'sidecar1')).toEqual({ limits: { cpu: '200m' } });
  });

  it('an expression that fails at admission refuses the pod with OpenKruise’s message', () => {
    expect(injectError(pod({ containers: TWO_APPS }), [sidecarWith(policy('sum', '.*', { cpu: 'cpu - 1' }))]))
      .toBe('failed to evaluate CPU limits expression: failed to parse expression "cpu - 1": calculation result is negative: -400m');
  });

  it('does not touch the SidecarSet (its objects are shared between pods)', () => {
    const s = sidecarWith(policy('sum', '.*', { cpu: 'cpu' }));
    const before = JSON.stringify(s);
    expect(resourcesOf(inject(pod({ containers: TWO_APPS }), [s]), 'sidecar1')).toEqual({ limits: { cpu: '600m' } });
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe('native sidecars (initContainers with restartPolicy Always)', () => {
  it('go after the pod’s init containers, sorted by name with the plain ones, and are listed in sidecarList', () => {
    const s = set('native', { initContainers: [
      { name: 'z-proxy', image: 'envoy:1', restartPolicy: 'Always' },
      { name: 'a-setup', image: 'busybox:1' },
    ] as never });
    const out = inject(pod({ initContainers: [{ name: 'own-init', image: 'busybox' }], containers: [{ name: 'main', image: 'app:1' }] }), [s]);
    expect(names(out.spec?.initContainers)).toEqual(['own-init', 'a-setup', 'z-proxy']);
    expect(out.spec?.initContainers?.[2]).toMatchObject({ restartPolicy: 'Always', env: [{ name: 'IS_INJECTED', value: 'true' }] });
    const hash = JSON.parse(out.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Record<string, { sidecarList: string[] }>;
    expect(hash['native']?.sidecarList).toEqual(['z-proxy']);
  });

  it('a HotUpgrade native sidecar gets its -1/-2 pair; a plain init container with HotUpgrade does not', () => {
    const hot = { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' };
    const s = set('hot', { initContainers: [
      { name: 'proxy', image: 'envoy:1', restartPolicy: 'Always', upgradeStrategy: hot },
      { name: 'setup', image: 'busybox:1', upgradeStrategy: hot },
    ] as never });
    const out = inject(pod({ containers: [{ name: 'main', image: 'app:1' }] }), [s]);
    expect(names(out.spec?.initContainers)).toEqual(['proxy-1', 'proxy-2', 'setup']);
    expect(out.spec?.initContainers?.map((c) => c.image)).toEqual(['envoy:1', 'empty:1', 'busybox:1']);
    expect(JSON.parse(out.metadata!.annotations!['kruise.io/sidecarset-working-hotupgrade-container']!)).toEqual({ proxy: 'proxy-1' });
  });
});

describe('shareVolumeDevicePolicy', () => {
  const devicePod = () => pod({
    containers: [{ name: 'main', image: 'app:1', volumeDevices: [{ name: 'block', devicePath: '/dev/xvda' }, { name: 'raw', devicePath: '/data' }] }],
    volumes: [{ name: 'block', persistentVolumeClaim: { claimName: 'b' } }, { name: 'raw', persistentVolumeClaim: { claimName: 'r' } }],
  });

  it('enabled: the sidecar maps the app containers’ devices, skipping paths it already mounts', () => {
    const s = set('dev', { containers: [{ name: 'agent', image: 'a:1', shareVolumeDevicePolicy: { type: 'enabled' }, volumeMounts: [{ name: 'cfg', mountPath: '/data' }] } as never],
      volumes: [{ name: 'cfg', emptyDir: {} }] });
    const out = inject(devicePod(), [s]);
    const agent = out.spec?.containers?.find((c) => c.name === 'agent');
    expect(agent?.volumeDevices).toEqual([{ name: 'block', devicePath: '/dev/xvda' }]);
    expect(names(out.spec?.volumes)).toEqual(['block', 'raw', 'cfg']);
  });

  it('unset or disabled: no devices; a set volume a sidecar maps as a device is injected', () => {
    const off = set('off', { containers: [{ name: 'agent', image: 'a:1', shareVolumeDevicePolicy: { type: 'disabled' } } as never] });
    expect(inject(devicePod(), [off]).spec?.containers?.find((c) => c.name === 'agent')?.volumeDevices).toBeUndefined();
    const own = set('own', { containers: [{ name: 'agent', image: 'a:1', volumeDevices: [{ name: 'disk', devicePath: '/dev/sdb' }] } as never],
      volumes: [{ name: 'disk', persistentVolumeClaim: { claimName: 'd' } }] });
    expect(names(inject(devicePod(), [own]).spec?.volumes)).toEqual(['block', 'raw', 'disk']);
  });

  it('a shared volume mount is skipped where the sidecar maps a device at that path (MergeVolumeMounts)', () => {
    const s = set('mix', { containers: [{ name: 'agent', image: 'a:1', shareVolumePolicy: { type: 'enabled' }, volumeDevices: [{ name: 'disk', devicePath: '/logs' }] } as never] });
    const p = pod({ containers: [{ name: 'main', image: 'app:1', volumeMounts: [{ name: 'l', mountPath: '/logs' }, { name: 'd', mountPath: '/data' }] }] });
    expect((inject(p, [s]).spec?.containers?.find((c) => c.name === 'agent')?.volumeMounts as { mountPath: string }[] | undefined)?.map((m) => m.mountPath)).toEqual(['/data']);
  });
});

describe('EnableSortSidecarContainerByName', () => {
  const sets = () => [set('b', { containers: [{ name: 'zeta', image: 'x' }, { name: 'alpha', image: 'x', podInjectPolicy: 'AfterAppContainer' }, { name: 'omega', image: 'x', podInjectPolicy: 'AfterAppContainer' }] }),
    set('a', { containers: [{ name: 'beta', image: 'x' }] })];
  const p = () => pod({ containers: [{ name: 'main', image: 'app:1' }] });

  it('off (the default): build order within each side', () => {
    expect(names(inject(p(), sets()).spec?.containers)).toEqual(['zeta', 'beta', 'main', 'alpha', 'omega']);
  });

  it('on: the injected containers sorted by name before placing them', () => {
    expect(names(inject(p(), sets(), { sortContainersByName: true }).spec?.containers)).toEqual(['beta', 'zeta', 'main', 'alpha', 'omega']);
  });
});
