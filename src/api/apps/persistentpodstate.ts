// PersistentPodState (apps.kruise.io/v1alpha1): records where each pod of a StatefulSet ran (node
// topology labels, chosen annotations) so that a recreated pod is steered back there.
import { Type, int32, int64, openString, opt, stringMap, type Static } from '../schema.js';
import { defineKind, type ObjectOf } from '../kind.js';

export const NodeTopologyTerm = Type.Object({
  nodeTopologyKeys: Type.Array(Type.String(), { description: 'Node label keys, e.g. topology.kubernetes.io/zone.' }),
});

export const PersistentPodStateSpec = Type.Object({
  targetRef: Type.Object(
    {
      apiVersion: Type.String({ description: 'API version of the workload (apps/v1 or apps.kruise.io/…).' }),
      kind: Type.String({ description: 'Kind of the workload: StatefulSet.' }),
      name: Type.String({ description: 'Name of the workload.' }),
    },
    { description: 'The StatefulSet or Advanced StatefulSet whose pods are recorded.' },
  ),
  persistentPodAnnotations: opt(Type.Array(Type.Object({ key: Type.String() }), { description: 'Pod annotations to record with each pod.' })),
  requiredPersistentTopology: opt(Type.Composite([NodeTopologyTerm], { description: 'A recreated pod must return to nodes with these recorded label values (nodeSelector).' })),
  preferredPersistentTopology: opt(
    Type.Array(Type.Object({ weight: int32(), preference: NodeTopologyTerm }), { description: 'A recreated pod prefers nodes with these recorded label values (preferred node affinity).' }),
  ),
  persistentPodStateRetentionPolicy: opt(openString<'WhenScaled' | 'WhenDeleted'>({ description: 'WhenScaled (default): forget pods scaled away; WhenDeleted: keep them until the workload goes.' })),
});

export const PodState = Type.Object({
  nodeName: opt(Type.String()),
  nodeTopologyLabels: opt(stringMap()),
  annotations: opt(stringMap()),
});

export const PersistentPodStateStatus = Type.Object({
  observedGeneration: int64({ description: 'The generation last reconciled.' }),
  podStates: opt(Type.Record(Type.String(), PodState, { description: 'The recorded state, by pod name.' })),
});

export const PersistentPodStateKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'PersistentPodState',
  plural: 'persistentpodstates',
  singular: 'persistentpodstate',
  listKind: 'PersistentPodStateList',
  scope: 'Namespaced',
  description: 'Records the node topology of a StatefulSet\'s pods and brings recreated pods back to it.',
  spec: PersistentPodStateSpec,
  status: PersistentPodStateStatus,
  printerColumns: [],
});

export type NodeTopologyTerm = Static<typeof NodeTopologyTerm>;
export type PodState = Static<typeof PodState>;
export type PersistentPodStateSpec = Static<typeof PersistentPodStateSpec>;
export type PersistentPodStateStatus = Static<typeof PersistentPodStateStatus>;
export type PersistentPodState = ObjectOf<typeof PersistentPodStateKind>;
