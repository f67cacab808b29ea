// Small builders for the controller's table tests: SidecarSets at a version, and pods as the
// webhook would have injected them from such a set. Hashes are stand-ins (the controller only
// compares them), derived from the images so that an image change changes the hash and nothing else.
import type { SidecarContainer, SidecarSet } from '../types.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION } from '../types.js';
import { INJECTED_LIST_ANNOTATION } from '../../workload/sidecar-update-state.js';
import type { Container, ContainerStatus, Pod } from '../../workload/pods.js';

export const EMPTY_IMAGE = 'empty:1';

export function sidecar(name: string, image: string, extra: Partial<SidecarContainer> = {}): SidecarContainer {
  return { name, image, podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, shareVolumePolicy: { type: 'disabled' }, ...extra } as SidecarContainer;
}

export function hotSidecar(name: string, image: string): SidecarContainer {
  return sidecar(name, image, { upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: EMPTY_IMAGE } });
}

type SetOptions = {
  name?: string;
  containers?: SidecarContainer[];
  /** Overrides the without-image hash (a non-image change). */
  withoutImage?: string;
  updateStrategy?: SidecarSet['spec']['updateStrategy'];
  status?: SidecarSet['status'];
  labels?: Record<string, string>;
  spec?: Partial<SidecarSet['spec']>;
  generation?: number;
};

export function sidecarSet(o: SetOptions = {}): SidecarSet {
  const containers = o.containers ?? [sidecar('proxy', 'proxy:1')];
  const name = o.name ?? 'mesh';
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: {
      name,
      uid: `uid-${name}`,
      generation: o.generation ?? 1,
      resourceVersion: '100',
      ...(o.labels ? { labels: o.labels } : {}),
      annotations: {
        [HASH_ANNOTATION]: `h:${containers.map((c) => `${c.name}=${c.image}`).join(',')}`,
        [HASH_WITHOUT_IMAGE_ANNOTATION]: o.withoutImage ?? `w:${containers.map((c) => c.name).join(',')}`,
      },
    },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers,
      updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1, partition: 0, ...(o.updateStrategy ?? {}) },
      revisionHistoryLimit: 10,
      ...(o.spec ?? {}),
    },
    ...(o.status ? { status: o.status } : {}),
  } as SidecarSet;
}

/** The same set with new sidecar images (an image-only change). */
export function withImages(set: SidecarSet, images: Record<string, string>): SidecarSet {
  const containers = (set.spec.containers ?? []).map((c) => (images[c.name] ? { ...c, image: images[c.name] } : c));
  return sidecarSet({
    name: set.metadata.name ?? '',
    containers,
    withoutImage: set.metadata.annotations?.[HASH_WITHOUT_IMAGE_ANNOTATION] ?? '',
    updateStrategy: set.spec.updateStrategy,
    ...(set.status ? { status: set.status } : {}),
  });
}

type PodOptions = {
  namespace?: string;
  labels?: Record<string, string>;
  ready?: boolean;
  phase?: string;
  nodeName?: string;
  created?: string;
  readySince?: string;
  restarts?: number;
  annotations?: Record<string, string>;
  /** Per-container status overrides (ready, imageID, image). */
  statuses?: Record<string, Partial<ContainerStatus>>;
};

const entry = (set: SidecarSet, key: string) => ({
  updateTimestamp: '2024-01-01T00:00:00Z',
  hash: set.metadata.annotations?.[key] ?? '',
  sidecarSetName: set.metadata.name,
  sidecarList: (set.spec.containers ?? []).map((c) => c.name).sort(),
});

/** A pod injected from `set` (at its current version), with an app container `app`. */
export function injectedPod(set: SidecarSet, name: string, o: PodOptions = {}): Pod {
  const ready = o.ready ?? true;
  const containers: Container[] = [];
  const working: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  for (const c of set.spec.containers ?? []) {
    if (c.upgradeStrategy?.upgradeType === 'HotUpgrade') {
      containers.push({ name: `${c.name}-1`, image: c.image ?? '' }, { name: `${c.name}-2`, image: EMPTY_IMAGE });
      working[c.name] = `${c.name}-1`;
      Object.assign(annotations, {
        [`version.sidecarset.kruise.io/${c.name}-1`]: '1',
        [`versionalt.sidecarset.kruise.io/${c.name}-1`]: '0',
        [`version.sidecarset.kruise.io/${c.name}-2`]: '0',
        [`versionalt.sidecarset.kruise.io/${c.name}-2`]: '1',
      });
    } else {
      containers.push({ name: c.name, image: c.image ?? '' });
    }
  }
  containers.push({ name: 'app', image: 'app:1' });
  if (Object.keys(working).length) annotations[WORKING_HOTUPGRADE_CONTAINER_ANNOTATION] = JSON.stringify(working);
  const setName = set.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${name}`,
      resourceVersion: `rv-${name}`,
      creationTimestamp: o.created ?? '2024-01-01T00:00:00Z',
      labels: o.labels ?? { app: 'web' },
      annotations: {
        [INJECTED_LIST_ANNOTATION]: setName,
        [HASH_ANNOTATION]: JSON.stringify({ [setName]: entry(set, HASH_ANNOTATION) }),
        [HASH_WITHOUT_IMAGE_ANNOTATION]: JSON.stringify({ [setName]: entry(set, HASH_WITHOUT_IMAGE_ANNOTATION) }),
        ...annotations,
        ...(o.annotations ?? {}),
      },
    },
    spec: { nodeName: o.nodeName ?? 'node-1', containers },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: o.readySince ?? '2024-01-01T00:01:00Z' }],
      containerStatuses: containers.map((c) => ({
        name: c.name,
        ready,
        image: c.image ?? '',
        imageID: `${c.image ?? ''}@id`,
        restartCount: o.restarts ?? 0,
        ...(o.statuses?.[c.name] ?? {}),
      })),
    },
  };
}

/** Applies a strategic merge patch of the shape update.ts writes (annotations, container images). */
export function applyPodPatch(pod: Pod, patch: unknown): Pod {
  const p = patch as { metadata?: { annotations?: Record<string, string> }; spec?: { containers?: { name: string; image?: string }[] } };
  const next = structuredClone(pod);
  next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...(p.metadata?.annotations ?? {}) };
  for (const c of p.spec?.containers ?? []) {
    const target = next.spec.containers.find((x) => x.name === c.name);
    if (target && c.image !== undefined) target.image = c.image;
  }
  return next;
}

/** What the kubelet does after an in-place image change: restarts the containers (new imageIDs), ready or not. */
export function restarted(pod: Pod, ready = true): Pod {
  const next = structuredClone(pod);
  next.status = {
    ...next.status,
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2024-01-01T00:05:00Z' }],
    containerStatuses: next.spec.containers.map((c) => ({ name: c.name, ready, image: c.image ?? '', imageID: `${c.image ?? ''}@id`, restartCount: 0 })),
  };
  return next;
}
