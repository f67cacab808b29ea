// PodProbeMarker's names (OpenKruise apis/apps/v1alpha1/pod_probe_marker_types.go and
// node_pod_probe_types.go): the kind, the annotations a pod gets at creation in serverless mode,
// the probe states and how they read as a pod condition's status. The object's type is
// src/api/apps/podprobemarker.ts.
export const PPM_API_VERSION = 'apps.kruise.io/v1alpha1';
export const PPM_KIND = 'PodProbeMarker';
export const PPM_GROUP = 'apps.kruise.io';

/** On a created pod: the probes its runtime is to run and report as conditions (JSON list). */
export const POD_PROBE_ANNOTATION = 'kruise.io/podprobe';
/** On a created pod: the names of the PodProbeMarkers whose probes it carries, sorted, comma-separated. */
export const POD_PROBE_MARKER_LIST_ANNOTATION = 'kruise.io/podprobemarker-list';

/** Nodes so labelled are virtual kubelets: their pods' runtime reports probe results itself. */
export const VIRTUAL_KUBELET_LABEL = { key: 'type', value: 'virtual-kubelet' } as const;

export type ProbeState = 'Succeeded' | 'Failed';

/** ProbeState.IsEqualPodConditionStatus: Succeeded is True, Failed is False. */
export function stateOfConditionStatus(status: string | undefined): ProbeState | undefined {
  if (status === 'True') return 'Succeeded';
  if (status === 'False') return 'Failed';
  return undefined;
}
