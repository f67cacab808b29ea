// What a pod says about one SidecarSet: is it matched, updated, consistent, ready, upgradable in
// place? These are OpenKruise's SidecarControl predicates (pkg/control/sidecarcontrol/util.go,
// sidecarset_control.go, util_hotupgrade.go), which status, rolling update and hot upgrade share.
// Pure, Web APIs only.
import { isSidecarUpdateCompleted, INJECTED_LIST_ANNOTATION, readInPlaceUpdateStates } from '../../workload/sidecar-update-state.js';
import { compileSelector, selectorMatches } from '../../kube/selectors.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, type SidecarContainer, type SidecarSet } from '../types.js';
import { podSidecarSetHash, podSidecarSetHashWithoutImage, workingHotUpgradeContainers } from './annotations.js';
import {
  containerImageIDs,
  containerStatus,
  findContainer,
  isActivePod,
  isContainerImageEqual,
  isImageDigest,
  isRunningAndReady,
  type Pod,
} from '../../workload/pods.js';

export const setName = (set: SidecarSet): string => set.metadata?.name ?? '';

/** GetSidecarSetRevision: the set's hash annotation, set by the mutating webhook (§2.2). */
export const setHash = (set: SidecarSet): string => set.metadata?.annotations?.[HASH_ANNOTATION] ?? '';
export const setHashWithoutImage = (set: SidecarSet): string => set.metadata?.annotations?.[HASH_WITHOUT_IMAGE_ANNOTATION] ?? '';

export function isHotUpgradeContainer(c: SidecarContainer): boolean {
  return c.upgradeStrategy?.upgradeType === 'HotUpgrade';
}

export function hasHotUpgradeContainer(set: SidecarSet): boolean {
  return (set.spec?.containers ?? []).some(isHotUpgradeContainer);
}

/** GetHotUpgradeContainerName: `S-1`, `S-2`. */
export function hotUpgradeContainerNames(name: string): [string, string] {
  return [`${name}-1`, `${name}-2`];
}

/**
 * GetPodHotUpgradeContainers: the working container of sidecar `name` (from the working-container
 * annotation) and the other one (the empty one, or the older one mid-upgrade). Without an entry
 * OpenKruise takes `-2` as working.
 */
export function podHotUpgradeContainers(name: string, pod: Pod): { working: string; other: string } {
  const [one, two] = hotUpgradeContainerNames(name);
  return workingHotUpgradeContainers(pod.metadata.annotations)[name] === one ? { working: one, other: two } : { working: two, other: one };
}

/** GetSidecarContainersInPod: the pod container names this set owns (hot-upgrade sidecars twice). */
export function sidecarContainerNames(set: SidecarSet): Set<string> {
  const names = new Set<string>();
  for (const c of set.spec?.containers ?? []) {
    if (isHotUpgradeContainer(c)) for (const n of hotUpgradeContainerNames(c.name)) names.add(n);
    else names.add(c.name);
  }
  return names;
}

/** IsPodInjectedSidecarSet: the set is named in `kruise.io/sidecarset-injected-list`. */
export function isPodInjected(pod: Pod, set: SidecarSet): boolean {
  const list = pod.metadata.annotations?.[INJECTED_LIST_ANNOTATION];
  return !!list && list.split(',').includes(setName(set));
}

/** IsPodConsistentWithSidecarSet: the pod still has every sidecar container of the set. */
export function isPodConsistentWithSet(pod: Pod, set: SidecarSet): boolean {
  const working = (set.spec?.containers ?? []).some(isHotUpgradeContainer) ? workingHotUpgradeContainers(pod.metadata.annotations) : {};
  return (set.spec?.containers ?? []).every((c) => {
    if (!isHotUpgradeContainer(c)) return !!findContainer(pod, c.name);
    return c.name in working && hotUpgradeContainerNames(c.name).every((n) => !!findContainer(pod, n));
  });
}

/**
 * The namespaces a set's pods may be in (FetchSidecarSetMatchedNamespace): `spec.namespace`, the
 * namespaces its namespaceSelector matches, or every namespace (undefined). An invalid selector
 * is an error, as OpenKruise fails the reconcile.
 */
export function scopedNamespaces(set: SidecarSet, namespaces: readonly { name: string; labels: Record<string, string> }[]): Set<string> | undefined | { error: string } {
  if (set.spec?.namespace) return new Set([set.spec.namespace]);
  const sel = set.spec?.namespaceSelector;
  if (!sel) return undefined;
  const compiled = compileSelector(sel);
  if (compiled.kind === 'invalid') return { error: `spec.namespaceSelector: ${compiled.error}` };
  return new Set(namespaces.filter((ns) => selectorMatches(compiled, ns.labels)).map((ns) => ns.name));
}

/**
 * getMatchingPods: pods in the set's namespaces whose labels its selector matches, that are active,
 * were injected by the set and still carry all its sidecars. Sorted by namespace/name (OpenKruise
 * uses its cache order, which is undefined).
 */
export function matchingPods(set: SidecarSet, pods: readonly Pod[], namespaces: readonly { name: string; labels: Record<string, string> }[]): Pod[] | { error: string } {
  const selector = compileSelector(set.spec?.selector);
  if (selector.kind === 'invalid') return { error: `spec.selector: ${selector.error}` };
  const scope = scopedNamespaces(set, namespaces);
  if (scope && 'error' in scope) return scope;
  return pods
    .filter((p) => (!scope || scope.has(p.metadata.namespace)) && selectorMatches(selector, p.metadata.labels ?? {}))
    .filter((p) => isActivePod(p) && isPodInjected(p, set) && isPodConsistentWithSet(p, set))
    .sort((a, b) => {
      const ka = `${a.metadata.namespace}/${a.metadata.name}`;
      const kb = `${b.metadata.namespace}/${b.metadata.name}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

/** IsPodSidecarUpdated: the pod records the set's current hash. */
export function isPodSidecarUpdated(set: SidecarSet, pod: Pod): boolean {
  return setHash(set) === podSidecarSetHash(pod, setName(set));
}


/**
 * IsPodStateConsistent: the sidecar containers (all of the set's, or `only`) run what their spec
 * says. Digest images are checked against the status imageIDs; otherwise the in-place update
 * record decides. Any container without a status ⇒ inconsistent.
 */
export function isPodStateConsistent(set: SidecarSet, pod: Pod, only?: ReadonlySet<string>): boolean {
  if (pod.spec.containers.length !== (pod.status?.containerStatuses?.length ?? 0)) return false;
  const containers = only && only.size > 0 ? only : sidecarContainerNames(set);
  const imageIDs = containerImageIDs(pod);
  let allDigest = true;
  for (const c of pod.spec.containers) {
    if (!containers.has(c.name)) continue;
    if (!isImageDigest(c.image ?? '')) {
      // OpenKruise stops checking digests at the first tag image (a `break`).
      allDigest = false;
      break;
    }
    const id = imageIDs.get(c.name);
    if (id === undefined || !isContainerImageEqual(c.image ?? '', id)) return false;
  }
  if (allDigest) return true;
  return isSidecarUpdateCompleted(pod, [setName(set)], containers);
}

/**
 * commonControl.IsPodReady: every hot-upgrade sidecar's idle container runs the empty image, and
 * the pod is Running and Ready.
 */
export function isPodReadyForSet(set: SidecarSet, pod: Pod): boolean {
  for (const c of set.spec?.containers ?? []) {
    if (!isHotUpgradeContainer(c)) continue;
    const empty = c.upgradeStrategy?.hotUpgradeEmptyImage ?? '';
    if (!empty) continue;
    const { other } = podHotUpgradeContainers(c.name, pod);
    const container = findContainer(pod, other);
    if (container && container.image !== empty) return false;
  }
  return isRunningAndReady(pod);
}

/**
 * IsSidecarSetUpgradable: `canUpgrade` when only images changed (the pod's without-image hash
 * equals the set's: Kubernetes only allows an image change in place); `consistent` unless a ready
 * sidecar is still mid-update from an earlier round.
 */
export function sidecarSetUpgradability(set: SidecarSet, pod: Pod): { canUpgrade: boolean; consistent: boolean } {
  if (podSidecarSetHashWithoutImage(pod, setName(set)) !== setHashWithoutImage(set)) return { canUpgrade: false, consistent: false };
  for (const name of [...sidecarContainerNames(set)].sort()) {
    if (containerStatus(pod, name)?.ready && !isPodStateConsistent(set, pod, new Set([name]))) return { canUpgrade: true, consistent: false };
  }
  return { canUpgrade: true, consistent: true };
}
