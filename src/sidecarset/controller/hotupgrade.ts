// Hot upgrade (../shared/SEMANTICS.md §2.4.7): a HotUpgrade sidecar S runs as two containers, S-1 and S-2;
// one works, the other idles on `hotUpgradeEmptyImage`. An upgrade happens in two steps, each a
// pod write of its own:
//   1. swap: the idle container gets the new image and becomes the working one (working-container
//      annotation, version/versionalt annotations) — update.ts applies this with the other
//      sidecars, under maxUnavailable;
//   2. flip: once the new container runs its spec and is ready, the old one is set back to the
//      empty image — before any further rolling, for every pod that has reached that point.
// OpenKruise: pkg/control/sidecarcontrol/util_hotupgrade.go (findContainerToHotUpgrade),
// sidecarset_control.go (UpgradeSidecarContainer), pkg/controller/sidecarset/sidecarset_processor.go
// (updatePodSidecarContainer) and sidecarset_hotupgrade.go (flip). Pure; functions named `apply…`
// change the draft pod they are given (a copy the caller diffs into a patch).
import { INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import { VERSION_ALT_ANNOTATION_PREFIX, VERSION_ANNOTATION_PREFIX, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION, type SidecarContainer, type SidecarSet } from '../types.js';
import { encodeWorkingHotUpgradeContainers, withInPlaceUpdateState, workingHotUpgradeContainers } from './annotations.js';
import {
  hotUpgradeContainerNames,
  isHotUpgradeContainer,
  isPodStateConsistent,
  podHotUpgradeContainers,
  sidecarContainerNames,
} from './pod-state.js';
import { containerStatus, findContainer, isRunningAndReady, type Pod } from '../../workload/pods.js';

export const versionAnnotation = (container: string) => `${VERSION_ANNOTATION_PREFIX}${container}`;
export const versionAltAnnotation = (container: string) => `${VERSION_ALT_ANNOTATION_PREFIX}${container}`;

const emptyImageOf = (c: SidecarContainer) => c.upgradeStrategy?.hotUpgradeEmptyImage ?? '';

/**
 * findContainerToHotUpgrade: which of S-1 / S-2 receives the new version — the one on the empty
 * image; else the one that is not ready (or not running its spec); else the older (not working) one.
 */
export function containerToHotUpgrade(set: SidecarSet, sidecar: SidecarContainer, pod: Pod): { target: string; other: string } {
  const [one, two] = hotUpgradeContainerNames(sidecar.name);
  const empty = emptyImageOf(sidecar);
  const imageOf = (n: string) => findContainer(pod, n)?.image ?? '';
  if (imageOf(one) === empty) return { target: one, other: two };
  if (imageOf(two) === empty) return { target: two, other: one };
  const ready = (n: string) => !!containerStatus(pod, n)?.ready && isPodStateConsistent(set, pod, new Set([n]));
  const r1 = ready(one);
  const r2 = ready(two);
  if (r1 && !r2) return { target: two, other: one };
  if (!r1 && r2) return { target: one, other: two };
  const { working, other } = podHotUpgradeContainers(sidecar.name, pod);
  return { target: other, other: working };
}

/**
 * One HotUpgrade sidecar's swap on the draft pod: nothing when the working container already runs
 * the set's image; else the target container takes it and becomes the working one, its version
 * annotation becomes the set's resourceVersion and the versionalt annotations cross over. Returns
 * the container changed, if any.
 */
export function applyHotUpgradeSwap(set: SidecarSet, sidecar: SidecarContainer, draft: Pod): string | undefined {
  const { target, other } = containerToHotUpgrade(set, sidecar, draft);
  const otherContainer = findContainer(draft, other);
  const targetContainer = findContainer(draft, target);
  if (!targetContainer || sidecar.image === otherContainer?.image) return undefined;
  targetContainer.image = sidecar.image ?? '';
  const annotations = (draft.metadata.annotations ??= {});
  const working = { ...workingHotUpgradeContainers(annotations), [sidecar.name]: target };
  annotations[WORKING_HOTUPGRADE_CONTAINER_ANNOTATION] = encodeWorkingHotUpgradeContainers(working);
  const version = set.metadata?.resourceVersion ?? '';
  annotations[versionAnnotation(target)] = version;
  annotations[versionAltAnnotation(target)] = annotations[versionAnnotation(other)] ?? '';
  annotations[versionAltAnnotation(other)] = version;
  return target;
}

/** isPodSidecarInHotUpgrading: some HotUpgrade sidecar's idle container is not on the empty image. */
export function isPodInHotUpgrading(set: SidecarSet, pod: Pod): boolean {
  return (set.spec?.containers ?? []).filter(isHotUpgradeContainer).some((c) => {
    const { other } = podHotUpgradeContainers(c.name, pod);
    return (findContainer(pod, other)?.image ?? '') !== emptyImageOf(c);
  });
}

function idleContainers(set: SidecarSet, pod: Pod): Set<string> {
  return new Set((set.spec?.containers ?? []).filter(isHotUpgradeContainer).map((c) => podHotUpgradeContainers(c.name, pod).other));
}

/** isHotUpgradingReady: the pod is Running and Ready, or every container but the idle ones is ready. */
export function isHotUpgradingReady(set: SidecarSet, pod: Pod): boolean {
  if (isRunningAndReady(pod)) return true;
  const idle = idleContainers(set, pod);
  return (pod.status?.containerStatuses ?? []).every((s) => idle.has(s.name) || !!s.ready);
}

/**
 * Step 2 is due for the pod: it is mid hot-upgrade, its sidecars other than the old (idle)
 * containers run their spec, and it is ready apart from those.
 */
export function isReadyToFlip(set: SidecarSet, pod: Pod): boolean {
  if (!isPodInHotUpgrading(set, pod)) return false;
  const idle = idleContainers(set, pod);
  const sidecars = new Set([...sidecarContainerNames(set)].filter((n) => !idle.has(n)));
  return isPodStateConsistent(set, pod, sidecars) && isHotUpgradingReady(set, pod);
}

/**
 * flipPodSidecarContainerDo on the draft pod: every old container not yet on the empty image gets
 * it, its version annotation and the working container's versionalt become "0", and the
 * in-place update state records the imageIDs they run now. The hash annotation is left alone.
 * Returns the containers changed.
 */
export function applyFlip(set: SidecarSet, draft: Pod, now: Date): string[] {
  const changed: string[] = [];
  const annotations = (draft.metadata.annotations ??= {});
  for (const c of (set.spec?.containers ?? []).filter(isHotUpgradeContainer)) {
    const { working, other } = podHotUpgradeContainers(c.name, draft);
    const container = findContainer(draft, other);
    if (!container || container.image === emptyImageOf(c)) continue;
    container.image = emptyImageOf(c);
    changed.push(other);
    annotations[versionAnnotation(other)] = '0';
    annotations[versionAltAnnotation(working)] = '0';
  }
  annotations[INPLACE_UPDATE_STATE_ANNOTATION] = withInPlaceUpdateState(draft, set, changed, now);
  return changed;
}
