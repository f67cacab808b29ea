// What the installer needs to know of the API server's version.
import type { KubeHttp } from '../kube/http.js';

type VersionInfo = { major?: string; minor?: string };

/**
 * Whether the API server keeps the `kubernetes.io/metadata.name` label on every namespace, as
 * Kubernetes does since 1.21. Minor versions read like "20" or "20+" (vendor builds).
 */
export function keepsNameLabel(v: VersionInfo): boolean {
  const major = Number.parseInt(v.major ?? '', 10);
  const minor = Number.parseInt(v.minor ?? '', 10);
  if (!Number.isFinite(major) || !Number.isFinite(minor)) return true;
  return major > 1 || minor >= 21;
}

export async function serverKeepsNameLabel(kube: KubeHttp): Promise<boolean> {
  return keepsNameLabel(await kube.request<VersionInfo>('GET', '/version'));
}
