// A pod's Deployment when its ReplicaSet is not known yet. The Deployment controller names each
// ReplicaSet `<deployment>-<pod-template-hash>` and labels its pods with that hash; a rollout
// creates the ReplicaSet and its first pods within milliseconds, before any push of ReplicaSets
// reaches the edge, so webhooks deciding from pushed state infer the Deployment from the name.
export type OwnerRef = { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean };

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** The Deployment behind a ReplicaSet owner, from its name and the pod's hash label; else undefined. */
export function inferredDeployment(owner: OwnerRef, podLabels: Readonly<Record<string, string>> | undefined): OwnerRef | undefined {
  const hash = podLabels?.[POD_TEMPLATE_HASH_LABEL];
  const name = owner.name ?? '';
  const group = (owner.apiVersion ?? '').includes('/') ? owner.apiVersion!.split('/')[0] : '';
  if (owner.kind !== 'ReplicaSet' || group !== 'apps' || !hash || !name.endsWith(`-${hash}`) || name.length <= hash.length + 1) return undefined;
  return { apiVersion: 'apps/v1', kind: 'Deployment', name: name.slice(0, -hash.length - 1), controller: true };
}
