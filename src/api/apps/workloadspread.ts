// WorkloadSpread (apps.kruise.io/v1alpha1, namespaced): spreads the pods of one workload over
// subsets (node pools, zones, capacity types), capping each subset and patching the pods placed
// in it, without changing the workload itself.
import type {
  V1LabelSelector,
  V1NodeSelectorTerm,
  V1PreferredSchedulingTerm,
  V1Toleration,
} from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, oneOf, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { defineKind, type ObjectOf } from '../kind.js';

export const WorkloadSpreadTargetReference = Type.Object(
  {
    apiVersion: Type.String({ description: 'API version of the workload, e.g. apps/v1.' }),
    kind: Type.String({ description: 'Kind of the workload, e.g. Deployment or CloneSet.' }),
    name: Type.String({ description: 'Name of the workload, in the same namespace.' }),
  },
  { description: 'The workload whose pods are spread.' },
);

export const WorkloadSpreadTargetFilter = Type.Object(
  {
    selector: opt(
      core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
        description: "Only the workload's pods matching this selector are managed.",
      }),
    ),
    replicasPathList: opt(
      Type.Array(Type.String(), {
        description:
          'Dot-separated paths in the workload (array indexes as numbers, e.g. spec.groups.1.replicas) whose integer values are summed to give the number of managed replicas.',
      }),
    ),
  },
  { description: 'Restricts the WorkloadSpread to part of the workload\u2019s pods and says how to count them.' },
);

export type WorkloadSpreadScheduleStrategyType = 'Adaptive' | 'Fixed' | '';

export const AdaptiveWorkloadSpreadStrategy = Type.Object({
  disableSimulationSchedule: opt(
    Type.Boolean({
      description:
        'Turn off the rough node-resource check that decides whether a pod could fit in a subset. Defaults to false.',
    }),
  ),
  rescheduleCriticalSeconds: opt(
    int32({
      description:
        'How long a pod may stay unschedulable in a subset before it is moved to a later subset with room.',
    }),
  ),
});

export const WorkloadSpreadScheduleStrategy = Type.Object({
  type: opt(
    oneOf(['Adaptive', 'Fixed', ''], {
      description: 'Fixed (default) keeps pods where they were assigned; Adaptive may reschedule them to other subsets.',
    }),
  ),
  adaptive: opt(
    Type.Composite([AdaptiveWorkloadSpreadStrategy], { description: 'Settings used when type is Adaptive.' }),
  ),
});

export const WorkloadSpreadSubset = Type.Object({
  name: Type.String({ description: 'Subset name, unique within the WorkloadSpread.' }),
  requiredNodeSelectorTerm: opt(
    core<V1NodeSelectorTerm>('io.k8s.api.core.v1.NodeSelectorTerm', {
      description: "Node selector term added as required node affinity to this subset's pods.",
    }),
  ),
  preferredNodeSelectorTerms: opt(
    Type.Array(core<V1PreferredSchedulingTerm>('io.k8s.api.core.v1.PreferredSchedulingTerm'), {
      description: "Terms added as preferred node affinity to this subset's pods.",
    }),
  ),
  tolerations: opt(
    Type.Array(core<V1Toleration>('io.k8s.api.core.v1.Toleration'), {
      description: "Tolerations added to this subset's pods.",
    }),
  ),
  maxReplicas: opt(
    intOrString({
      description: 'Most pods this subset may hold, as a number or a percentage of the replicas; unset means no limit.',
    }),
  ),
  patch: opt(
    preserveUnknown({
      description: "A strategic merge patch applied to the pods placed in this subset (labels, resources, env\u2026).",
    }),
  ),
});

export const WorkloadSpreadSpec = Type.Object({
  targetRef: WorkloadSpreadTargetReference,
  targetFilter: opt(WorkloadSpreadTargetFilter),
  subsets: Type.Array(WorkloadSpreadSubset, {
    description: 'The subsets, in priority order: a pod goes to the first subset that still has room.',
  }),
  scheduleStrategy: opt(
    Type.Composite([WorkloadSpreadScheduleStrategy], { description: 'How pods are placed across subsets.' }),
  ),
});

export const WorkloadSpreadSubsetCondition = Type.Object({
  type: openString<'Schedulable'>({ description: 'Type of the condition.' }),
  status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
  reason: opt(Type.String({ description: 'Why the condition has this status, in one word.' })),
  message: opt(Type.String({ description: 'Human-readable details.' })),
});

export const WorkloadSpreadSubsetStatus = Type.Object({
  name: Type.String({ description: 'Subset name.' }),
  replicas: int32({ description: 'Active pods currently in the subset.' }),
  conditions: opt(Type.Array(WorkloadSpreadSubsetCondition, { description: 'Observed conditions of the subset.' })),
  missingReplicas: int32({
    description: 'Pods the subset can still take: above 0 there is room, 0 means full, -1 means unlimited.',
  }),
  creatingPods: opt(
    Type.Record(Type.String(), time(), {
      description:
        'Pods admitted into the subset by the webhook but not yet seen by the controller, by pod name, with the admission time.',
    }),
  ),
  deletingPods: opt(
    Type.Record(Type.String(), time(), {
      description:
        'Pods whose deletion was admitted but not yet seen by the controller, by pod name, with the admission time.',
    }),
  ),
});

export const WorkloadSpreadStatus = Type.Object({
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  subsetStatuses: opt(Type.Array(WorkloadSpreadSubsetStatus, { description: 'One entry per subset.' })),
  versionedSubsetStatuses: opt(
    Type.Record(Type.String(), Type.Array(WorkloadSpreadSubsetStatus), {
      description:
        'Subset statuses per workload revision, so pods of a new revision can be placed while old ones still exist during a rollout.',
    }),
  ),
});

export const WorkloadSpreadKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'WorkloadSpread',
  plural: 'workloadspreads',
  singular: 'workloadspread',
  shortNames: ['ws'],
  scope: 'Namespaced',
  description: "Spreads a workload's pods over subsets of nodes, with a cap and a pod patch per subset.",
  spec: WorkloadSpreadSpec,
  status: WorkloadSpreadStatus,
  printerColumns: [
    { name: 'WorkloadName', type: 'string', jsonPath: '.spec.targetRef.name' },
    { name: 'WorkloadKind', type: 'string', jsonPath: '.spec.targetRef.kind' },
    {
      name: 'Adaptive',
      type: 'boolean',
      jsonPath: '.spec.scheduleStrategy.type[?(@ == "Adaptive")]',
      description: 'Whether the adaptive schedule strategy is used.',
    },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
});

export type WorkloadSpreadTargetReference = Static<typeof WorkloadSpreadTargetReference>;
export type WorkloadSpreadTargetFilter = Static<typeof WorkloadSpreadTargetFilter>;
export type AdaptiveWorkloadSpreadStrategy = Static<typeof AdaptiveWorkloadSpreadStrategy>;
export type WorkloadSpreadScheduleStrategy = Static<typeof WorkloadSpreadScheduleStrategy>;
export type WorkloadSpreadSubset = Static<typeof WorkloadSpreadSubset>;
export type WorkloadSpreadSpec = Static<typeof WorkloadSpreadSpec>;
export type WorkloadSpreadSubsetCondition = Static<typeof WorkloadSpreadSubsetCondition>;
export type WorkloadSpreadSubsetStatus = Static<typeof WorkloadSpreadSubsetStatus>;
export type WorkloadSpreadStatus = Static<typeof WorkloadSpreadStatus>;
export type WorkloadSpread = ObjectOf<typeof WorkloadSpreadKind>;
