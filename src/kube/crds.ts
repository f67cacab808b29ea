// Installs our CRDs into a cluster and waits until the API server serves them.
import { ApiextensionsV1Api, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { applyObjects } from './node-client.js';

export function isEstablished(crd: V1CustomResourceDefinition): boolean {
  const conds = crd.status?.conditions ?? [];
  return ['Established', 'NamesAccepted'].every((t) => conds.some((c) => c.type === t && c.status === 'True'));
}

export async function installCrds(kc: KubeConfig, crds: V1CustomResourceDefinition[], timeoutMs = 60_000): Promise<void> {
  await applyObjects(kc, crds);
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = crd.metadata?.name ?? '';
    for (;;) {
      const live = await api.readCustomResourceDefinition({ name });
      if (isEstablished(live)) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not established after ${timeoutMs / 1000}s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
