// The PodProbeMarker controller's plan (pure): every pod some PodProbeMarker works on gets the
// marking its probe results call for (./mark.ts) in one pods/status write, preconditioned on the
// observed resourceVersion, carrying the condition and the labels and annotations to set or remove
// (as OpenKruise's one pod status update does: no moment shows both states' labels). Each
// PodProbeMarker's status counts the pods it works on (matchedPods, left out when 0 as Go's
// omitempty does). While some PodProbeMarker works on a pod, it asks to run again after the
// shortest probe period: probes run here are due again, and conditions pods report are read again
// (on Lambda nothing else brings them).
import type { PodProbeMarker } from '../../api/apps/podprobemarker.js';
import { emptyPlan, type Plan, type StatusWrite } from '../../reconcile/types.js';
import { podKey, type Pod } from '../../workload/pods.js';
import { PPM_API_VERSION, PPM_KIND } from '../types.js';
import { markPod, type Marking } from './mark.js';
import type { ProbeResult } from './results.js';

export type PodProbeMarkerObserved = {
  markers: { ppm: PodProbeMarker; pods: Pod[] }[];
  /** Results of the probes run here, by target key (none on the Lambda). */
  results: Map<string, ProbeResult>;
  /** Set while some PodProbeMarker works on a pod: the shortest period among their probes. */
  probePeriodMs?: number;
};

function podWrite(pod: Pod, m: Marking, why: string): StatusWrite {
  const target = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace };
  const metadata = { ...(Object.keys(m.labels).length ? { labels: m.labels } : {}), ...(Object.keys(m.annotations).length ? { annotations: m.annotations } : {}) };
  return {
    target,
    status: { conditions: m.conditions ?? pod.status?.conditions ?? [] },
    ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
    ...(Object.keys(metadata).length ? { metadata } : {}),
    reason: why,
  };
}

export function decidePodProbeMarkers(observed: PodProbeMarkerObserved): Plan {
  const plan = emptyPlan();
  const byPod = new Map<string, { pod: Pod; markers: PodProbeMarker[] }>();
  for (const { ppm, pods } of observed.markers) {
    for (const pod of pods) {
      const entry = byPod.get(podKey(pod)) ?? { pod, markers: [] };
      entry.markers.push(ppm);
      byPod.set(podKey(pod), entry);
    }
    const generation = ppm.metadata.generation ?? 0;
    const matched = pods.length;
    if (ppm.status?.observedGeneration !== generation || (ppm.status?.matchedPods ?? 0) !== matched) {
      plan.status.push({
        target: { apiVersion: PPM_API_VERSION, kind: PPM_KIND, name: ppm.metadata.name ?? '', namespace: ppm.metadata.namespace ?? '' },
        status: { observedGeneration: generation, matchedPods: matched > 0 ? matched : null },
        ...(ppm.metadata.resourceVersion ? { resourceVersion: ppm.metadata.resourceVersion } : {}),
        reason: `PodProbeMarker ${ppm.metadata.name}: ${matched} matched pods`,
      });
    }
  }
  for (const { pod, markers } of byPod.values()) {
    const m = markPod(pod, markers, observed.results);
    if (m) plan.status.push(podWrite(pod, m, `pod ${pod.metadata.name}: probe results of PodProbeMarker ${markers.map((p) => p.metadata.name).join(', ')}`));
  }
  if (observed.probePeriodMs !== undefined) plan.requeueAfterMs = observed.probePeriodMs;
  return plan;
}
