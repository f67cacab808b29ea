// The PodProbeMarker reconciler: observe → decide (pure) → the runtime applies the plan. A change
// to a PodProbeMarker runs it; so does a change to an active, initialized, scheduled pod (for the
// PodProbeMarkers of its namespace): its condition reported by its runtime, its IP. With a prober
// (the Node loop, which reaches pod IPs) it also runs tcpSocket and httpGet probes and runs again
// every probe period; without one (the Lambda) it applies the conditions pods report, read again
// every probe period (pods' status changes are not sent to the Lambda).
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import { isProbedPod } from '../select.js';
import { PPM_API_VERSION, PPM_KIND } from '../types.js';
import { decidePodProbeMarkers, type PodProbeMarkerObserved } from './decide.js';
import { observePodProbeMarkers } from './observe.js';
import type { Prober } from './results.js';

/** A pod's change runs its namespace's PodProbeMarkers: one scope entry per namespace (`*`), so that many pods share one run and one probe-period wake-up. */
const podNamespace = (pod: KubeObject) => {
  const p = pod as unknown as Pod;
  return p.metadata?.namespace && p.spec && isProbedPod(p) ? [{ namespace: p.metadata.namespace, name: '*' }] : [];
};

export function podProbeMarkerReconcilerFor(opts: { prober?: Prober } = {}): Reconciler<PodProbeMarkerObserved> {
  return {
    kind: PPM_KIND,
    apiVersion: PPM_API_VERSION,
    observe: (kube, scope) => observePodProbeMarkers(kube, scope, opts.prober, new Date()),
    decide: (observed) => decidePodProbeMarkers(observed),
    triggers: [{ apiVersion: 'v1', kind: 'Pod', objectsOf: podNamespace }],
  };
}

/** The reconciler without a prober: conditions reported by pods only. */
export const podProbeMarkerReconciler = podProbeMarkerReconcilerFor();
