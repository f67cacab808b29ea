// The EphemeralJob reconciler: observe → decide (pure) → the runtime applies the plan. A change to
// an EphemeralJob runs it (on Lambda, as the change event the Worker publishes when it admits the
// job). A pod's change runs the EphemeralJobs of its namespace (the Node loop's pod watch), as
// OpenKruise's pod handler does: a new pod may be a target, an ephemeral container may have
// started or ended. Where no pod watch runs (the Lambda), a job whose containers run is looked at
// again shortly (decide.ts), and new pods wait for the scheduled run.
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler } from '../../reconcile/types.js';
import { EPHEMERALJOB_API_VERSION, EPHEMERALJOB_KIND } from '../types.js';
import { decideEphemeralJobs } from './decide.js';
import { observeEphemeralJobs, type EphemeralJobObserved } from './observe.js';

/** A pod's change: one scope entry for every job of its namespace. */
const podNamespace = (pod: KubeObject) => (pod.metadata?.namespace ? [{ namespace: pod.metadata.namespace, name: '*' }] : []);

export const ephemeralJobReconciler: Reconciler<EphemeralJobObserved> = {
  kind: EPHEMERALJOB_KIND,
  apiVersion: EPHEMERALJOB_API_VERSION,
  observe: (kube, scope, ctx) => observeEphemeralJobs(kube, scope, ctx),
  decide: (observed, now) => decideEphemeralJobs(observed, now),
  triggers: [{ apiVersion: 'v1', kind: 'Pod', objectsOf: podNamespace }],
};
