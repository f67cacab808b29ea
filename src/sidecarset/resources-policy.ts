// A sidecar's `resourcesPolicy` (OpenKruise pkg/webhook/pod/mutating/sidecarset_resources.go): at pod
// creation its resources are computed from the pod containers whose names the regex matches (the
// pod's native sidecars and plain containers, never a container some matched SidecarSet injects),
// summed or maxed, through the cpu and memory expressions. Unlimited stays unlimited: a limit is
// only aggregated when every matched container has one. Pure.
import { compareQuantities, formatQuantity, parseQuantity, type Quantity } from '../kube/quantity.js';
import { evaluateExpression } from './calculator.js';
import { goRegExp } from './go-regexp.js';
import { addQuantities, milliQuantity, truncToBigInt } from './quantity-math.js';
import { isNativeSidecar } from './hash.js';
import type { Container } from '../workload/pods.js';
import type { ResourcesPolicy } from '../api/apps/sidecarset.js';

export type Resources = { limits?: Record<string, string>; requests?: Record<string, string> };
type Aggregate = { cpu?: Quantity; memory?: Quantity };
type ResourceList = Record<string, unknown>;

const ZERO: Quantity = { mantissa: 0n, scale: 0, format: 'DecimalSI' };
const MEMORY_WORD = /\bmemory\b/;

function listOf(c: Container, which: 'limits' | 'requests'): ResourceList {
  const r = (c as { resources?: Record<string, unknown> }).resources?.[which];
  return typeof r === 'object' && r !== null ? (r as ResourceList) : {};
}

function quantityIn(list: ResourceList, name: string): Quantity | undefined {
  const v = list[name];
  if (typeof v === 'string') return parseQuantity(v);
  return typeof v === 'number' ? parseQuantity(String(v)) : undefined;
}

/** getTargetContainers: the pod's native sidecars, then its containers, by name, less injected ones. */
export function targetContainers(pod: { initContainers?: Container[]; containers?: Container[] }, pattern: RegExp, injected: ReadonlySet<string>): Container[] {
  const wanted = (c: Container) => !injected.has(c.name) && pattern.test(c.name);
  return [...(pod.initContainers ?? []).filter((c) => isNativeSidecar(c) && wanted(c)), ...(pod.containers ?? []).filter(wanted)];
}

/** aggregateResources, sum or max; a limit some container lacks is absent (unlimited). */
export function aggregate(containers: readonly Container[], mode: string, which: 'limits' | 'requests'): Aggregate {
  const out: Aggregate = {};
  if (mode !== 'sum' && mode !== 'max') return out;
  for (const name of ['cpu', 'memory'] as const) {
    let acc: Quantity | undefined = mode === 'sum' ? ZERO : undefined;
    let everyOne = true;
    for (const c of containers) {
      const v = quantityIn(listOf(c, which), name);
      if (!v) {
        everyOne = false;
        continue;
      }
      if (mode === 'sum') acc = addQuantities(acc!, v);
      else if (!acc || compareQuantities(v, acc) > 0) acc = v;
    }
    // Limits: unlimited unless every container has one. Requests: a missing one counts as 0, and a
    // zero sum is left out (the expression then sees 0 anyway).
    if (which === 'limits' ? everyOne && acc : acc && acc.mantissa !== 0n) out[name] = acc;
  }
  return out;
}

/** evaluateResourceExpression: the variable is `memory` if the expression names it, else `cpu`. */
function evaluate(expr: string, aggregated: Quantity): { quantity: Quantity } | { error: string } {
  const variable = MEMORY_WORD.test(expr) ? 'memory' : 'cpu';
  const result = evaluateExpression(expr, { [variable]: { quantity: aggregated } });
  if ('error' in result) return { error: `failed to parse expression ${JSON.stringify(expr)}: ${result.error}` };
  const v = result.value;
  if ('quantity' in v) return { quantity: v.quantity };
  // A plain number: cpu cores as millicores, memory as bytes.
  return { quantity: variable === 'cpu' ? milliQuantity(truncToBigInt(v.number * 1000)) : { mantissa: truncToBigInt(v.number), scale: 0, format: 'DecimalSI' } };
}

/** The sidecar's resources under `policy` for this pod, or OpenKruise's error (the pod is refused). */
export function resourcesFor(policy: ResourcesPolicy, pod: { initContainers?: Container[]; containers?: Container[] }, injected: ReadonlySet<string>): { resources: Resources } | { error: string } {
  const regex = policy.targetContainersNameRegex ?? '';
  let pattern: RegExp;
  try {
    pattern = goRegExp(regex);
  } catch (e) {
    return { error: `failed to get target containers: invalid regex pattern ${JSON.stringify(regex)}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const targets = targetContainers(pod, pattern, injected);
  if (targets.length === 0) return { error: `no containers match the regex pattern ${JSON.stringify(regex)}` };
  const mode = policy.targetContainersMode ?? '';
  const resources: Resources = {};
  for (const which of ['limits', 'requests'] as const) {
    const exprs = policy.resourcesExpr?.[which];
    if (!exprs) continue;
    const aggregated = aggregate(targets, mode, which);
    const list: Record<string, string> = {};
    for (const name of ['cpu', 'memory'] as const) {
      const expr = exprs[name];
      if (!expr) continue;
      // An unlimited limit stays unlimited; a missing request is 0.
      const value = which === 'limits' ? aggregated[name] : (aggregated[name] ?? ZERO);
      if (!value) continue;
      const out = evaluate(expr, value);
      if ('error' in out) return { error: `failed to evaluate ${name === 'cpu' ? 'CPU' : 'memory'} ${which} expression: ${out.error}` };
      list[name] = formatQuantity(out.quantity);
    }
    if (Object.keys(list).length > 0) resources[which] = list;
  }
  return { resources };
}
