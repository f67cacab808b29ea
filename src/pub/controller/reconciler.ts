// The PodUnavailableBudget reconciler: observe (LISTs, workload scales, the edge's budgets) →
// decide (pure) → the runtime writes status, Events and back-filled annotations, then resyncs each
// budget at the edge. Node and Lambda only. The edge's ledgers come from the runtime (the run's
// edge: remoteLedgers, or the Node process's own); `ledgers` here overrides them (tests). Without
// any the controller behaves as OpenKruise's (status only), and the pod webhooks refuse protected
// disruptions once the edge's budget is stale.
import type { Ledgers } from '../../edge-state/ledger.js';
import type { Reconciler } from '../../reconcile/types.js';
import type { KubeObject } from '../../kube/http.js';
import { PUB_API_VERSION, PUB_KIND, RELATED_PUB_ANNOTATION } from '../types.js';
import { decidePubs } from './decide.js';
import { observePubs, type PubObserved } from './observe.js';

/** The PUB a pod was stamped with on creation (`kruise.io/related-pub`), if any. */
function relatedPub(pod: KubeObject): { namespace?: string; name: string }[] {
  const annotations = pod.metadata?.annotations as Record<string, string> | undefined;
  const name = annotations?.[RELATED_PUB_ANNOTATION];
  return name ? [{ ...(pod.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}), name }] : [];
}

export type PubReconcilerOptions = { ledgers?: Ledgers };

export function pubReconcilerFor(opts: PubReconcilerOptions = {}): Reconciler<PubObserved> {
  return {
    kind: PUB_KIND,
    apiVersion: PUB_API_VERSION,
    observe: (kube, scope, ctx) => {
      const ledgers = opts.ledgers ?? ctx?.ledgers;
      return observePubs(kube, scope, ledgers ? { ledgers } : {});
    },
    decide: (observed, now) => decidePubs(observed, now),
    // A pod's change runs its PUB at once: an admitted disruption shows in status within a moment.
    triggers: [{ apiVersion: 'v1', kind: 'Pod', objectsOf: relatedPub }],
  };
}

export const pubReconciler: Reconciler<PubObserved> = pubReconcilerFor();
