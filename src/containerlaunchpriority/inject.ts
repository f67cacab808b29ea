// The pod webhook's part (OpenKruise containerLaunchPriorityInitialization): on CREATE of a pod
// with more than one container, annotated `container-launch-priority: Ordered` (containers in
// order: 0, -1, -2, …) or with differing KRUISE_CONTAINER_PRIORITY env values, every container
// gets a KRUISE_CONTAINER_BARRIER env read from the key `p_<priority>` of the `<pod>-barrier`
// ConfigMap: the kubelet cannot start it until the controller adds that key. A pod with only a
// generateName is named here, as OpenKruise does, since the ConfigMap name needs it. Priorities
// are Go ints (64 bit): bigint here. Pure (the name suffix is given).
import { BARRIER_ENV, ORDERED, PRIORITY_ANNOTATION, PRIORITY_ENV, barrierKey, barrierName } from './types.js';

type Env = { name?: string; value?: string; valueFrom?: unknown; [k: string]: unknown };
type Container = { name?: string; env?: Env[] | null; [k: string]: unknown };
export type LaunchPod = {
  metadata?: { name?: string; generateName?: string; annotations?: Record<string, string> | null; [k: string]: unknown };
  spec?: { containers?: Container[] | null; [k: string]: unknown };
  [k: string]: unknown;
};

const INT64_MAX = 2n ** 63n - 1n;

/** strconv.Atoi on a 64-bit platform: the value, or Go's error text. */
export function atoi(text: string): bigint | string {
  if (!/^[+-]?\d+$/.test(text)) return `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
  const n = BigInt(text);
  return n > INT64_MAX || n < -INT64_MAX - 1n ? `strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range` : n;
}

/** The containers' priorities from their env, and whether they differ (getPriority); or the parse error. */
function envPriorities(containers: readonly Container[]): { priorities: bigint[]; differ: boolean } | { error: string } {
  const priorities: bigint[] = [];
  for (const c of containers) {
    let p = 0n;
    for (const e of c.env ?? []) {
      if (e?.name !== PRIORITY_ENV) continue;
      const parsed = atoi(typeof e.value === 'string' ? e.value : '');
      if (typeof parsed === 'string') return { error: parsed };
      p = parsed;
    }
    priorities.push(p);
  }
  const differ = priorities.some((p) => p !== 0n) && priorities.some((p) => p !== priorities[0]);
  return { priorities, differ };
}

export type Injection = { pod: LaunchPod } | { skip: true } | { error: string };

/** `suffix`: five characters for a generateName pod (storage.SimpleNameGenerator). */
export function injectLaunchPriority(pod: LaunchPod, suffix: string): Injection {
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return { skip: true };
  let priorities: bigint[];
  if (pod.metadata?.annotations?.[PRIORITY_ANNOTATION] === ORDERED) {
    priorities = containers.map((_, i) => BigInt(-i));
  } else {
    const found = envPriorities(containers);
    if ('error' in found) return found;
    if (!found.differ) return { skip: true };
    priorities = found.priorities;
  }
  const out = structuredClone(pod);
  const meta = (out.metadata ??= {});
  if (!meta.name && meta.generateName) meta.name = meta.generateName + suffix;
  const configMap = barrierName(meta.name ?? '');
  out.spec!.containers = containers.map((c, i) => ({
    ...structuredClone(c),
    env: [...structuredClone(c.env ?? []), { name: BARRIER_ENV, valueFrom: { configMapKeyRef: { name: configMap, key: barrierKey(priorities[i]!) } } }],
  }));
  return { pod: out };
}
