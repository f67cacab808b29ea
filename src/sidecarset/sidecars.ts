// Builds what one SidecarSet injects into a new pod (../shared/SEMANTICS.md §2.4.5, §2.4.7): its init
// containers and containers with shared volume mounts, transferred env and IS_INJECTED, the volumes
// and image pull secrets they need, and hot-upgrade pairs. Pure, Web APIs only.
import { frozenDerivation } from '../kube/frozen.js';
import { cloneJson, cloneJsonWithout } from './clone.js';
import { hotUpgradeContainerNames, isHotUpgradeContainer } from './controller/pod-state.js';
import type { Container, EnvVar } from '../workload/pods.js';
import { ENV_IS_INJECTED } from '../workload/sidecar-update-state.js';
import { isNativeSidecar } from './hash.js';
import { resourcesFor } from './resources-policy.js';
import { ENV_SIDECARSET_VERSION, ENV_SIDECARSET_VERSION_ALT, VERSION_ALT_ANNOTATION_PREFIX, VERSION_ANNOTATION_PREFIX, type SidecarContainer, type SidecarSet } from './types.js';

type Obj = Record<string, unknown>;
export type VolumeMount = { name: string; mountPath: string; subPathExpr?: string; [k: string]: unknown };
export type VolumeDevice = { name: string; devicePath: string; [k: string]: unknown };
export type Volume = { name: string; [k: string]: unknown };
export type PodSpecLike = {
  containers?: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  imagePullSecrets?: { name?: string }[];
  [k: string]: unknown;
};
export type PodMetaLike = { labels?: Record<string, string>; annotations?: Record<string, string> };

/** An injected container and where it goes. */
export type BuiltSidecar = { container: Container; policy: string };

export type BuiltSet = {
  /** Set when a sidecar's resourcesPolicy cannot be applied to this pod (the pod is refused). */
  error?: string;
  initContainers: BuiltSidecar[];
  containers: BuiltSidecar[];
  volumes: Volume[];
  imagePullSecrets: { name?: string }[];
  /** Hot-upgrade annotations this set adds: version/versionalt per container, working pairs. */
  versionAnnotations: Record<string, string>;
  workingContainers: Record<string, string>;
};

const SIDECAR_ONLY_FIELDS: ReadonlySet<string> = new Set(['podInjectPolicy', 'upgradeStrategy', 'shareVolumePolicy', 'shareVolumeDevicePolicy', 'transferEnv', 'resourcesPolicy']);
const SUBPATH_VAR = /\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g;
const LABEL_PATH = /^metadata\.labels\['(.*)'\]$/;
const ANNOTATION_PATH = /^metadata\.annotations\['(.*)'\]$/;

const envOf = (c: object): EnvVar[] => {
  const env = (c as Obj).env;
  return Array.isArray(env) ? (env as EnvVar[]) : [];
};
const mountsOf = (c: object): VolumeMount[] => {
  const mounts = (c as Obj).volumeMounts;
  return Array.isArray(mounts) ? (mounts as VolumeMount[]) : [];
};
const devicesOf = (c: object): VolumeDevice[] => {
  const devices = (c as Obj).volumeDevices;
  return Array.isArray(devices) ? (devices as VolumeDevice[]) : [];
};

/** IsInjectedSidecarContainerInPod: a container whose env says IS_INJECTED=true. */
export function isInjectedSidecar(c: Container): boolean {
  return envOf(c).some((e) => e.name === ENV_IS_INJECTED && e.value === 'true');
}

/**
 * `base`, then the items of `extra` whose key is not present yet (first occurrence wins): OpenKruise's
 * MergeEnvVar (by name), MergeVolumeMounts (by mountPath), and its volume and pull-secret merges.
 */
export function appendMissing<T>(base: readonly T[], extra: readonly T[], key: (item: T) => unknown): T[] {
  const seen = new Set(base.map(key));
  const out = [...base];
  for (const item of extra) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

const mergeEnv = (base: EnvVar[], extra: readonly EnvVar[]) => appendMissing(base, extra, (e) => e.name);

/** MergeVolumeMounts: a shared mount is skipped where the sidecar already mounts or maps a device at its path. */
function mergeMounts(c: Container, extra: readonly VolumeMount[]): VolumeMount[] {
  const taken = new Set([...mountsOf(c).map((m) => m.mountPath), ...devicesOf(c).map((d) => d.devicePath)]);
  return [...mountsOf(c), ...appendMissing([], extra.filter((m) => !taken.has(m.mountPath)), (m) => m.mountPath)];
}

/** MergeVolumeDevices: the same, by device path. */
function mergeDevices(c: Container, extra: readonly VolumeDevice[]): VolumeDevice[] {
  const taken = new Set([...devicesOf(c).map((d) => d.devicePath), ...mountsOf(c).map((m) => m.mountPath)]);
  return [...devicesOf(c), ...appendMissing([], extra.filter((d) => !taken.has(d.devicePath)), (d) => d.devicePath)];
}

/**
 * GetInjectedVolumeDevices: with shareVolumeDevicePolicy enabled, every volume device of the pod's
 * own containers (not of injected sidecars, never of init containers).
 */
function sharedDevices(sidecar: SidecarContainer, pod: PodSpecLike): VolumeDevice[] {
  if (sidecar.shareVolumeDevicePolicy?.type !== 'enabled') return [];
  return (pod.containers ?? []).filter((app) => !isInjectedSidecar(app)).flatMap(devicesOf);
}

/**
 * GetInjectedVolumeMountsAndEnvs: with shareVolumePolicy enabled, every mount of the pod's own
 * containers (not of injected sidecars, never of init containers), plus the source container's
 * env vars a mount's subPathExpr refers to.
 */
function sharedMountsAndEnv(sidecar: SidecarContainer, pod: PodSpecLike): { mounts: VolumeMount[]; env: EnvVar[] } {
  if (sidecar.shareVolumePolicy?.type !== 'enabled') return { mounts: [], env: [] };
  const mounts: VolumeMount[] = [];
  const env: EnvVar[] = [];
  for (const app of pod.containers ?? []) {
    if (isInjectedSidecar(app)) continue;
    for (const m of mountsOf(app)) {
      mounts.push(m);
      for (const [, name] of (m.subPathExpr ?? '').matchAll(SUBPATH_VAR)) {
        const found = envOf(app).find((e) => e.name === name);
        if (found) env.push(found);
      }
    }
  }
  return { mounts, env };
}

/** The source container named by transferEnv's sourceContainerNameFrom (undefined: unsupported path). */
function sourceFromField(fieldPath: string, meta: PodMetaLike): string | undefined {
  const label = LABEL_PATH.exec(fieldPath);
  if (label) return meta.labels?.[label[1]!] ?? '';
  const annotation = ANNOTATION_PATH.exec(fieldPath);
  if (annotation) return meta.annotations?.[annotation[1]!] ?? '';
  return undefined;
}

/** The pod containers' env vars by "container/name"; once per pod when it is read-only (admission). */
const envByContainer = frozenDerivation((pod: PodSpecLike) => {
  const byKey = new Map<string, EnvVar>();
  for (const c of pod.containers ?? []) for (const e of envOf(c)) byKey.set(`${c.name}/${e.name}`, e);
  return byKey;
});

/** GetSidecarTransferEnvs: env vars copied whole from pod containers, names sorted per entry. */
function transferredEnv(sidecar: SidecarContainer, pod: PodSpecLike, meta: PodMetaLike): EnvVar[] {
  if (!sidecar.transferEnv?.length) return [];
  const byKey = envByContainer(pod);
  const out: EnvVar[] = [];
  for (const t of sidecar.transferEnv ?? []) {
    let source = t.sourceContainerName ?? '';
    const fieldPath = t.sourceContainerNameFrom?.fieldRef?.fieldPath;
    if (t.sourceContainerNameFrom?.fieldRef) {
      const named = sourceFromField(fieldPath ?? '', meta);
      if (named === undefined) continue;
      source = named;
    }
    const names = [...new Set([t.envName, ...(t.envNames ?? [])].filter((n): n is string => !!n))].sort();
    for (const n of names) {
      const found = byKey.get(`${source}/${n}`);
      if (found) out.push(found);
    }
  }
  return out;
}

/**
 * The container as the pod gets it: without the SidecarContainer-only fields. Made once per
 * sidecar object of the pushed state and shared, read-only, by every pod it is injected into.
 */
const plainContainer = frozenDerivation((sidecar: SidecarContainer) => cloneJsonWithout(sidecar, SIDECAR_ONLY_FIELDS) as Container);
/** A set's volume as injected, shared the same way. */
const sharedVolume = frozenDerivation((volume: Volume) => cloneJson(volume));

/** What a sidecar is prepared against: the pod as the client sent it, and every matched set's sidecar names. */
export type BuildContext = { pod: PodSpecLike; meta: PodMetaLike; injectedNames: ReadonlySet<string> };

/**
 * One sidecar with its resourcesPolicy applied, shared mounts and devices, IS_INJECTED and
 * transferred env; queues the set volumes it mounts or maps.
 */
function prepare(sidecar: SidecarContainer, set: SidecarSet, ctx: BuildContext, volumes: Volume[]): { prepared: Container } | { error: string } {
  const { pod, meta } = ctx;
  const setVolumes = new Map((set.spec?.volumes ?? []).map((v) => [v.name, v as Volume]));
  const shared = sharedMountsAndEnv(sidecar, pod);
  const transfer = mergeEnv(transferredEnv(sidecar, pod, meta), shared.env);
  // Shallow: the lists set below are new, everything else stays shared and frozen.
  const c: Container = { ...plainContainer(sidecar) };
  if (sidecar.resourcesPolicy) {
    const computed = resourcesFor(sidecar.resourcesPolicy, pod, ctx.injectedNames);
    if ('error' in computed) return computed;
    c.resources = computed.resources;
  }
  for (const { name } of [...mountsOf(c), ...devicesOf(c)]) {
    const v = setVolumes.get(name);
    if (v) volumes.push(sharedVolume(v));
  }
  c.volumeMounts = mergeMounts(c, shared.mounts);
  // §8: appended even when the sidecar already defines IS_INJECTED, as OpenKruise does.
  c.env = mergeEnv([...envOf(c), { name: ENV_IS_INJECTED, value: 'true' }], transfer);
  const devices = mergeDevices(c, sharedDevices(sidecar, pod));
  if (devices.length > 0 || (c as Obj).volumeDevices !== undefined) c.volumeDevices = devices;
  return { prepared: c };
}

const versionEnv = (name: string, container: string): EnvVar => ({
  name,
  valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${name === ENV_SIDECARSET_VERSION ? VERSION_ANNOTATION_PREFIX : VERSION_ALT_ANNOTATION_PREFIX}${container}']` } },
});

/** §2.4.7: S → S-1 (the image) and S-2 (hotUpgradeEmptyImage), each told its version by env. */
function hotUpgradePair(prepared: Container, sidecar: SidecarContainer, built: BuiltSet): Container[] {
  const [one, two] = hotUpgradeContainerNames(sidecar.name);
  const pair = [
    { ...cloneJson(prepared), name: one, image: prepared.image },
    { ...cloneJson(prepared), name: two, image: sidecar.upgradeStrategy?.hotUpgradeEmptyImage ?? '' },
  ];
  for (const c of pair) c.env = [...envOf(c), versionEnv(ENV_SIDECARSET_VERSION, c.name), versionEnv(ENV_SIDECARSET_VERSION_ALT, c.name)];
  Object.assign(built.versionAnnotations, {
    [VERSION_ANNOTATION_PREFIX + one]: '1',
    [VERSION_ALT_ANNOTATION_PREFIX + one]: '0',
    [VERSION_ANNOTATION_PREFIX + two]: '0',
    [VERSION_ALT_ANNOTATION_PREFIX + two]: '1',
  });
  built.workingContainers[sidecar.name] = one;
  return pair;
}

/** A sidecar as injected: a hot-upgrade pair, or itself. */
function expand(prepared: Container, sidecar: SidecarContainer, built: BuiltSet): Container[] {
  return isHotUpgradeContainer(sidecar) ? hotUpgradePair(prepared, sidecar, built) : [prepared];
}

/**
 * Everything one SidecarSet injects into the pod being created. Init containers go in as they are,
 * except a native sidecar (restartPolicy Always) with HotUpgrade, which gets its pair like a container.
 */
export function buildSidecars(set: SidecarSet, ctx: BuildContext): BuiltSet {
  const built: BuiltSet = { initContainers: [], containers: [], volumes: [], imagePullSecrets: [], versionAnnotations: {}, workingContainers: {} };
  for (const init of set.spec?.initContainers ?? []) {
    const made = prepare(init, set, ctx, built.volumes);
    if ('error' in made) return { ...built, error: made.error };
    const { prepared } = made;
    const policy = init.podInjectPolicy ?? '';
    const containers = isNativeSidecar(init) ? expand(prepared, init, built) : [prepared];
    for (const container of containers) built.initContainers.push({ container, policy });
  }
  built.imagePullSecrets.push(...(set.spec?.imagePullSecrets ?? []));
  for (const sidecar of set.spec?.containers ?? []) {
    const made = prepare(sidecar, set, ctx, built.volumes);
    if ('error' in made) return { ...built, error: made.error };
    const { prepared } = made;
    const policy = sidecar.podInjectPolicy ?? '';
    for (const container of expand(prepared, sidecar, built)) built.containers.push({ container, policy });
  }
  return built;
}
