// The PodUnavailableBudget reconciler: observe (LISTs, workload scales, the edge's budgets) →
// decide (pure) → the runtime writes status, Events and back-filled annotations, then resyncs each
// budget at the edge. Node and Lambda only. The edge's ledgers come from the runtime (the run's
// edge: remoteLedgers, or the Node process's own); `ledgers` here overrides them (tests). Without
// any the controller behaves as OpenKruise's (status only), and the pod webhooks refuse protected
// disruptions once the edge's budget is stale.
import type { Ledgers } from '../../admission/ledger.js';
import type { Reconciler } from '../../reconcile/types.js';
import { PUB_API_VERSION, PUB_KIND } from '../types.js';
import { decidePubs } from './decide.js';
import { observePubs, type PubObserved } from './observe.js';

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
  };
}

export const pubReconciler: Reconciler<PubObserved> = pubReconcilerFor();
