// Pods as the controller reads them from a LIST (plain JSON: timestamps are strings), and the
// generic pod facts OpenKruise's SidecarSet controller relies on: activity, readiness, container
// statuses and image identity (pkg/util/pods.go, pkg/util/imageutils, k8s controller_utils.go).
// Pure, Web APIs only.

export type EnvVar = { name: string; value?: string; [k: string]: unknown };

export type Container = {
  name: string;
  image?: string;
  env?: EnvVar[];
  restartPolicy?: string;
  [k: string]: unknown;
};

export type ContainerStatus = {
  name: string;
  ready?: boolean;
  image?: string;
  imageID?: string;
  restartCount?: number;
  [k: string]: unknown;
};

export type PodCondition = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
};

export type Pod = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string | null;
    deletionTimestamp?: string | null;
    [k: string]: unknown;
  };
  spec: { nodeName?: string; containers: Container[]; initContainers?: Container[]; [k: string]: unknown };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    containerStatuses?: ContainerStatus[];
    [k: string]: unknown;
  };
};

export const podKey = (pod: Pod): string => `${pod.metadata.namespace}/${pod.metadata.name}`;

/** kubecontroller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

export function podCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReadyCondition(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/** util.IsRunningAndReady: Running, Ready, and not being deleted. */
export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReadyCondition(pod) && !pod.metadata.deletionTimestamp;
}

export function findContainer(pod: Pod, name: string): Container | undefined {
  return pod.spec.containers.find((c) => c.name === name);
}

export function containerStatus(pod: Pod, name: string): ContainerStatus | undefined {
  return pod.status?.containerStatuses?.find((s) => s.name === name);
}

/** util.GetPodContainerImageIDs: container → imageID with any `scheme://` prefix removed. */
export function containerImageIDs(pod: Pod): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of pod.status?.containerStatuses ?? []) {
    const id = s.imageID ?? '';
    out.set(s.name, id.includes('://') ? id.split('://')[1]! : id);
  }
  return out;
}

// ---- Image references (reference.ParseNormalizedNamed, as util.ParseImage uses it) ------------

export type ImageRef = { repo: string; tag: string; digest: string };

/** Repository (Docker Hub names normalized), tag and digest of an image reference; undefined if unparsable. */
export function parseImage(image: string): ImageRef | undefined {
  if (!image || /\s/.test(image)) return undefined;
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/.test(digest)) return undefined;
  }
  let tag = '';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  if (!rest) return undefined;
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  const hasDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase());
  let domain = hasDomain ? first : 'docker.io';
  const path = hasDomain ? rest.slice(slash + 1) : rest;
  if (domain === 'index.docker.io') domain = 'docker.io';
  const repo = domain === 'docker.io' && !path.includes('/') ? `${domain}/library/${path}` : `${domain}/${path}`;
  return { repo, tag, digest };
}

/** util.IsImageDigest: the reference pins a digest (`repo@sha256:…`). */
export function isImageDigest(image: string): boolean {
  return !!parseImage(image)?.digest;
}

/** util.IsContainerImageEqual: same repository and, both being digests, same digest; else same tag. */
export function isContainerImageEqual(a: string, b: string): boolean {
  const x = parseImage(a);
  const y = parseImage(b);
  if (!x || !y) return false;
  if (x.digest && y.digest) return x.repo === y.repo && x.digest === y.digest;
  return x.repo === y.repo && x.tag === y.tag;
}

// ---- Ordering helpers (k8s ActivePods) -------------------------------------------------------

export function maxContainerRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
}

/** When the pod became Ready (the Ready condition's lastTransitionTime), 0 if unknown. */
export function readyTime(pod: Pod): number {
  const c = podCondition(pod, 'Ready');
  return c?.status === 'True' ? timeOf(c.lastTransitionTime) : 0;
}

export function timeOf(t: string | null | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/** metav1.Time in JSON: RFC 3339, whole seconds, UTC. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * podutil.IsPodAvailable: Ready for at least `minReadySeconds` at `now` (ms); with 0, Ready is
 * enough. Returns the time it becomes available when it is Ready but not yet, for a wake-up.
 */
export function podAvailability(pod: Pod, minReadySeconds: number, now: number): { available: boolean; at?: number } {
  if (!isPodReadyCondition(pod)) return { available: false };
  if (minReadySeconds <= 0) return { available: true };
  const since = readyTime(pod);
  const at = since + minReadySeconds * 1000;
  return since > 0 && at <= now ? { available: true } : { available: false, at };
}
