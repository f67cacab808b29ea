// Cluster registration for the edges that read a JSON registry: Node (KS_CLUSTERS_FILE) and AWS
// Lambda (KS_CLUSTERS_JSON, the SAM parameter ClustersJson). The registry holds only SHA-256
// hashes; the secrets are returned once, to be handed to `install` and the reconciler. The same
// operations as the Worker's admin API (src/app.ts), as pure functions over the registry.
import { isClusterId, rotateCredentials, type ClusterCredentials } from '../edge-state/auth.js';

export type Registry = ClusterCredentials[];
export type CredentialName = 'webhook' | 'sync';
type Hash = (secret: string) => string;

/** Bad input or an impossible change: the message says which. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** Parses a registry file's text (an empty file is an empty registry). */
export function parseRegistry(text: string, source: string): Registry {
  if (!text.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new RegistryError(`${source}: not JSON (${(e as Error).message})`);
  }
  const ok = Array.isArray(parsed) && parsed.every((c) => typeof c?.clusterId === 'string' && Array.isArray(c.webhookSecrets) && (c.syncTokens === undefined || Array.isArray(c.syncTokens)));
  if (!ok) throw new RegistryError(`${source}: expected a JSON array of {clusterId, webhookSecrets, syncTokens}`);
  return (parsed as ClusterCredentials[]).map((c) => ({ clusterId: c.clusterId, webhookSecrets: c.webhookSecrets, syncTokens: c.syncTokens ?? [] }));
}

export function checkClusterId(id: string): void {
  if (!isClusterId(id)) throw new RegistryError(`cluster id "${id}": must be a DNS label (lowercase letters, digits, dashes; at most 63)`);
}

export function addCluster(registry: Registry, clusterId: string, secrets: { webhookSecret: string; syncToken: string }, hash: Hash): Registry {
  checkClusterId(clusterId);
  if (registry.some((c) => c.clusterId === clusterId)) throw new RegistryError(`cluster "${clusterId}" already exists; rotate its credentials instead`);
  return [...registry, { clusterId, webhookSecrets: [{ sha256: hash(secrets.webhookSecret) }], syncTokens: [{ sha256: hash(secrets.syncToken) }] }];
}

/** Adds `secret`; the cluster's earlier ones of that kind stay valid for `overlapMs` more. */
export function rotateCluster(registry: Registry, clusterId: string, r: { credential: CredentialName; secret: string; now: number; overlapMs: number }, hash: Hash): Registry {
  const key = r.credential === 'webhook' ? 'webhookSecrets' : 'syncTokens';
  return registry.map((c) => (c.clusterId === clusterId ? { ...c, [key]: rotateCredentials(c[key], hash(r.secret), r.now, r.overlapMs) } : c));
}

export function removeCluster(registry: Registry, clusterId: string): Registry {
  return registry.filter((c) => c.clusterId !== clusterId);
}

export function hasCluster(registry: Registry, clusterId: string): boolean {
  return registry.some((c) => c.clusterId === clusterId);
}

export type ClusterSummary = { clusterId: string; webhookSecrets: number; syncTokens: number; expiring: string[] };

/** What `cluster list` shows: how many credentials of each kind are valid at `now`, and until when the rotated ones are. */
export function summarize(registry: Registry, now: number): ClusterSummary[] {
  return registry.map((c) => {
    const live = (list: ClusterCredentials['webhookSecrets']) => list.filter((x) => x.notAfter === undefined || x.notAfter >= now);
    const expiring = [...live(c.webhookSecrets), ...live(c.syncTokens)].flatMap((x) => (x.notAfter === undefined ? [] : [new Date(x.notAfter).toISOString()]));
    return { clusterId: c.clusterId, webhookSecrets: live(c.webhookSecrets).length, syncTokens: live(c.syncTokens).length, expiring };
  });
}
