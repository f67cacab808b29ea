// Is a pod update only an in-place resize (OpenKruise's CanResizeInplace, pubcontrol)? Then the
// PUB classes it RESIZE instead of UPDATE: no unavailable label added; the spec unchanged but for
// container resources; not a static pod; the same QoS class; and every changed resource is cpu or
// memory whose container resizePolicy is NotRequired (or unset). Pure.
import { compareQuantities, parseQuantity } from '../kube/quantity.js';
import type { Container, Pod } from '../workload/pods.js';
import { hasUnavailableLabel } from './types.js';

type ResourceList = Record<string, string | number>;
type Resources = { requests?: ResourceList | null; limits?: ResourceList | null };
const RESIZABLE = new Set(['cpu', 'memory']);

const resourcesOf = (c: Container): Resources => (c['resources'] as Resources | undefined) ?? {};

/** Both absent: unchanged; one absent: changed; else compared as quantities (strictly, as upstream). */
function changed(a: ResourceList | null | undefined, b: ResourceList | null | undefined, name: string): boolean {
  const x = a?.[name];
  const y = b?.[name];
  if (x === undefined && y === undefined) return false;
  if (x === undefined || y === undefined) return true;
  const [qx, qy] = [parseQuantity(String(x)), parseQuantity(String(y))];
  return !qx || !qy ? String(x) !== String(y) : compareQuantities(qx, qy) !== 0;
}

/** The spec with container resources cleared, as JSON (podSpecWithoutResourcesHash). */
function specWithoutResources(pod: Pod): string {
  return JSON.stringify({ ...pod.spec, containers: pod.spec.containers.map((c) => ({ ...c, resources: {} })) });
}

/** kubelet types.IsStaticPod: a config source other than the API server. */
const isStaticPod = (pod: Pod): boolean => {
  const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
  return source !== undefined && source !== 'api';
};

/** v1qos.ComputePodQOS over cpu and memory. */
export function podQOS(pod: Pod): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  let any = false;
  let guaranteed = true;
  for (const c of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
    const { requests, limits } = resourcesOf(c);
    for (const name of RESIZABLE) {
      const request = requests?.[name] ?? limits?.[name];
      const limit = limits?.[name];
      if (request !== undefined || limit !== undefined) any = true;
      if (limit === undefined || request === undefined || changed({ [name]: request }, { [name]: limit }, name)) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function resizableInPlace(oldPod: Pod, newPod: Pod): boolean {
  if (oldPod.spec.containers.length !== newPod.spec.containers.length) return false;
  const before = new Map(oldPod.spec.containers.map((c) => [c.name, c]));
  for (const c of newPod.spec.containers) {
    const old = before.get(c.name);
    if (!old) return false;
    const [a, b] = [resourcesOf(old), resourcesOf(c)];
    const names = new Set([a.requests, b.requests, a.limits, b.limits].flatMap((l) => Object.keys(l ?? {})));
    const policies = new Map(((c['resizePolicy'] as { resourceName?: string; restartPolicy?: string }[] | undefined) ?? []).map((p) => [p.resourceName, p.restartPolicy]));
    for (const name of names) {
      if (!changed(a.requests, b.requests, name) && !changed(a.limits, b.limits, name)) continue;
      if (!RESIZABLE.has(name)) return false;
      const policy = policies.get(name);
      if (policy !== undefined && policy !== '' && policy !== 'NotRequired') return false;
    }
  }
  return true;
}

export function isResizeOnly(oldPod: Pod, newPod: Pod): boolean {
  if (!hasUnavailableLabel(oldPod.metadata.labels) && hasUnavailableLabel(newPod.metadata.labels)) return false;
  if (specWithoutResources(oldPod) !== specWithoutResources(newPod)) return false;
  if (isStaticPod(oldPod) || isStaticPod(newPod)) return false;
  if (podQOS(oldPod) !== podQOS(newPod)) return false;
  return resizableInPlace(oldPod, newPod);
}
