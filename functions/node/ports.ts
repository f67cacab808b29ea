// Node and Lambda bind the app's ports the same way: credentials from a JSON registry, state
// read live from the cluster in the kubeconfig (one cluster per process). Ledgers differ, so each
// entry passes its own: see server.ts and lambda/index.ts.
import { createHash } from 'node:crypto';
import type { AppPorts } from '../../src/app.js';
import { registryFromJson } from '../../src/edge-state/file-registry.js';
import type { Ledgers } from '../../src/edge-state/ledger.js';
import { LiveClusterState } from '../../src/edge-state/live-state.js';
import type { EdgeTarget } from '../../src/edge-state/push.js';
import type { ClusterState } from '../../src/edge-state/contracts.js';
import { KubeHttp } from '../../src/kube/http.js';
import { featureExplainers, stateCollections, webhookEndpoints } from '../../src/registry.js';
import { type Feature } from '../../src/feature.js';

export type LivePortsConfig = {
  /** JSON array of ClusterCredentials. */
  registryJson: string;
  /** The cluster id this process serves with live reads. */
  clusterId: string;
  kubeconfigPath?: string;
  features: readonly Feature[];
  /** Where to publish change events for reconciled kinds, if anywhere. */
  changes?: AppPorts['changes'];
  /** The ledger authority for `clusterId`; without one, handlers follow their declared fallback. */
  ledgers?: Ledgers;
};

/** KS_EDGE_URL + KS_SYNC_TOKEN: the edge (Worker) that holds this cluster's ledgers. */
export function edgeFromEnv(env: Record<string, string | undefined>, clusterId: string): EdgeTarget | undefined {
  return env.KS_EDGE_URL && env.KS_SYNC_TOKEN ? { baseUrl: env.KS_EDGE_URL.replace(/\/$/, ''), clusterId, syncToken: env.KS_SYNC_TOKEN } : undefined;
}

/** node:crypto's SHA-256: ~1.5 µs against ~40 µs for Web Crypto on Node 20. */
export const nodeSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export async function livePorts(cfg: LivePortsConfig): Promise<AppPorts & { kube: KubeHttp }> {
  const kube = await KubeHttp.fromKubeConfigFile(cfg.kubeconfigPath);
  return { kube, ...livePortsFrom(() => Promise.resolve(kube), cfg) };
}

/**
 * The same ports over a client that may change between calls (an EKS client is rebuilt when its
 * token is renewed, src/aws/kube-source.ts): every live read asks `kube` for the current one.
 */
export function livePortsFrom(kube: () => Promise<KubeHttp>, cfg: Omit<LivePortsConfig, 'kubeconfigPath'>): AppPorts {
  const live = new LiveClusterState(async (apiVersion, kind, opts) => (await kube()).list(apiVersion, kind, opts), stateCollections(cfg.features));
  const ours: ClusterState = { collection: (name) => live.collection(name), ...(cfg.ledgers ? { ledgers: cfg.ledgers } : {}) };
  const none: ClusterState = { collection: async () => undefined };
  return {
    endpoints: webhookEndpoints(cfg.features),
    explainers: featureExplainers(cfg.features),
    registry: registryFromJson(cfg.registryJson),
    state: (clusterId) => (clusterId === cfg.clusterId ? ours : none),
    ...(cfg.ledgers ? { ledgers: (clusterId: string) => (clusterId === cfg.clusterId ? cfg.ledgers : undefined) } : {}),
    hash: nodeSha256,
    writeThrough: { collections: stateCollections(cfg.features), record: (clusterId, writes) => (clusterId === cfg.clusterId ? live.admit(writes) : Promise.resolve()) },
    ...(cfg.changes ? { changes: cfg.changes } : {}),
  };
}
