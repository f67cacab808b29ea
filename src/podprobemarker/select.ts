// Which PodProbeMarkers concern a pod, and which pods a PodProbeMarker works on. Pure.
// - markersForPod (OpenKruise util/podprobemarker GetPodProbeMarkerForPod): the ones the pod's
//   `kruise.io/podprobemarker-list` names, or else those of its namespace whose selector matches its
//   labels (a missing, empty or invalid selector matches nothing).
// - isProbedPod (getMatchingPods): active, Initialized and bound to a node.
import type { PodProbeMarker } from '../api/apps/podprobemarker.js';
import { isEmptySelector, matchesLabelSelector, type LabelSelector } from '../kube/selectors.js';
import { isActivePod, podCondition, type Pod } from '../workload/pods.js';
import { POD_PROBE_MARKER_LIST_ANNOTATION } from './types.js';

type PodMeta = { namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };

export function selects(ppm: PodProbeMarker, labels: Record<string, string> | undefined): boolean {
  const sel = ppm.spec?.selector as LabelSelector | undefined;
  return !!sel && !isEmptySelector(sel) && matchesLabelSelector(sel, labels ?? {});
}

export function markersForPod(pod: { metadata?: PodMeta }, namespace: string, all: readonly PodProbeMarker[]): PodProbeMarker[] {
  const inNamespace = all.filter((p) => p.metadata.namespace === namespace);
  const listed = pod.metadata?.annotations?.[POD_PROBE_MARKER_LIST_ANNOTATION];
  if (listed) {
    return listed.split(',').flatMap((name) => inNamespace.filter((p) => p.metadata.name === name));
  }
  return inNamespace.filter((p) => selects(p, pod.metadata?.labels));
}

export function isProbedPod(pod: Pod): boolean {
  return isActivePod(pod) && podCondition(pod, 'Initialized')?.status === 'True' && !!pod.spec.nodeName;
}
