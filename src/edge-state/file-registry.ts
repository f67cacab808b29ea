// Cluster credentials from a JSON document (Node and Lambda): an array of ClusterCredentials,
// holding only SHA-256 hashes of secrets.
import type { ClusterCredentials, ClusterRegistry } from './auth.js';

export function registryFromJson(text: string): ClusterRegistry {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error('cluster registry must be a JSON array of {clusterId, webhookSecrets, syncTokens}');
  const byId = new Map<string, ClusterCredentials>();
  for (const c of parsed as ClusterCredentials[]) {
    if (typeof c?.clusterId !== 'string' || !Array.isArray(c.webhookSecrets)) throw new Error('each cluster needs clusterId and webhookSecrets');
    byId.set(c.clusterId, { clusterId: c.clusterId, webhookSecrets: c.webhookSecrets, syncTokens: c.syncTokens ?? [] });
  }
  return { credentials: async (id) => byId.get(id) };
}
