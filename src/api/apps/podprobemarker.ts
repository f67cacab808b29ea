// PodProbeMarker (apps.kruise.io/v1alpha1, OpenKruise apis/apps/v1alpha1/pod_probe_marker_types.go):
// custom probes of the selected pods' containers, whose results become a pod condition and, by
// policy, labels and annotations on the pod.
import type { V1LabelSelector, V1Probe } from '@kubernetes/client-node';
import { Type, core, int64, openString, opt, stringMap, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type ObjectOf } from '../kind.js';

export const ProbeMarkerPolicy = Type.Object({
  state: openString<'Succeeded' | 'Failed'>({ description: 'The probe result this policy applies to: Succeeded or Failed.' }),
  labels: opt(stringMap({ description: 'Labels set on the pod while the probe is in this state.' })),
  annotations: opt(stringMap({ description: 'Annotations set on the pod while the probe is in this state.' })),
});

export const PodContainerProbe = Type.Object({
  name: Type.String({ description: 'Probe name, unique within the pod.' }),
  containerName: Type.String({ description: 'The container probed.' }),
  probe: core<V1Probe>('io.k8s.api.core.v1.Probe', { description: 'The probe (exec, httpGet or tcpSocket, and its timings).' }),
  markerPolicy: opt(Type.Array(ProbeMarkerPolicy, { description: 'Labels and annotations to set by probe result.' })),
  podConditionType: opt(Type.String({ description: 'The pod condition recording the result: True when the probe succeeds, False when it fails.' })),
});

export const PodProbeMarkerSpec = Type.Object({
  selector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', { description: 'The pods probed (in the PodProbeMarker\'s namespace).' }),
  probes: Type.Array(PodContainerProbe, { description: 'The probes run in each selected pod.' }),
});

export const PodProbeMarkerStatus = Type.Object({
  observedGeneration: int64({ description: 'The generation last reconciled.' }),
  matchedPods: opt(int64({ description: 'Number of pods the selector matches (active, initialized and scheduled).' })),
});

export const PodProbeMarkerKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'PodProbeMarker',
  plural: 'podprobemarkers',
  singular: 'podprobemarker',
  listKind: 'PodProbeMarkerList',
  scope: 'Namespaced',
  description: 'Probes the selected pods\' containers and marks the pods (condition, labels, annotations) by the results.',
  spec: PodProbeMarkerSpec,
  status: PodProbeMarkerStatus,
  printerColumns: [AGE_COLUMN],
});

export type ProbeMarkerPolicy = Static<typeof ProbeMarkerPolicy>;
export type PodContainerProbe = Static<typeof PodContainerProbe>;
export type PodProbeMarkerSpec = Static<typeof PodProbeMarkerSpec>;
export type PodProbeMarkerStatus = Static<typeof PodProbeMarkerStatus>;
export type PodProbeMarker = ObjectOf<typeof PodProbeMarkerKind>;
