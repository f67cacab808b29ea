// The hash OpenKruise names an Advanced DaemonSet's revision with (snapshot, Kubernetes'
// controller.ComputeHash): FNV-1a (32 bit) over go-spew's printout of the v1.PodTemplateSpec
// (../kube/go-spew.ts), then, when status.collisionCount is set, its 4 bytes little-endian and 4
// zero bytes; the sum in decimal, safe-encoded. undefined when the template holds a value the
// printer cannot reproduce (a quantity beyond int64's fast path, a set timestamp). Pure.
import { spew, SpewUnsupported } from '../kube/go-spew.js';
import { safeEncodeString } from '../workload/revisions.js';

export function computeTemplateHash(template: unknown, collisionCount: number | undefined): string | undefined {
  let text: string;
  try {
    text = spew('v1.PodTemplateSpec', template ?? {});
  } catch (e) {
    if (e instanceof SpewUnsupported) return undefined;
    throw e;
  }
  let h = 0x811c9dc5;
  const feed = (b: number) => {
    h = Math.imul(h ^ b, 0x01000193) >>> 0;
  };
  for (const b of new TextEncoder().encode(text)) feed(b);
  if (collisionCount !== undefined) {
    const c = collisionCount >>> 0;
    for (const b of [c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, c >>> 24, 0, 0, 0, 0]) feed(b);
  }
  return safeEncodeString(String(h >>> 0));
}
