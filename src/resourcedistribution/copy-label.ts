// The value of COPY_LABEL on a copy, and the selector that lists copies. A label value holds at
// most 63 characters but a ResourceDistribution name may have 253, so long names are shortened
// with a checksum. The label only makes copies cheap to LIST; which distribution owns a copy is
// decided by its `resource.from` annotation and ownerReference (copy.ts), never by the label.
import { COPY_LABEL } from './types.js';

const MAX_LABEL_VALUE = 63;

/** FNV-1a, 32 bits, as 8 hex digits: enough to keep shortened names apart, and synchronous everywhere. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The distribution's name when it fits in a label value, else `<first 54 chars>-<checksum>`. */
export function copyLabelValue(rdName: string): string {
  if (rdName.length <= MAX_LABEL_VALUE) return rdName;
  // A DNS subdomain starts and ends alphanumeric; trim what the cut may leave dangling.
  const head = rdName.slice(0, MAX_LABEL_VALUE - 9).replace(/[^a-z0-9]+$/, '');
  return `${head}-${fnv1a(rdName)}`;
}

/** Selects every copy (no names), or the copies of the named distributions. */
export function copyLabelSelector(rdNames?: readonly string[]): string {
  if (!rdNames) return COPY_LABEL;
  const values = [...new Set(rdNames.map(copyLabelValue))].sort();
  return `${COPY_LABEL} in (${values.join(',')})`;
}
