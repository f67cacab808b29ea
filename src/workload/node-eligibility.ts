// Which nodes a per-node workload's pod may run on: required node affinity, nodeSelector and nodeName,
// taints and tolerations, the native DaemonSet's eligibility (NodeShouldRunDaemonPod) and the
// scheduler's resource fit against allocatable (BroadcastJob). Pure: no I/O.
import { formatQuantity, parseQuantity } from '../kube/quantity.js';
import { labelKeyError, labelValueError, type Labels } from '../kube/selectors.js';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, ResourceList, SchedulingSpec, Taint, Toleration } from './nodes.js';

type Matcher = (values: Labels) => boolean;

// ---- required node affinity (component-helpers nodeaffinity) ----

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, int64 range. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

const has = (labels: Labels, key: string) => Object.prototype.hasOwnProperty.call(labels, key);

/** A matchExpressions requirement as labels.NewRequirement builds it; undefined when it is invalid. */
function labelRequirement(r: NodeSelectorRequirement): Matcher | undefined {
  const values = r.values ?? [];
  if (labelKeyError(r.key) !== undefined || values.some((v) => labelValueError(v) !== undefined)) return undefined;
  const { key } = r;
  switch (r.operator) {
    case 'In':
      return values.length === 0 ? undefined : (l) => has(l, key) && values.includes(l[key]!);
    case 'NotIn':
      return values.length === 0 ? undefined : (l) => !has(l, key) || !values.includes(l[key]!);
    case 'Exists':
      return values.length !== 0 ? undefined : (l) => has(l, key);
    case 'DoesNotExist':
      return values.length !== 0 ? undefined : (l) => !has(l, key);
    case 'Gt':
    case 'Lt': {
      const bound = values.length === 1 ? parseInt64(values[0]!) : undefined;
      if (bound === undefined) return undefined;
      const gt = r.operator === 'Gt';
      return (l) => {
        const actual = has(l, key) ? parseInt64(l[key]!) : undefined;
        return actual !== undefined && (gt ? actual > bound : actual < bound);
      };
    }
    default:
      return undefined;
  }
}

/** A matchFields requirement (nodeSelectorRequirementsAsFieldSelector): In/NotIn with exactly one value. */
function fieldRequirement(r: NodeSelectorRequirement): Matcher | undefined {
  const values = r.values ?? [];
  if (values.length !== 1) return undefined;
  const want = values[0]!;
  // fields.Set.Get: an absent field reads as "".
  if (r.operator === 'In') return (f) => (f[r.key] ?? '') === want;
  if (r.operator === 'NotIn') return (f) => (f[r.key] ?? '') !== want;
  return undefined;
}

function compileAll(reqs: readonly NodeSelectorRequirement[], compile: (r: NodeSelectorRequirement) => Matcher | undefined): Matcher[] | undefined {
  const out: Matcher[] = [];
  for (const r of reqs) {
    const m = compile(r);
    if (!m) return undefined;
    out.push(m);
  }
  return out;
}

/** One term: an empty term, or one that does not parse, selects nothing. */
function termMatches(node: Node, term: NodeSelectorTerm): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labelMatchers = compileAll(exprs, labelRequirement);
  const fieldMatchers = compileAll(fields, fieldRequirement);
  if (!labelMatchers || !fieldMatchers) return false;
  const labels = node.metadata.labels ?? {};
  if (!labelMatchers.every((m) => m(labels))) return false;
  // The only node field is metadata.name; Kubernetes skips field requirements when there is no field.
  const nodeFields: Labels = node.metadata.name ? { 'metadata.name': node.metadata.name } : {};
  if (fields.length > 0 && Object.keys(nodeFields).length > 0 && !fieldMatchers.every((m) => m(nodeFields))) return false;
  return true;
}

/**
 * nodeSelectorTerms as required node affinity reads them: the terms are ORed, a term's expressions
 * and fields ANDed; no terms select nothing; a term with an invalid requirement is skipped (parse
 * errors are ignored for backwards compatibility, as the scheduler and DaemonSet controller do).
 */
export function nodeMatchesSelectorTerms(node: Node, terms: readonly NodeSelectorTerm[] | null | undefined): boolean {
  return (terms ?? []).some((term) => termMatches(node, term));
}

export type TemplateMismatch = 'nodeName' | 'nodeSelector' | 'nodeAffinity';

/** Why the spec's nodeName, nodeSelector or required node affinity rules `node` out, or undefined. */
export function templateMismatch(node: Node, spec: SchedulingSpec): TemplateMismatch | undefined {
  if (spec.nodeName && spec.nodeName !== node.metadata.name) return 'nodeName';
  const labels = node.metadata.labels ?? {};
  const selector = Object.entries(spec.nodeSelector ?? {});
  if (!selector.every(([k, v]) => has(labels, k) && labels[k] === v)) return 'nodeSelector';
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // A null required affinity imposes nothing; a present one with no terms matches no node.
  if (required && !nodeMatchesSelectorTerms(node, required.nodeSelectorTerms)) return 'nodeAffinity';
  return undefined;
}

/** spec.nodeName (when set), spec.nodeSelector and required node affinity all admit `node`. */
export function nodeMatchesPodTemplate(node: Node, spec: SchedulingSpec): boolean {
  return templateMismatch(node, spec) === undefined;
}

// ---- taints and tolerations (core/v1 helper) ----

/** Toleration.ToleratesTaint. tolerationSeconds plays no part in whether a taint is tolerated. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** FindMatchingUntoleratedTaint: the first taint with one of `effects` that no toleration tolerates. */
export function untoleratedTaint(
  taints: readonly Taint[] | null | undefined,
  tolerations: readonly Toleration[] | null | undefined,
  effects: readonly string[],
): Taint | undefined {
  return (taints ?? []).find((taint) => effects.includes(taint.effect) && !(tolerations ?? []).some((t) => toleratesTaint(t, taint)));
}

/** Taint.ToString: `key=value:Effect`, or `key:Effect` without a value. */
export function formatTaint(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}

export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/**
 * The node's taints, with the unschedulable:NoSchedule taint a cordoned node carries once the node
 * lifecycle controller has seen it (a cluster without that controller still treats it as cordoned).
 */
export function effectiveTaints(node: Node): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const present = taints.some((t) => t.key === TAINT_UNSCHEDULABLE && t.effect === 'NoSchedule');
  if (node.spec?.unschedulable && !present) taints.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  return taints;
}

// ---- the native DaemonSet (pkg/controller/daemon) ----

function daemonTolerations(hostNetwork: boolean): Toleration[] {
  const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  return [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists(TAINT_UNSCHEDULABLE, 'NoSchedule'),
    ...(hostNetwork ? [exists('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

/** Toleration.MatchToleration: same key, operator, value and effect (tolerationSeconds aside). */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');
}

/** AddOrUpdateTolerationInPodSpec: replaces a matching toleration (dropping its tolerationSeconds) or appends. */
function addOrUpdateToleration(tolerations: readonly Toleration[], add: Toleration): Toleration[] {
  if (!tolerations.some((t) => sameToleration(t, add))) return [...tolerations, add];
  return tolerations.map((t) => (sameToleration(t, add) ? { ...add } : t));
}

/** AddOrUpdateDaemonPodTolerations: the spec (a copy) with the daemon tolerations added once. */
export function withDaemonTolerations<S extends SchedulingSpec>(spec: S): S & { tolerations: Toleration[] } {
  const tolerations = daemonTolerations(spec.hostNetwork === true).reduce<Toleration[]>(addOrUpdateToleration, [...(spec.tolerations ?? [])]);
  return { ...spec, tolerations };
}

export type DaemonEligibility = { shouldRun: boolean; shouldContinueRunning: boolean; reason?: string };

const MISMATCH_REASON: Record<TemplateMismatch, string> = {
  nodeName: "the template's nodeName names another node",
  nodeSelector: "the node's labels do not match the template's nodeSelector",
  nodeAffinity: "the node does not match the template's required node affinity",
};

/**
 * NodeShouldRunDaemonPod (Kubernetes 1.20+): whether a daemon pod should be created on `node`, and
 * whether one already there should stay. Cordoned nodes are tolerated through the daemon tolerations.
 */
export function daemonNodeEligibility(node: Node, spec: SchedulingSpec): DaemonEligibility {
  const mismatch = templateMismatch(node, spec);
  if (mismatch) return { shouldRun: false, shouldContinueRunning: false, reason: MISMATCH_REASON[mismatch] };
  const { tolerations } = withDaemonTolerations(spec);
  const taints = effectiveTaints(node);
  const blocking = untoleratedTaint(taints, tolerations, ['NoSchedule', 'NoExecute']);
  if (!blocking) return { shouldRun: true, shouldContinueRunning: true };
  const evicting = untoleratedTaint(taints, tolerations, ['NoExecute']);
  const reason = `the node has a taint the pod does not tolerate: ${formatTaint(evicting ?? blocking)}`;
  return { shouldRun: false, shouldContinueRunning: evicting === undefined, reason };
}

// ---- resource fit against allocatable (scheduler NodeResourcesFit, as BroadcastJob uses it) ----

/** Amounts in nano-units, exact (parseQuantity keeps at most nano precision). */
type Amounts = Map<string, bigint>;

const NANO = 9;

function nanoOf(text: string): bigint {
  const q = parseQuantity(text);
  if (!q) return 0n; // the API server rejects unparsable quantities; count them as nothing
  const shift = q.scale + NANO;
  return shift >= 0 ? q.mantissa * 10n ** BigInt(shift) : q.mantissa / 10n ** BigInt(-shift);
}

function addInto(target: Amounts, list: ResourceList | Amounts | null | undefined): void {
  const entries = list instanceof Map ? list.entries() : Object.entries(list ?? {}).map(([k, v]): [string, bigint] => [k, nanoOf(v)]);
  for (const [name, amount] of entries) target.set(name, (target.get(name) ?? 0n) + amount);
}

function maxInto(target: Amounts, list: Amounts): void {
  for (const [name, amount] of list) if (amount > (target.get(name) ?? 0n)) target.set(name, amount);
}

/**
 * resourcehelper.PodRequests: the containers' requests summed; an init container runs alone, so the
 * pod needs at least the largest one, plus the restartable (sidecar) init containers started before
 * it, which also keep running beside the containers; then the pod overhead.
 */
export function podRequests(spec: SchedulingSpec): Map<string, bigint> {
  const total: Amounts = new Map();
  for (const c of spec.containers ?? []) addInto(total, c.resources?.requests);
  const sidecars: Amounts = new Map();
  const initPeak: Amounts = new Map();
  for (const c of spec.initContainers ?? []) {
    const own: Amounts = new Map();
    addInto(own, c.resources?.requests);
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(initPeak, sidecars);
    } else {
      addInto(own, sidecars);
      maxInto(initPeak, own);
    }
  }
  maxInto(total, initPeak);
  addInto(total, spec.overhead);
  return total;
}

/** The resources NodeResourcesFit compares: cpu, memory, ephemeral-storage and the scalar ones. */
function isCheckedResource(name: string): boolean {
  if (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage') return true;
  if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')) return true;
  return name.includes('/') && !name.startsWith('requests.'); // extended and prefixed native resources
}

/** The scheduler's integer units: milli-CPU, whole units otherwise, both rounded up. */
function schedulerUnits(name: string, nano: bigint): bigint {
  const unit = name === 'cpu' ? 10n ** 6n : 10n ** 9n;
  const whole = nano / unit;
  return whole * unit < nano ? whole + 1n : whole;
}

function scheduledAmounts(requests: Amounts): Amounts {
  return new Map([...requests].filter(([name]) => isCheckedResource(name)).map(([name, n]) => [name, schedulerUnits(name, n)]));
}

function formatUnits(name: string, units: bigint): string {
  return formatQuantity({ mantissa: units, scale: name === 'cpu' ? -3 : 0, format: name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-') ? 'BinarySI' : 'DecimalSI' });
}

const NATIVE_ORDER = ['cpu', 'memory', 'ephemeral-storage'];

/** Fits' order: cpu, memory, ephemeral-storage, then the scalar resources (by name here). */
function checkOrder(requests: Amounts): string[] {
  const scalar = [...requests.keys()].filter((n) => !NATIVE_ORDER.includes(n)).sort();
  return [...NATIVE_ORDER.filter((n) => requests.has(n)), ...scalar];
}

export type InsufficientResource = { resource: string; requested: string; used: string; allocatable: string };
export type ResourceFit = { fits: boolean; insufficient: InsufficientResource[]; reason?: string };

/**
 * NodeResourcesFit's Fits: the pod count against allocatable pods, then each resource the pod
 * requests against allocatable minus what `podsOnNode` request. The caller passes the pods that
 * count (those bound to the node and not finished), without the pod being placed.
 */
export function fitsAllocatable(node: Node, spec: SchedulingSpec, podsOnNode: readonly { spec: SchedulingSpec }[] = []): ResourceFit {
  const allocatable: Amounts = new Map();
  addInto(allocatable, node.status?.allocatable);
  const insufficient: InsufficientResource[] = [];
  const allowedPods = schedulerUnits('pods', allocatable.get('pods') ?? 0n);
  if (BigInt(podsOnNode.length) + 1n > allowedPods) {
    insufficient.push({ resource: 'pods', requested: '1', used: String(podsOnNode.length), allocatable: String(allowedPods) });
  }
  const used: Amounts = new Map();
  for (const p of podsOnNode) addInto(used, scheduledAmounts(podRequests(p.spec)));
  const wanted = scheduledAmounts(podRequests(spec));
  for (const name of checkOrder(wanted)) {
    const request = wanted.get(name)!;
    const capacity = schedulerUnits(name, allocatable.get(name) ?? 0n);
    const inUse = used.get(name) ?? 0n;
    if (request > 0n && request > capacity - inUse) {
      insufficient.push({ resource: name, requested: formatUnits(name, request), used: formatUnits(name, inUse), allocatable: formatUnits(name, capacity) });
    }
  }
  if (insufficient.length === 0) return { fits: true, insufficient };
  const reason = insufficient.map((r) => (r.resource === 'pods' ? 'Too many pods' : `Insufficient ${r.resource}`)).join(', ');
  return { fits: false, insufficient, reason };
}

// ---- a job's pod on one node (OpenKruise's BroadcastJob checkNodeFitness) ----

export type JobNodeFit = { fits: boolean; reason?: string };

/**
 * Whether a pod with `spec` can run on `node`, as OpenKruise's BroadcastJob decides it: nodeName,
 * nodeSelector and required node affinity; no NoSchedule/NoExecute taint it does not tolerate; not
 * cordoned unless it tolerates the unschedulable taint; and its requests within the node's
 * allocatable. Other pods on the node are not counted (the job's pods are short and the scheduler
 * has the last word), nor are daemon tolerations added.
 */
export function jobNodeFit(node: Node, spec: SchedulingSpec): JobNodeFit {
  const mismatch = templateMismatch(node, spec);
  if (mismatch) return { fits: false, reason: MISMATCH_REASON[mismatch] };
  const taint = untoleratedTaint(node.spec?.taints, spec.tolerations, ['NoSchedule', 'NoExecute']);
  if (taint) return { fits: false, reason: `the node has a taint the pod does not tolerate: ${formatTaint(taint)}` };
  const cordon: Taint = { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' };
  if (node.spec?.unschedulable && !(spec.tolerations ?? []).some((t) => toleratesTaint(t, cordon))) return { fits: false, reason: 'the node is unschedulable' };
  const resources = fitsAllocatable(node, spec);
  return resources.fits ? { fits: true } : { fits: false, reason: `the node lacks resources: ${resources.reason}` };
}
