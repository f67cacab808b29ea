// How far an Advanced StatefulSet's or Advanced DaemonSet's rollout is, from its status and its
// pods, in the terms `rollout status` shows for a CloneSet (rollout-progress.ts). Done: every pod
// at the update revision and available, or up to the partition (the pods kept at the old
// revision). Pure.
import type { StoredDaemonSet as DaemonSet } from '../daemonset/types.js';
import { partitionReplicas } from '../kube/intstr.js';
import type { StoredStatefulSet } from '../statefulset/types.js';
import { isRunningAndReady, type Pod } from '../workload/pods.js';
import type { RolloutProgress, Waiting } from './rollout-progress.js';

type Counts = {
  generation: number;
  observedGeneration: number | undefined;
  /** Pods wanted: spec.replicas, or the nodes the DaemonSet should run on. */
  total: number;
  /** Pods there are (status). */
  have: number;
  updated: number;
  updatedAvailable: number;
  ready: number;
  partition: number;
  paused: boolean;
  revision?: string | undefined;
};

/** The pods `uid` controls (controller owner reference), not terminating, by name. */
function controlledPods(uid: string | undefined, pods: readonly Pod[]): Pod[] {
  const controlled = (p: Pod) => ((p.metadata.ownerReferences ?? []) as { uid?: string; controller?: boolean }[]).some((r) => r.controller && r.uid === uid);
  return pods.filter((p) => controlled(p) && !p.metadata.deletionTimestamp).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

function progressOf(c: Counts, pods: readonly Pod[]): RolloutProgress {
  const target = Math.max(c.total - c.partition, 0);
  const base = { updated: c.updated, ready: c.ready, total: c.total, updatedAvailable: c.updatedAvailable, target, ...(c.revision ? { revision: c.revision } : {}) };
  if (c.observedGeneration === undefined || c.observedGeneration < c.generation) {
    return { ...base, done: false, waiting: [{ on: 'observed', generation: c.generation, observedGeneration: c.observedGeneration ?? 0 }] };
  }
  const settled = c.have === c.total;
  if (settled && c.updated >= c.total && c.updatedAvailable >= c.total) return { ...base, done: 'complete', waiting: [] };
  if (settled && target < c.total && c.updated >= target && c.updatedAvailable >= target) {
    return { ...base, done: 'partitioned', waiting: [{ on: 'partition', partition: c.partition }] };
  }
  const waiting: Waiting[] = [];
  if (c.updated < target && c.paused) waiting.push({ on: 'paused', field: 'spec.updateStrategy.rollingUpdate.paused' });
  const notReady = pods.filter((p) => !isRunningAndReady(p)).map((p) => p.metadata.name);
  if (notReady.length) waiting.push({ on: 'not-ready', pods: notReady });
  if (!settled) waiting.push({ on: 'pod-count', have: c.have, want: c.total });
  if (!waiting.length) waiting.push({ on: 'controller' });
  return { ...base, done: false, waiting };
}

export function statefulSetProgress(set: StoredStatefulSet, allPods: readonly Pod[]): RolloutProgress {
  const replicas = set.spec.replicas ?? 1;
  const rolling = set.spec.updateStrategy?.rollingUpdate;
  const s = set.status;
  return progressOf({
    generation: set.metadata.generation ?? 0,
    observedGeneration: s?.observedGeneration,
    total: replicas,
    have: s?.replicas ?? 0,
    updated: s?.updatedReplicas ?? 0,
    updatedAvailable: s?.updatedAvailableReplicas ?? s?.updatedReadyReplicas ?? 0,
    ready: s?.readyReplicas ?? 0,
    partition: Math.min(rolling?.partition ?? 0, replicas),
    paused: rolling?.paused === true,
    revision: s?.updateRevision,
  }, controlledPods(set.metadata.uid, allPods));
}

export function daemonSetProgress(ds: DaemonSet, allPods: readonly Pod[]): RolloutProgress {
  const s = (ds.status ?? {}) as { observedGeneration?: number; desiredNumberScheduled?: number; currentNumberScheduled?: number; updatedNumberScheduled?: number; numberAvailable?: number; numberReady?: number; daemonSetHash?: string };
  const desired = s.desiredNumberScheduled ?? 0;
  const rolling = ds.spec.updateStrategy?.rollingUpdate;
  const pods = controlledPods(ds.metadata.uid, allPods);
  const updated = s.updatedNumberScheduled ?? 0;
  return progressOf({
    generation: ds.metadata.generation ?? 0,
    observedGeneration: s.observedGeneration,
    total: desired,
    have: s.currentNumberScheduled ?? 0,
    updated,
    // kubectl counts a DaemonSet done when every node runs an updated pod and as many are available.
    updatedAvailable: Math.min(updated, s.numberAvailable ?? 0),
    ready: s.numberReady ?? 0,
    partition: Math.min(partitionReplicas(rolling?.partition, desired), desired),
    paused: rolling?.paused === true,
    revision: s.daemonSetHash,
  }, pods);
}
