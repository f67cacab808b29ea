// How far a CloneSet's rollout is, and what it waits on right now, from its status and its pods.
// `rollout status` renders this; the decision is here so a test is a table. Pure.
import type { CloneSet } from '../api/apps/cloneset.js';
import type { LifecycleHook } from '../api/apps/pub.js';
import { isCloneSetPodAvailable } from '../cloneset/controller/availability.js';
import { DEFAULT_MAX_UNAVAILABLE } from '../cloneset/defaults.js';
import { kruiseScaledValue, partitionReplicas } from '../kube/intstr.js';
import { isPodHooked, lifecycleState } from '../workload/lifecycle.js';
import type { Pod } from '../workload/pods.js';

/** A pod held in a lifecycle state, and the hook labels/finalizers that decide when it moves on. */
export type HookedPod = {
  name: string;
  state: string;
  hook: 'preNormal' | 'inPlaceUpdate' | 'preDelete';
  /** `removal`: held until these labels/finalizers are gone; `addition`: until they are all on. */
  waitsFor: 'removal' | 'addition';
  handlers: string[];
};

/** One thing the rollout waits on; `rollout status` lists them most decisive first. */
export type Waiting =
  | { on: 'observed'; generation: number; observedGeneration: number }
  /** field: where the flag is, when not spec.updateStrategy.paused (a CloneSet's). */
  | { on: 'paused'; field?: string }
  | { on: 'partition'; partition: number }
  | { on: 'hook'; pods: HookedPod[] }
  | { on: 'budget'; maxUnavailable: number; unavailable: number }
  /** Pods not available: not Ready, Ready for less than minReadySeconds, or mid in-place update. */
  | { on: 'not-ready'; pods: string[] }
  | { on: 'pod-count'; have: number; want: number }
  | { on: 'controller' };

export type RolloutProgress = {
  /** Pods at the update revision (status.updatedReplicas). */
  updated: number;
  /** Ready pods, any revision (status.readyReplicas, as kubectl-kruise counts them). */
  ready: number;
  /** spec.replicas. */
  total: number;
  /** Pods at the update revision that are available (status.updatedAvailableReplicas, else updatedReadyReplicas). */
  updatedAvailable: number;
  /** How many pods this rollout moves: replicas minus the partition. */
  target: number;
  revision?: string;
  /** `complete`: every pod updated and available; `partitioned`: done up to the partition. */
  done: 'complete' | 'partitioned' | false;
  waiting: Waiting[];
};

const HOOK_OF_STATE: Record<string, { hook: HookedPod['hook']; waitsFor: HookedPod['waitsFor'] }> = {
  PreparingNormal: { hook: 'preNormal', waitsFor: 'addition' },
  PreparingUpdate: { hook: 'inPlaceUpdate', waitsFor: 'removal' },
  Updated: { hook: 'inPlaceUpdate', waitsFor: 'addition' },
  PreparingDelete: { hook: 'preDelete', waitsFor: 'removal' },
};

/** The pods a CloneSet controls (by controller owner reference), not terminating, by name. */
export function podsOf(cs: CloneSet, pods: readonly Pod[]): Pod[] {
  const uid = cs.metadata.uid;
  const controlled = (p: Pod) => ((p.metadata.ownerReferences ?? []) as { uid?: string; controller?: boolean }[]).some((r) => r.controller && r.uid === uid);
  return pods.filter((p) => controlled(p) && !p.metadata.deletionTimestamp).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

export function cloneSetProgress(cs: CloneSet, allPods: readonly Pod[], now: number): RolloutProgress {
  const replicas = cs.spec.replicas ?? 1;
  const status = cs.status;
  const strategy = cs.spec.updateStrategy ?? {};
  const partition = partitionReplicas(strategy.partition, replicas);
  const target = status?.expectedUpdatedReplicas ?? replicas - partition;
  const updated = status?.updatedReplicas ?? 0;
  const updatedAvailable = status?.updatedAvailableReplicas ?? status?.updatedReadyReplicas ?? 0;
  const base = { updated, ready: status?.readyReplicas ?? 0, total: replicas, updatedAvailable, target, ...(status?.updateRevision ? { revision: status.updateRevision } : {}) };

  const generation = cs.metadata.generation ?? 0;
  const observedGeneration = status?.observedGeneration ?? 0;
  if (!status || observedGeneration < generation) return { ...base, done: false, waiting: [{ on: 'observed', generation, observedGeneration }] };

  const settled = status.replicas === replicas;
  if (settled && updated >= replicas && updatedAvailable >= replicas) return { ...base, done: 'complete', waiting: [] };
  if (settled && target < replicas && updated >= target && updatedAvailable >= target) {
    return { ...base, done: 'partitioned', waiting: [{ on: 'partition', partition: replicas - target }] };
  }

  const pods = podsOf(cs, allPods);
  const waiting: Waiting[] = [];
  const moreToUpdate = updated < target;
  if (moreToUpdate && strategy.paused) waiting.push({ on: 'paused' });
  const hooked = hookedPods(cs, pods);
  if (hooked.length) waiting.push({ on: 'hook', pods: hooked });
  const minReadySeconds = cs.spec.minReadySeconds ?? 0;
  const unavailable = pods.filter((p) => !isCloneSetPodAvailable(p, minReadySeconds, now));
  const maxUnavailable = maxUnavailableOf(cs, replicas);
  // OpenKruise's update budget: maxUnavailable plus any surge pods, minus pods already unavailable.
  if (moreToUpdate && !strategy.paused && unavailable.length >= maxUnavailable + pods.length - replicas) {
    waiting.push({ on: 'budget', maxUnavailable, unavailable: unavailable.length + Math.max(replicas - pods.length, 0) });
  }
  const held = new Set(hooked.map((h) => h.name));
  const notReady = unavailable.filter((p) => !held.has(p.metadata.name)).map((p) => p.metadata.name);
  if (notReady.length) waiting.push({ on: 'not-ready', pods: notReady });
  if (status.replicas !== replicas) waiting.push({ on: 'pod-count', have: status.replicas, want: replicas });
  if (!waiting.length) waiting.push({ on: 'controller' });
  return { ...base, done: false, waiting };
}

/** updateStrategy.maxUnavailable as OpenKruise scales it (rounded up unless maxSurge is used). */
function maxUnavailableOf(cs: CloneSet, replicas: number): number {
  const strategy = cs.spec.updateStrategy ?? {};
  const surge = strategy.paused ? 0 : kruiseScaledValue(strategy.maxSurge ?? 0, replicas, true);
  const v = kruiseScaledValue(strategy.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, replicas, surge === 0);
  return typeof v === 'number' ? v : 0;
}

function hookedPods(cs: CloneSet, pods: readonly Pod[]): HookedPod[] {
  const out: HookedPod[] = [];
  for (const pod of pods) {
    const state = lifecycleState(pod);
    const which = HOOK_OF_STATE[state];
    const hook: LifecycleHook | undefined = which ? cs.spec.lifecycle?.[which.hook] : undefined;
    if (!which || !hook) continue;
    // Waiting for removal: the pod is held while any handler is on it. For addition: until all are.
    if (which.waitsFor === 'removal' && !isPodHooked(hook, pod)) continue;
    const handlers = handlerList(hook, pod, which.waitsFor === 'removal');
    if (which.waitsFor === 'addition' && !handlers.length) continue;
    out.push({ name: pod.metadata.name, state, hook: which.hook, waitsFor: which.waitsFor, handlers });
  }
  return out;
}

/** The hook's labels (`k=v`) and finalizers that are on the pod (present) or not (missing). */
function handlerList(hook: LifecycleHook, pod: Pod, present: boolean): string[] {
  const finalizers = (pod.metadata.finalizers as string[] | undefined) ?? [];
  const labels = Object.entries(hook.labelsHandler ?? {}).filter(([k, v]) => (pod.metadata.labels?.[k] === v) === present).map(([k, v]) => `label ${k}=${v}`);
  const fins = (hook.finalizersHandler ?? []).filter((f) => finalizers.includes(f) === present).map((f) => `finalizer ${f}`);
  return [...labels, ...fins];
}
