// UnitedDeployment (apps.kruise.io/v1alpha1, namespaced): one workload template stamped out as a
// subset workload (StatefulSet, Advanced StatefulSet, CloneSet or Deployment) per topology domain,
// with the total replicas spread across the subsets.
import type {
  V1DeploymentSpec,
  V1LabelSelector,
  V1NodeSelectorTerm,
  V1ObjectMeta,
  V1PodTemplateSpec,
  V1StatefulSetSpec,
  V1Toleration,
} from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, oneOf, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { AGE_COLUMN, REPLICAS_SCALE, defineKind, type ObjectOf } from '../kind.js';

/**
 * The spec of an OpenKruise workload (CloneSet, Advanced StatefulSet) inside a subset template.
 * Typed loosely here: its own kind defines every field.
 */
export type KruiseWorkloadTemplateSpec = {
  replicas?: number;
  selector: V1LabelSelector;
  template: V1PodTemplateSpec;
  [field: string]: unknown;
};

function workloadTemplate<Spec>(workload: string) {
  return Type.Object(
    {
      metadata: opt(
        preserveUnknown<V1ObjectMeta>({ description: `Labels, annotations and other metadata for each subset ${workload}.` }),
      ),
      spec: preserveUnknown<Spec>({
        description: `The ${workload} spec each subset starts from; replicas and node placement are set per subset.`,
      }),
    },
    { description: `Provision each subset as a ${workload}.` },
  );
}

export const StatefulSetTemplateSpec = workloadTemplate<V1StatefulSetSpec>('StatefulSet');
export const AdvancedStatefulSetTemplateSpec = workloadTemplate<KruiseWorkloadTemplateSpec>('Advanced StatefulSet (apps.kruise.io)');
export const CloneSetTemplateSpec = workloadTemplate<KruiseWorkloadTemplateSpec>('CloneSet');
export const DeploymentTemplateSpec = workloadTemplate<V1DeploymentSpec>('Deployment');

export const UnitedDeploymentSubsetTemplate = Type.Object(
  {
    statefulSetTemplate: opt(StatefulSetTemplateSpec),
    advancedStatefulSetTemplate: opt(AdvancedStatefulSetTemplateSpec),
    cloneSetTemplate: opt(CloneSetTemplateSpec),
    deploymentTemplate: opt(DeploymentTemplateSpec),
  },
  { description: 'The workload every subset is created from; set exactly one of the four templates.' },
);

/** The field of `spec.template` that is set, i.e. which workload kind the subsets are. */
export type UnitedDeploymentTemplateField = keyof Static<typeof UnitedDeploymentSubsetTemplate>;

export const UnitedDeploymentSubset = Type.Object(
  {
    name: Type.String({
      description:
        'Subset name (a DNS label, unique in this UnitedDeployment); subset workloads are named "<uniteddeployment>-<subset>-…".',
    }),
    nodeSelectorTerm: opt(
      core<V1NodeSelectorTerm>('io.k8s.api.core.v1.NodeSelectorTerm', {
        description: 'Nodes this subset\'s Pods must run on. Cannot be changed once set.',
      }),
    ),
    tolerations: opt(
      Type.Array(core<V1Toleration>('io.k8s.api.core.v1.Toleration'), {
        description: 'Tolerations added to this subset\'s Pods. Cannot be changed once set.',
      }),
    ),
    replicas: opt(
      intOrString({
        description:
          'Pods for this subset, as a number or a percentage of spec.replicas (e.g. "10%"). Unset: the controller shares the remainder evenly among subsets without replicas. Not combinable with minReplicas/maxReplicas.',
      }),
    ),
    minReplicas: opt(
      intOrString({
        description:
          'Lower bound of Pods for this subset (>= 0), met in subset order before anything else. Defaults to 0.',
      }),
    ),
    maxReplicas: opt(
      intOrString({
        description:
          'Upper bound of Pods for this subset (>= minReplicas). Unset means no limit; leave at least one subset unbounded so scaling cannot stall.',
      }),
    ),
    patch: opt(
      preserveUnknown({
        description:
          'A patch applied to this subset\'s workload template; it wins over replicas, nodeSelectorTerm and tolerations.',
      }),
    ),
  },
  { description: 'One topology domain and the subset workload placed in it.' },
);

export const AdaptiveUnitedDeploymentStrategy = Type.Object(
  {
    rescheduleCriticalSeconds: opt(
      int32({
        description:
          'Seconds a Pod may stay unschedulable before it is moved to a later subset with spare capacity. Defaults to 30.',
      }),
    ),
    unschedulableDuration: opt(
      int32({ description: 'Seconds a subset stays marked unschedulable before it is tried again. Defaults to 300.' }),
    ),
    reserveUnschedulablePods: opt(
      Type.Boolean({
        description:
          'Keep Pods that cannot be scheduled (labelled apps.kruise.io/united-deployment-reserved-pod) and run temporary Pods in later subsets instead, removed once the reserved Pods have been ready for unschedulableDuration. Deployment and CloneSet subsets only. Default false.',
      }),
    ),
  },
  { description: 'Parameters of the Adaptive schedule strategy.' },
);

export const UnitedDeploymentScheduleStrategy = Type.Object(
  {
    type: opt(
      oneOf(['Adaptive', 'Fixed', ''], {
        description:
          'Fixed (default): Pods stay in their subset even if they cannot be scheduled. Adaptive: Pods stuck unschedulable are moved to another subset.',
      }),
    ),
    adaptive: opt(AdaptiveUnitedDeploymentStrategy),
  },
  { description: 'How Pods are placed among the subsets.' },
);

export const UnitedDeploymentTopology = Type.Object(
  {
    subsets: opt(
      Type.Array(UnitedDeploymentSubset, {
        description: 'The subsets, in priority order; each one gets its own workload.',
      }),
    ),
    scheduleStrategy: opt(UnitedDeploymentScheduleStrategy),
  },
  { description: 'How the Pods are spread across the subsets.' },
);

export const UnitedDeploymentManualUpdate = Type.Object(
  {
    partitions: opt(
      Type.Record(Type.String(), int32(), {
        description: 'The partition handed to each subset\'s workload, keyed by subset name.',
      }),
    ),
  },
  { description: 'Settings of the Manual update strategy.' },
);

export const UnitedDeploymentUpdateStrategy = Type.Object(
  {
    type: opt(openString<'Manual'>({ description: 'The update strategy; only Manual (the default).' })),
    manualUpdate: opt(UnitedDeploymentManualUpdate),
  },
  { description: 'How subsets are rolled out when the template changes.' },
);

export const UnitedDeploymentSpec = Type.Object({
  replicas: opt(int32({ description: 'Total Pods across all subsets. Defaults to 1.' })),
  selector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
    description: 'Selects the Pods counted as replicas; must match the template\'s Pod labels.',
  }),
  template: opt(UnitedDeploymentSubsetTemplate),
  topology: opt(UnitedDeploymentTopology),
  updateStrategy: opt(UnitedDeploymentUpdateStrategy),
  revisionHistoryLimit: opt(int32({ description: 'How many old revisions to keep. Defaults to 10.' })),
});

export const UnitedDeploymentCondition = Type.Object(
  {
    type: opt(
      openString<'SubsetProvisioned' | 'SubsetUpdated' | 'SubsetFailure'>({
        description: 'SubsetProvisioned, SubsetUpdated or SubsetFailure.',
      }),
    ),
    status: opt(openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' })),
    lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
    reason: opt(Type.String({ description: 'Short machine-readable cause of the last change.' })),
    message: opt(Type.String({ description: 'Human-readable details about the last change.' })),
  },
  { description: 'One observation about the state of the UnitedDeployment.' },
);

export const UnitedDeploymentSubsetCondition = Type.Object({
  type: openString<'Schedulable'>({ description: 'Schedulable: whether new Pods put in this subset can be scheduled.' }),
  status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
  reason: opt(Type.String({ description: 'Short machine-readable cause of the last change.' })),
  message: opt(Type.String({ description: 'Human-readable details about the last change.' })),
});

export const UnitedDeploymentSubsetStatus = Type.Object({
  name: opt(Type.String({ description: 'The subset, as named in spec.topology.subsets.' })),
  replicas: opt(int32({ description: 'Replicas assigned to the subset.' })),
  readyReplicas: opt(int32({ description: 'Ready Pods of the subset\'s workload.' })),
  reservedPods: opt(int32({ description: 'Pods of the subset kept reserved while they cannot run (adaptive.reserveUnschedulablePods).' })),
  partition: opt(int32({ description: 'Partition handed to the subset\'s workload.' })),
  conditions: opt(Type.Array(UnitedDeploymentSubsetCondition, { description: 'Observations about this subset.' })),
});

export const UnitedDeploymentUpdateStatus = Type.Object(
  {
    updatedRevision: opt(Type.String({ description: 'The newest revision.' })),
    currentPartitions: opt(Type.Record(Type.String(), int32(), { description: 'The partition in force per subset.' })),
  },
  { description: 'Progress of the current update.' },
);

export const UnitedDeploymentStatus = Type.Object({
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  readyReplicas: opt(int32({ description: 'Ready Pods.' })),
  replicas: int32({ description: 'Pods observed across all subsets.' }),
  updatedReplicas: int32({ description: 'Pods at the newest revision.' }),
  reservedPods: opt(int32({ description: 'Reserved Pods (adaptive.reserveUnschedulablePods), not counted in replicas.' })),
  updatedReadyReplicas: opt(int32({ description: 'Ready Pods at the newest revision.' })),
  collisionCount: opt(
    int32({ description: 'Hash collisions met so far; used to give the newest ControllerRevision a unique name.' }),
  ),
  currentRevision: Type.String({ description: 'The current revision, when known.' }),
  subsetReplicas: opt(Type.Record(Type.String(), int32(), { description: 'Replicas assigned to each subset.' })),
  subsetStatuses: opt(Type.Array(UnitedDeploymentSubsetStatus, { description: 'Per-subset status and conditions.' })),
  conditions: opt(Type.Array(UnitedDeploymentCondition, { description: 'The latest observations of the UnitedDeployment.' })),
  updateStatus: opt(UnitedDeploymentUpdateStatus),
  labelSelector: opt(Type.String({ description: 'The selector in string form, for the scale subresource (HPA).' })),
});

export const UnitedDeploymentKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'UnitedDeployment',
  plural: 'uniteddeployments',
  singular: 'uniteddeployment',
  shortNames: ['ud'],
  scope: 'Namespaced',
  description: 'Spreads one workload over several topology domains as a set of subset workloads.',
  spec: UnitedDeploymentSpec,
  status: UnitedDeploymentStatus,
  printerColumns: [
    { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'Pods wanted.' },
    { name: 'CURRENT', type: 'integer', jsonPath: '.status.replicas', description: 'Pods observed.' },
    { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'Pods at the newest revision.' },
    { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready Pods.' },
    AGE_COLUMN,
  ],
  scale: REPLICAS_SCALE,
});

export type StatefulSetTemplateSpec = Static<typeof StatefulSetTemplateSpec>;
export type AdvancedStatefulSetTemplateSpec = Static<typeof AdvancedStatefulSetTemplateSpec>;
export type CloneSetTemplateSpec = Static<typeof CloneSetTemplateSpec>;
export type DeploymentTemplateSpec = Static<typeof DeploymentTemplateSpec>;
/** Any one of the four subset workload templates. */
export type SubsetWorkloadTemplate =
  | StatefulSetTemplateSpec
  | AdvancedStatefulSetTemplateSpec
  | CloneSetTemplateSpec
  | DeploymentTemplateSpec;
export type UnitedDeploymentSubsetTemplate = Static<typeof UnitedDeploymentSubsetTemplate>;
export type UnitedDeploymentSubset = Static<typeof UnitedDeploymentSubset>;
export type AdaptiveUnitedDeploymentStrategy = Static<typeof AdaptiveUnitedDeploymentStrategy>;
export type UnitedDeploymentScheduleStrategy = Static<typeof UnitedDeploymentScheduleStrategy>;
export type UnitedDeploymentTopology = Static<typeof UnitedDeploymentTopology>;
export type UnitedDeploymentManualUpdate = Static<typeof UnitedDeploymentManualUpdate>;
export type UnitedDeploymentUpdateStrategy = Static<typeof UnitedDeploymentUpdateStrategy>;
export type UnitedDeploymentSpec = Static<typeof UnitedDeploymentSpec>;
export type UnitedDeploymentCondition = Static<typeof UnitedDeploymentCondition>;
export type UnitedDeploymentSubsetCondition = Static<typeof UnitedDeploymentSubsetCondition>;
export type UnitedDeploymentSubsetStatus = Static<typeof UnitedDeploymentSubsetStatus>;
export type UnitedDeploymentUpdateStatus = Static<typeof UnitedDeploymentUpdateStatus>;
export type UnitedDeploymentStatus = Static<typeof UnitedDeploymentStatus>;
export type UnitedDeployment = ObjectOf<typeof UnitedDeploymentKind>;
