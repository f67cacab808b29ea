// The trigger every workload controller needs: a change to one of its pods runs the controller for
// just the workload that owns it (its controller owner reference), so a rollout moves on as each
// pod becomes ready, and other pods cost nothing. The runtime's job, not each feature's.
import type { KubeObject } from '../kube/http.js';
import type { Trigger } from './types.js';

type OwnerReference = { apiVersion?: string; kind?: string; name?: string; controller?: boolean };

const groupOf = (apiVersion: string | undefined) => {
  const v = apiVersion ?? '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
};

/** Pods trigger a run of the `apiVersion`/`kind` object that controls them (any version of its group). */
export function ownedPods(apiVersion: string, kind: string): Trigger {
  const group = groupOf(apiVersion);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    objectsOf: (pod: KubeObject) => {
      const owners = (pod.metadata?.ownerReferences ?? []) as OwnerReference[];
      const owner = owners.find((o) => o.controller === true);
      if (!owner?.name || owner.kind !== kind || groupOf(owner.apiVersion) !== group) return [];
      return [{ ...(pod.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}), name: owner.name }];
    },
  };
}
