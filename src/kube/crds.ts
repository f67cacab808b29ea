// Installs our CRDs into a cluster and waits until the API server serves them.
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import type { KubeHttp, KubeObject } from './http.js';
import { applyObjects } from './apply.js';

export function isEstablished(crd: V1CustomResourceDefinition): boolean {
  const conds = crd.status?.conditions ?? [];
  return ['Established', 'NamesAccepted'].every((t) => conds.some((c) => c.type === t && c.status === 'True'));
}

export async function installCrds(kube: KubeHttp, crds: readonly KubeObject[], timeoutMs = 60_000): Promise<void> {
  await applyObjects(kube, [...crds]);
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = crd.metadata?.name ?? '';
    for (;;) {
      const live = await kube.get<KubeObject>('apiextensions.k8s.io/v1', 'CustomResourceDefinition', name);
      if (isEstablished(live as unknown as V1CustomResourceDefinition)) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not established after ${timeoutMs / 1000}s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
