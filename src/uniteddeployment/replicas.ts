// How a UnitedDeployment's replicas are split among its subsets, as OpenKruise's allocators do it
// (pkg/controller/uniteddeployment/allocator.go):
// - subset `replicas` (a number or "N%" of spec.replicas, rounded half up): the subsets given one
//   take it; the others share the rest evenly, the +1 remainders going to the subsets with the
//   most replicas now (ties: the name later in order);
// - `minReplicas`/`maxReplicas`: every subset's minimum first, in topology order, then up to each
//   maximum, in topology order;
// - Adaptive: like min/max, but a subset marked unschedulable keeps only its ready pods, and a
//   schedulable one never loses ready pods.
// Pure.
import type { IntOrString } from '../kube/intstr.js';
import type { Subset, UnitedDeploymentSpecLike as UnitedDeploymentSpec } from './types.js';
import { isAdaptive } from './types.js';
import { allocateWithReservation, type ReservedSubset } from './reservation.js';

const MAX_INT32 = 2147483647;

/** ParseSubsetReplicas: a count, or "N%" (integer N in [0, 100]) of `udReplicas` rounded half up; -1 = spec.replicas unset. */
export function parseSubsetReplicas(udReplicas: number, v: IntOrString): number | { error: string } {
  if (typeof v === 'number') return v < 0 ? { error: `subset replicas (${v}) should not be less than 0` } : v;
  if (udReplicas < 0) return { error: `subsetReplicas (${v}) should not be string when unitedDeployment replicas is empty` };
  if (!v.endsWith('%')) return { error: `subset replicas (${v}) only support integer value or percentage value with a suffix '%'` };
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits) || Math.abs(Number(digits)) > MAX_INT32) {
    const why = /^[+-]?\d+$/.test(digits) ? 'value out of range' : 'invalid syntax';
    return { error: `subset replicas (${v}) should be correct percentage integer: strconv.ParseInt: parsing ${JSON.stringify(digits)}: ${why}` };
  }
  const percent = Number(digits);
  if (percent > 100 || percent < 0) return { error: `subset replicas (${v}) should be in range [0, 100]` };
  return Math.floor((udReplicas * percent) / 100 + 0.5);
}

/** What the allocators know of a subset's workload. */
export type ExistingSubset = { replicas: number; readyReplicas: number; unschedulable: boolean };

export type Allocation = { replicas: Record<string, number> } | { error: string };

const subsetsOf = (spec: UnitedDeploymentSpec): Subset[] => spec.topology?.subsets ?? [];

export function allocateReplicas(spec: UnitedDeploymentSpec, existing: ReadonlyMap<string, ExistingSubset>): Allocation {
  if (isAdaptive(spec)) return adaptiveAllocate(spec, existing);
  if (subsetsOf(spec).some((s) => s.minReplicas != null || s.maxReplicas != null)) return minMaxAllocate(spec);
  return specificAllocate(spec, existing);
}

function specificAllocate(spec: UnitedDeploymentSpec, existing: ReadonlyMap<string, ExistingSubset>): Allocation {
  const expected = spec.replicas ?? -1;
  const infos = subsetsOf(spec).map((s) => ({ name: s.name ?? '', replicas: existing.get(s.name ?? '')?.replicas ?? 0, specified: false }));
  infos.sort((a, b) => (a.replicas !== b.replicas ? a.replicas - b.replicas : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const specified = new Map<string, number>();
  for (const s of subsetsOf(spec)) {
    if (s.replicas == null) continue;
    const v = parseSubsetReplicas(expected, s.replicas);
    if (typeof v === 'number') specified.set(s.name ?? '', v);
  }
  let sum = 0;
  for (const v of specified.values()) sum += v;
  const count = infos.filter((i) => specified.has(i.name)).length;
  if (expected !== -1) {
    if (sum > expected) return { error: `specified subsets' replica (${sum}) is greater than UnitedDeployment replica (${expected})` };
    if (sum < expected && count === infos.length) return { error: `specified subsets' replica (${sum}) is less than UnitedDeployment replica (${expected})` };
  } else if (count !== infos.length) {
    return { error: 'all subsets must be specified when UnitedDeployment replica is unspecified' };
  }
  for (const i of infos) {
    const v = specified.get(i.name);
    if (v !== undefined) {
      i.replicas = v;
      i.specified = true;
    }
  }
  let left = infos.length - count;
  if (left > 0) {
    const rest = expected - sum;
    const average = Math.trunc(rest / left);
    let remainder = rest % left;
    for (let k = infos.length - 1; k >= 0 && left > 0; k--) {
      const i = infos[k]!;
      if (i.specified) continue;
      i.replicas = remainder > 0 ? average + 1 : average;
      if (remainder > 0) remainder--;
      left--;
    }
  }
  return { replicas: Object.fromEntries(infos.map((i) => [i.name, i.replicas])) };
}

type Bounds = { min: Map<string, number>; max: Map<string, number> };

function rawBounds(spec: UnitedDeploymentSpec, replicas: number): Bounds | { error: string } {
  const min = new Map<string, number>();
  const max = new Map<string, number>();
  for (const s of subsetsOf(spec)) {
    const lo = s.minReplicas == null ? 0 : parseSubsetReplicas(replicas, s.minReplicas);
    const hi = s.maxReplicas == null ? MAX_INT32 : parseSubsetReplicas(replicas, s.maxReplicas);
    min.set(s.name ?? '', typeof lo === 'number' ? lo : 0);
    max.set(s.name ?? '', typeof hi === 'number' ? hi : 0);
  }
  let index = 0;
  for (const s of subsetsOf(spec)) {
    const lo = min.get(s.name ?? '')!;
    const hi = max.get(s.name ?? '')!;
    if (lo > hi) return { error: `subset[${index}].maxReplicas(${hi}) must be more than or equal to minReplicas(${lo})` };
    index++;
  }
  return { min, max };
}

function allocateByBounds(replicas: number, bounds: Bounds, subsets: readonly Subset[]): Record<string, number> {
  const out: Record<string, number> = {};
  let allocated = 0;
  for (const s of subsets) {
    const add = Math.max(Math.min(bounds.min.get(s.name ?? '') ?? 0, replicas - allocated), 0);
    out[s.name ?? ''] = add;
    allocated += add;
  }
  if (allocated >= replicas) return out;
  for (const s of subsets) {
    const name = s.name ?? '';
    const add = Math.max(Math.min((bounds.max.get(name) ?? 0) - (bounds.min.get(name) ?? 0), replicas - allocated), 0);
    out[name] = (out[name] ?? 0) + add;
    allocated += add;
  }
  return out;
}

function minMaxAllocate(spec: UnitedDeploymentSpec): Allocation {
  const replicas = spec.replicas ?? 0;
  const bounds = rawBounds(spec, replicas);
  if ('error' in bounds) return bounds;
  return { replicas: allocateByBounds(replicas, bounds, subsetsOf(spec)) };
}

function adaptiveAllocate(spec: UnitedDeploymentSpec, existing: ReadonlyMap<string, ExistingSubset>): Allocation {
  const replicas = spec.replicas ?? 0;
  const bounds = rawBounds(spec, replicas);
  if ('error' in bounds) return bounds;
  for (const s of subsetsOf(spec)) {
    const name = s.name ?? '';
    let lo = bounds.min.get(name)!;
    let hi = bounds.max.get(name)!;
    const found = existing.get(name);
    const unschedulable = found?.unschedulable ?? false;
    if (found && unschedulable) {
      lo = Math.max(found.readyReplicas, lo);
      hi = Math.min(found.readyReplicas, hi);
    }
    const ready = found?.readyReplicas ?? 0;
    if (!unschedulable && ready > lo) lo = Math.min(ready, hi);
    bounds.min.set(name, lo);
    bounds.max.set(name, hi);
  }
  return { replicas: allocateByBounds(replicas, bounds, subsetsOf(spec)) };
}

/** The reservation allocator (Adaptive with reserveUnschedulablePods; see reservation.ts). */
export function allocateReserving(spec: UnitedDeploymentSpec, existing: ReadonlyMap<string, ReservedSubset>): Allocation {
  const replicas = spec.replicas ?? 0;
  const bounds = rawBounds(spec, replicas);
  if ('error' in bounds) return bounds;
  return { replicas: allocateWithReservation(replicas, subsetsOf(spec).map((s) => s.name ?? ''), bounds.min, bounds.max, existing) };
}
