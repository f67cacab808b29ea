// The barrier's next step for one pod (OpenKruise's container-launch-priority controller:
// shouldEnqueue and handle). The priorities still to release are those of the containers with a
// barrier env that are not ready, lowest first. A pod whose launch is marked completed, whose
// containers are all ready, or with nothing left to release needs nothing. Else: no barrier yet →
// create it; the lowest priority already released → mark the pod completed; the highest one not
// released → release it (and mark completed if it was the last); else nothing to write yet (a step
// with neither: the pod waits on its containers' readiness). Pure.
import { podCondition, type Pod } from '../../workload/pods.js';
import { BARRIER_ENV, COMPLETED_ANNOTATION, barrierKey } from '../types.js';

export type Barrier = { data?: Record<string, string> | null };

export type BarrierStep = { createBarrier: boolean; release?: string; complete: boolean };

type BarrierEnv = { name?: string; valueFrom?: { configMapKeyRef?: { key?: string } } };

/** GetContainerPriority: the number after `p_` in the barrier env's key (Atoi errors read as 0, as in Go). */
function containerPriority(env: readonly BarrierEnv[] | undefined): bigint | undefined {
  const e = env?.find((x) => x.name === BARRIER_ENV);
  if (!e) return undefined;
  const digits = e.valueFrom?.configMapKeyRef?.key?.slice(2) ?? '';
  return /^[+-]?\d+$/.test(digits) ? BigInt(digits) : 0n;
}

export function nextPriorities(pod: Pod): bigint[] {
  const ready = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.ready).map((s) => s.name));
  const out: bigint[] = [];
  for (const c of pod.spec.containers ?? []) {
    if (ready.has(c.name)) continue;
    const p = containerPriority(c.env as BarrierEnv[] | undefined);
    if (p !== undefined) out.push(p);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const released = (barrier: Barrier, p: bigint) => Object.prototype.hasOwnProperty.call(barrier.data ?? {}, barrierKey(p));

export function barrierStep(pod: Pod, barrier: Barrier | undefined): BarrierStep | undefined {
  if (pod.metadata.annotations?.[COMPLETED_ANNOTATION] === 'true') return undefined;
  if (podCondition(pod, 'ContainersReady')?.status === 'True') return undefined;
  const next = nextPriorities(pod);
  if (!next.length) return undefined;
  const lowest = next[0]!;
  const highest = next[next.length - 1]!;
  if (!barrier) return { createBarrier: true, release: barrierKey(highest), complete: highest === lowest };
  if (released(barrier, lowest)) return { createBarrier: false, complete: true };
  if (released(barrier, highest)) return { createBarrier: false, complete: false };
  return { createBarrier: false, release: barrierKey(highest), complete: highest === lowest };
}
