// The PersistentPodState reconciler: observe → decide (pure) → the runtime applies the plan. A
// change to a PersistentPodState runs it; a change to a StatefulSet (either kind) or to a pod one
// controls runs the PersistentPodStates of that workload (a scope names the workload: see
// ./observe.ts). On Lambda, a StatefulSet's admitted change runs it in full, and so does a status
// change of one of its pods (the pod-status observer publishes it for the StatefulSet: ../index.ts).
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler } from '../../reconcile/types.js';
import { PPS_API_VERSION, PPS_KIND } from '../types.js';
import { decidePersistentPodStates } from './decide.js';
import { observePersistentPodStates, type PersistentPodStateObserved } from './observe.js';

type Owner = { kind?: string; name?: string; controller?: boolean };

const podWorkload = (pod: KubeObject) => {
  const owner = ((pod.metadata?.ownerReferences ?? []) as Owner[]).find((o) => o.controller);
  return owner?.kind === 'StatefulSet' && owner.name ? [{ ...(pod.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}), name: owner.name }] : [];
};

export const persistentPodStateReconciler: Reconciler<PersistentPodStateObserved> = {
  kind: PPS_KIND,
  apiVersion: PPS_API_VERSION,
  observe: (kube, scope) => observePersistentPodStates(kube, scope),
  decide: (observed) => decidePersistentPodStates(observed),
  triggers: [
    { apiVersion: 'apps/v1', kind: 'StatefulSet' },
    { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
    { apiVersion: 'v1', kind: 'Pod', objectsOf: podWorkload },
  ],
};
