// Node and Lambda bind the app's ports the same way: credentials from a JSON registry, state
// read live from the cluster in the kubeconfig (one cluster per process).
import type { AppPorts } from '../../src/app.js';
import { registryFromJson } from '../../src/admission/file-registry.js';
import { LiveClusterState } from '../../src/admission/live-state.js';
import { KubeHttp } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { stateCollections, webhookEndpoints, type Feature } from '../../src/registry.js';

export type LivePortsConfig = {
  /** JSON array of ClusterCredentials. */
  registryJson: string;
  /** The cluster id this process serves with live reads. */
  clusterId: string;
  kubeconfigPath?: string;
  features: readonly Feature[];
};

export async function livePorts(cfg: LivePortsConfig): Promise<AppPorts & { kube: KubeHttp }> {
  const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(cfg.kubeconfigPath));
  const live = new LiveClusterState((apiVersion, kind) => kube.list(apiVersion, kind), stateCollections(cfg.features));
  const none = { collection: async () => undefined };
  return {
    kube,
    endpoints: webhookEndpoints(cfg.features),
    registry: registryFromJson(cfg.registryJson),
    state: (clusterId) => (clusterId === cfg.clusterId ? live : none),
  };
}
