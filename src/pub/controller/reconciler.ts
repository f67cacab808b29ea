// The PodUnavailableBudget reconciler: observe (LISTs, workload scales, the ledger resync) →
// decide (pure) → the runtime writes status, Events and back-filled annotations. Node and Lambda
// only. `ledgers` is the edge's authority: in-process MemoryLedgers for a single Node process, or
// remoteLedgers(edge) (src/admission/ledger-client.ts) for Lambda. Without it the controller
// behaves as OpenKruise's (status only), and the pod webhooks refuse protected disruptions.
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
    observe: (kube, scope) => observePubs(kube, scope, opts.ledgers ? { ledgers: opts.ledgers } : {}),
    decide: (observed, now) => decidePubs(observed, now),
  };
}
