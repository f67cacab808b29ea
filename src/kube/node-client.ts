// The Node-only Kubernetes client (@kubernetes/client-node). Worker code never imports this
// file: it reads cluster state through ports instead (see src/admission).
import { KubeConfig, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';

export const FIELD_MANAGER = 'kruise-serverless';

export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}

/** Server-side applies each object (create or merge), owning only the fields we set. */
export async function applyObjects(kc: KubeConfig, objects: KubernetesObject[]): Promise<KubernetesObject[]> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const applied: KubernetesObject[] = [];
  for (const obj of objects) {
    applied.push(await api.patch(obj, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply));
  }
  return applied;
}
