// Instance ids for new pods. OpenKruise draws 5 random characters; here they are drawn from a
// hash of the CloneSet's uid and a counter, skipping ids in use, so the same observed state always
// plans the same names: a run repeated after a crash, or racing another, collides on the name
// (AlreadyExists) instead of creating a second pod. Same alphabet and length as OpenKruise's.
import { fnv1_32, safeEncodeString } from '../../workload/revisions.js';

const ID_LENGTH = 5;

function idFor(seed: string, n: number): string {
  const bytes = new TextEncoder().encode(`${seed}/${n}`);
  return safeEncodeString(String(fnv1_32(bytes)).padStart(10, '0')).slice(-ID_LENGTH);
}

/** `count` ids not in `used`, deterministic in (seed, used). */
export function newInstanceIds(seed: string, used: ReadonlySet<string>, count: number): string[] {
  const out: string[] = [];
  const taken = new Set(used);
  for (let n = 0; out.length < count; n++) {
    const id = idFor(seed, n);
    if (taken.has(id)) continue;
    taken.add(id);
    out.push(id);
  }
  return out;
}
