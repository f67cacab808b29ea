// The Node-only Kubernetes client. Worker code never imports this file: it reads cluster state
// through ports instead (see src/admission).
import { KubeConfig } from '@kubernetes/client-node';
import { KubeHttp, type KubeObject } from './http.js';

export const FIELD_MANAGER = 'kruise-serverless';

export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}

/** Server-side applies each object (create or merge), owning only the fields we set. */
export async function applyObjects(kube: KubeHttp, objects: KubeObject[]): Promise<KubeObject[]> {
  const applied: KubeObject[] = [];
  for (const obj of objects) applied.push(await kube.apply(obj, FIELD_MANAGER));
  return applied;
}
