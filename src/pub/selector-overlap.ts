// OpenKruise's "loose overlap" of two label selectors (../shared/SEMANTICS.md §4.2, pkg/util/selector.go):
// two PUB selectors conflict when they constrain exactly the same keys and, key by key, some
// label value could satisfy both requirements. Selectors on different keys never conflict, even
// when one pod could match both — a known looseness kept for compatibility. Pure.
import type { LabelSelector } from '../kube/validation.js';

type Requirement = { operator: string; values: readonly string[] };

/** matchExpressions by key (the last one per key wins), then matchLabels as `In`, overriding. */
function requirementsByKey(sel: LabelSelector): Map<string, Requirement> {
  const out = new Map<string, Requirement>();
  for (const e of sel.matchExpressions ?? []) out.set(e.key ?? '', { operator: e.operator ?? '', values: e.values ?? [] });
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) out.set(k, { operator: 'In', values: [v] });
  return out;
}

const shareAny = (a: readonly string[], b: readonly string[]): boolean => b.some((v) => a.includes(v));
const containsAll = (a: readonly string[], b: readonly string[]): boolean => b.every((v) => a.includes(v));

/** Whether requirement `a` leaves room for requirement `b` on the same key (not symmetric in general). */
function requirementsOverlap(a: Requirement, b: Requirement): boolean {
  switch (a.operator) {
    case 'In':
      return b.operator === 'Exists' || (b.operator === 'In' && shareAny(b.values, a.values)) || (b.operator === 'NotIn' && !containsAll(b.values, a.values));
    case 'Exists':
      return b.operator === 'In' || b.operator === 'NotIn' || b.operator === 'Exists';
    case 'NotIn':
      return b.operator === 'Exists' || b.operator === 'DoesNotExist' || b.operator === 'NotIn' || (b.operator === 'In' && !containsAll(a.values, b.values));
    case 'DoesNotExist':
      return b.operator === 'DoesNotExist' || b.operator === 'NotIn';
    default:
      return false;
  }
}

export function isSelectorLooseOverlap(x: LabelSelector, y: LabelSelector): boolean {
  const a = requirementsByKey(x);
  const b = requirementsByKey(y);
  for (const [k, ra] of a) {
    const rb = b.get(k);
    if (!rb || !requirementsOverlap(ra, rb)) return false;
  }
  for (const [k, rb] of b) {
    const ra = a.get(k);
    if (!ra || !requirementsOverlap(rb, ra)) return false;
  }
  return true;
}
