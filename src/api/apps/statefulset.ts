// Advanced StatefulSet (apps.kruise.io/v1beta1 StatefulSet): the upstream StatefulSet plus in-place
// update, maxUnavailable for parallel rollouts, ordinal reservation, lifecycle hooks and PVC resizing.
import type { V1LabelSelector, V1PersistentVolumeClaim, V1PodTemplateSpec } from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { AGE_COLUMN, TEMPLATE_COLUMNS, REPLICAS_SCALE, defineKind, type ObjectOf } from '../kind.js';
import { InPlaceUpdateStrategy, Lifecycle, UpdatePriorityStrategy, type PodUpdateStrategyType } from './pub.js';

export type StatefulSetUpdateStrategyType = 'RollingUpdate' | 'OnDelete';
export type PodManagementPolicyType = 'OrderedReady' | 'Parallel';
export type PersistentVolumeClaimRetentionPolicyType = 'Retain' | 'Delete';
export type VolumeClaimUpdateStrategyType = 'OnPodRollingUpdate' | 'OnDelete';

export const UnorderedUpdateStrategy = Type.Object({
  priorityStrategy: opt(Type.Composite([UpdatePriorityStrategy], { description: 'Order in which pods are updated.' })),
});

export const RollingUpdateStatefulSetStrategy = Type.Object({
  partition: opt(
    int32({ description: 'Number of pods to keep at old revisions; replicas minus partition pods are updated. Default 0.' }),
  ),
  maxUnavailable: opt(
    intOrString({
      description:
        'Most pods (number or percentage, rounded down) that may be unavailable during the update; only with Parallel podManagementPolicy. Default 1.',
    }),
  ),
  podUpdatePolicy: opt(
    openString<PodUpdateStrategyType>({ description: 'ReCreate (default), InPlaceIfPossible or InPlaceOnly.' }),
  ),
  paused: opt(Type.Boolean({ description: 'Stop updating pods. Default false.' })),
  unorderedUpdate: opt(
    Type.Composite([UnorderedUpdateStrategy], {
      description: 'Update pods by priority instead of ordinal order; only with Parallel podManagementPolicy.',
    }),
  ),
  inPlaceUpdateStrategy: opt(Type.Composite([InPlaceUpdateStrategy], { description: 'Options for in-place updates.' })),
  minReadySeconds: opt(
    int32({ description: 'Seconds an updated pod must stay ready before it counts as ready for the rollout. Default 0, max 300.' }),
  ),
});

export const StatefulSetUpdateStrategy = Type.Object({
  type: opt(openString<StatefulSetUpdateStrategyType>({ description: 'RollingUpdate (default) or OnDelete.' })),
  rollingUpdate: opt(
    Type.Composite([RollingUpdateStatefulSetStrategy], { description: 'Parameters for the RollingUpdate type.' }),
  ),
});

export const VolumeClaimUpdateStrategy = Type.Object({
  type: opt(
    openString<VolumeClaimUpdateStrategyType>({
      description: 'OnPodRollingUpdate: update PVCs as their pods roll; OnDelete: only when a PVC is deleted.',
    }),
  ),
});

export const StatefulSetScaleStrategy = Type.Object({
  maxUnavailable: opt(
    intOrString({
      description: 'Most pods (number or percentage, rounded down) that may be unavailable while scaling; only with Parallel podManagementPolicy.',
    }),
  ),
});

export const StatefulSetPersistentVolumeClaimRetentionPolicy = Type.Object({
  whenDeleted: opt(
    openString<PersistentVolumeClaimRetentionPolicyType>({
      description: 'What happens to the PVCs when the StatefulSet is deleted: Retain (default) or Delete.',
    }),
  ),
  whenScaled: opt(
    openString<PersistentVolumeClaimRetentionPolicyType>({
      description: 'What happens to the PVCs of pods removed by a scale-down: Retain (default) or Delete.',
    }),
  ),
});

export const StatefulSetOrdinals = Type.Object({
  start: opt(int32({ description: 'Index of the first replica; replicas are numbered [start, start + replicas). Default 0.' })),
});

export const StatefulSetSpec = Type.Object({
  replicas: opt(int32({ description: 'Desired number of pods. Default 1.' })),
  selector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
    description: 'Selects the pods this StatefulSet owns; must match the template labels.',
  }),
  template: preserveUnknown<V1PodTemplateSpec>({
    description: 'Pod template; every pod gets this spec plus its own stable identity.',
  }),
  volumeClaimTemplates: opt(
    // Kept schemaless as in OpenKruise: no `type`, fields preserved as written.
    Type.Unsafe<V1PersistentVolumeClaim[]>({
      description:
        'PVCs created per pod and bound to its identity; each needs a volumeMount of the same name and wins over a template volume of that name.',
      'x-kubernetes-preserve-unknown-fields': true,
    }),
  ),
  volumeClaimUpdateStrategy: opt(
    Type.Composite([VolumeClaimUpdateStrategy], {
      description: 'How changes to volumeClaimTemplates reach existing PVCs (needs the StatefulSetAutoResizePVCGate feature).',
    }),
  ),
  serviceName: opt(Type.String({ description: 'Headless Service that gives the pods their DNS names.' })),
  podManagementPolicy: opt(
    openString<PodManagementPolicyType>({
      description: 'OrderedReady (default): create and remove pods one at a time in order; Parallel: all at once.',
    }),
  ),
  updateStrategy: opt(Type.Composite([StatefulSetUpdateStrategy], { description: 'How pods are updated to a new revision.' })),
  revisionHistoryLimit: opt(int32({ description: 'Number of old ControllerRevisions to keep. Default 10.' })),
  reserveOrdinals: opt(
    Type.Array(intOrString(), {
      description:
        'Ordinals to skip: pods with these indices are not run and replicas are filled with higher ones. Entries are numbers or ranges like "3-5".',
    }),
  ),
  lifecycle: opt(Type.Composite([Lifecycle], { description: 'Hooks before deletion and around in-place update.' })),
  scaleStrategy: opt(Type.Composite([StatefulSetScaleStrategy], { description: 'How pods are scaled.' })),
  persistentVolumeClaimRetentionPolicy: opt(
    Type.Composite([StatefulSetPersistentVolumeClaimRetentionPolicy], {
      description: 'Whether PVCs from volumeClaimTemplates are kept or deleted on StatefulSet deletion and scale-down.',
    }),
  ),
  ordinals: opt(Type.Composite([StatefulSetOrdinals], { description: 'How replica indices are numbered.' })),
});

export const StatefulSetCondition = Type.Object({
  type: openString<'FailedCreatePod' | 'FailedUpdatePod'>({ description: 'Type of the condition.' }),
  status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
  reason: opt(Type.String({ description: 'Machine-readable reason for the last change.' })),
  message: opt(Type.String({ description: 'Human-readable details of the last change.' })),
});

export const VolumeClaimStatus = Type.Object({
  volumeClaimName: Type.String({ description: 'Name of the volume claim template.' }),
  compatibleReplicas: int32({ description: 'Pods whose PVC requests at least the storage the template asks for.' }),
  compatibleReadyReplicas: int32({
    description: 'Compatible pods whose PVC capacity has also grown to the requested size.',
  }),
});

export const StatefulSetStatus = Type.Object({
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  replicas: int32({ description: 'Number of pods owned by this StatefulSet.' }),
  readyReplicas: int32({ description: 'Number of owned pods that are Ready.' }),
  availableReplicas: int32({ description: 'Number of owned pods that have been Ready for minReadySeconds.' }),
  currentReplicas: int32({ description: 'Number of pods at currentRevision.' }),
  updatedReplicas: int32({ description: 'Number of pods at updateRevision.' }),
  updatedReadyReplicas: opt(int32({ description: 'Number of pods at updateRevision that are Ready.' })),
  updatedAvailableReplicas: opt(
    int32({ description: 'Number of pods at updateRevision that have been Ready for minReadySeconds.' }),
  ),
  currentRevision: opt(Type.String({ description: 'Revision of the pods in [0, currentReplicas).' })),
  updateRevision: opt(Type.String({ description: 'The newest revision.' })),
  collisionCount: opt(int32({ description: 'Hash collision counter used when naming new ControllerRevisions.' })),
  conditions: opt(Type.Array(StatefulSetCondition, { description: 'Latest observations of the StatefulSet.' })),
  labelSelector: opt(Type.String({ description: 'The pod selector in string form, for the scale subresource (HPA).' })),
  volumeClaims: opt(
    Type.Array(VolumeClaimStatus, { description: 'Per volume claim template, how many pods have PVCs matching it.' }),
  ),
});

export const StatefulSetKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  otherVersions: [{ name: 'v1alpha1' }],
  conversion: 'Webhook',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  listKind: 'StatefulSetList',
  shortNames: ['sts', 'asts'],
  scope: 'Namespaced',
  description: 'Advanced StatefulSet: pods with stable identities and storage, with in-place update and parallel rollouts.',
  spec: StatefulSetSpec,
  status: StatefulSetStatus,
  printerColumns: [
    { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired number of pods.' },
    { name: 'CURRENT', type: 'integer', jsonPath: '.status.replicas', description: 'All pods owned.' },
    { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'Pods at the newest revision.' },
    { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Pods that are ready.' },
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  scale: REPLICAS_SCALE,
});

export type UnorderedUpdateStrategy = Static<typeof UnorderedUpdateStrategy>;
export type RollingUpdateStatefulSetStrategy = Static<typeof RollingUpdateStatefulSetStrategy>;
export type StatefulSetUpdateStrategy = Static<typeof StatefulSetUpdateStrategy>;
export type VolumeClaimUpdateStrategy = Static<typeof VolumeClaimUpdateStrategy>;
export type StatefulSetScaleStrategy = Static<typeof StatefulSetScaleStrategy>;
export type StatefulSetPersistentVolumeClaimRetentionPolicy = Static<typeof StatefulSetPersistentVolumeClaimRetentionPolicy>;
export type StatefulSetOrdinals = Static<typeof StatefulSetOrdinals>;
export type StatefulSetSpec = Static<typeof StatefulSetSpec>;
export type StatefulSetCondition = Static<typeof StatefulSetCondition>;
export type VolumeClaimStatus = Static<typeof VolumeClaimStatus>;
export type StatefulSetStatus = Static<typeof StatefulSetStatus>;
export type StatefulSet = ObjectOf<typeof StatefulSetKind>;
