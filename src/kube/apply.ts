// Server-side apply of our own objects (CRDs, RBAC, webhook configurations) under one field manager.
import type { KubeHttp, KubeObject } from './http.js';

export const FIELD_MANAGER = 'kruise-serverless';

/** Server-side applies each object (create or merge), owning only the fields we set. */
export async function applyObjects(kube: KubeHttp, objects: KubeObject[]): Promise<KubeObject[]> {
  const applied: KubeObject[] = [];
  for (const obj of objects) applied.push(await kube.apply(obj, FIELD_MANAGER));
  return applied;
}
