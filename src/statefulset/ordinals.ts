// Ordinals of an Advanced StatefulSet (stateful_set_utils.go getParentNameAndOrdinal,
// getStatefulSetReplicasRange; pkg/util/api/asts.go): pods are `<set>-<ordinal>`; the ordinals in
// use start at `ordinals.start` and run past the reserved ones until `replicas` are counted, so
// replicas 4 with reserveOrdinals [1] are 0, 2, 3, 4. Pure.
import type { IntOrString } from '../kube/intstr.js';

export type OrdinalRange = {
  /** First ordinal (inclusive). */
  start: number;
  /** One past the last ordinal. */
  end: number;
  reserved: ReadonlySet<number>;
};

const POD_NAME = /^(.*)-([0-9]+)$/;
const INT32_MAX = 2 ** 31 - 1;

/** The parent name and ordinal a pod's name encodes; ordinal -1 when it encodes none. */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const m = POD_NAME.exec(podName);
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  // strconv.ParseInt(…, 10, 32): out of range is an error, leaving the ordinal at -1.
  return { parent: m[1]!, ordinal: n <= INT32_MAX ? n : -1 };
}

export const ordinalOf = (podName: string): number => parentAndOrdinal(podName).ordinal;

/**
 * GetReserveOrdinalIntSet: numbers, and "a-b" ranges (inclusive). One malformed range voids the
 * whole list, as in OpenKruise (the webhook refuses such a spec; this guards stored objects).
 */
export function reservedOrdinals(entries: readonly IntOrString[] | undefined | null): Set<number> {
  const out = new Set<number>();
  for (const e of entries ?? []) {
    if (typeof e === 'number') {
      out.add(Math.trunc(e));
      continue;
    }
    const m = /^(\+?\d+)-(\+?\d+)$/.exec(e);
    const [from, to] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
    if (!m || from > to) return new Set();
    for (let i = from; i <= to; i++) out.add(i);
  }
  return out;
}

export function ordinalRange(replicas: number, start: number, reserveOrdinals: readonly IntOrString[] | undefined | null): OrdinalRange {
  const reserved = reservedOrdinals(reserveOrdinals);
  let end = start;
  for (let counted = 0; counted < replicas; end++) {
    if (!reserved.has(end)) counted++;
  }
  return { start, end, reserved };
}

export const inOrdinalRange = (ordinal: number, r: OrdinalRange): boolean => ordinal >= r.start && ordinal < r.end && !r.reserved.has(ordinal);

/** The ordinals pods run at, ascending. */
export function liveOrdinals(r: OrdinalRange): number[] {
  const out: number[] = [];
  for (let o = r.start; o < r.end; o++) if (!r.reserved.has(o)) out.push(o);
  return out;
}
