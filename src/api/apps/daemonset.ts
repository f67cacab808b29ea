// Advanced DaemonSet (apps.kruise.io/v1alpha1 DaemonSet): the upstream DaemonSet plus in-place
// update, partitioned and node-selective rollouts, pausing, burst control and lifecycle hooks.
import type { V1LabelSelector, V1PodTemplateSpec } from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { AGE_COLUMN, TEMPLATE_COLUMNS, defineKind, type KindObject, type ObjectOf } from '../kind.js';
import { Lifecycle } from './pub.js';

export type DaemonSetUpdateStrategyType = 'RollingUpdate' | 'OnDelete';
/** `Surging` is a deprecated alias of `Standard`. */
export type RollingUpdateType = 'Standard' | 'InPlaceIfPossible' | 'Surging';

export const RollingUpdateDaemonSet = Type.Object({
  rollingUpdateType: opt(
    openString<RollingUpdateType>({
      description: 'Standard (recreate pods, as upstream) or InPlaceIfPossible. Surging is a deprecated alias of Standard.',
    }),
  ),
  maxUnavailable: opt(
    intOrString({
      description:
        'Most daemon pods (number or percentage of desiredNumberScheduled, rounded up) that may be unavailable during the update. Cannot be 0 when maxSurge is 0. Default 1.',
    }),
  ),
  maxSurge: opt(
    intOrString({
      description:
        'Most nodes (number or percentage, rounded up, at least 1) that may run a new pod alongside the old one during the update. Cannot be 0 when maxUnavailable is 0. Default 0.',
    }),
  ),
  selector: opt(
    core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
      description: 'Only update pods on nodes whose labels match.',
    }),
  ),
  partition: opt(
    int32({
      description: 'Number of daemon pods to keep at the old revision. Default 0; desiredNumberScheduled means none are updated.',
    }),
  ),
  paused: opt(Type.Boolean({ description: 'Stop the rollout.' })),
});

export const DaemonSetUpdateStrategy = Type.Object({
  type: opt(openString<DaemonSetUpdateStrategyType>({ description: 'RollingUpdate (default) or OnDelete.' })),
  rollingUpdate: opt(
    Type.Composite([RollingUpdateDaemonSet], { description: 'Parameters for the RollingUpdate type.' }),
  ),
});

export const DaemonSetSpec = Type.Object({
  selector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
    description: 'Selects the pods this DaemonSet owns; must match the template labels.',
  }),
  template: preserveUnknown<V1PodTemplateSpec>({
    description: 'Pod template; one such pod runs on every node its node selector and affinity allow.',
  }),
  updateStrategy: opt(Type.Composite([DaemonSetUpdateStrategy], { description: 'How existing pods are replaced by new ones.' })),
  minReadySeconds: opt(
    int32({ description: 'Seconds a new pod must stay ready, without crashing, to count as available. Default 0.' }),
  ),
  burstReplicas: opt(intOrString({ description: 'Most pods created in one burst. Default 250.' })),
  revisionHistoryLimit: opt(int32({ description: 'Number of old ControllerRevisions to keep. Default 10.' })),
  lifecycle: opt(
    Type.Composite([Lifecycle], { description: 'Pod lifecycle hooks; Advanced DaemonSet currently honours only preDelete.' }),
  ),
});

export const DaemonSetCondition = Type.Object({
  type: Type.String({ description: 'Type of the condition.' }),
  status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
  reason: opt(Type.String({ description: 'Machine-readable reason for the last change.' })),
  message: opt(Type.String({ description: 'Human-readable details of the last change.' })),
});

export const DaemonSetStatus = Type.Object({
  currentNumberScheduled: int32({ description: 'Nodes that should run the daemon pod and run at least one.' }),
  numberMisscheduled: int32({ description: 'Nodes that run the daemon pod but should not.' }),
  desiredNumberScheduled: int32({ description: 'Nodes that should run the daemon pod.' }),
  numberReady: int32({ description: 'Nodes that should run the daemon pod and have one running and Ready.' }),
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  updatedNumberScheduled: int32({ description: 'Nodes running a daemon pod at the newest revision.' }),
  numberAvailable: opt(
    int32({ description: 'Nodes that should run the daemon pod and have one available (Ready for minReadySeconds).' }),
  ),
  numberUnavailable: opt(
    int32({ description: 'Nodes that should run the daemon pod and have none available.' }),
  ),
  collisionCount: opt(int32({ description: 'Hash collision counter used when naming new ControllerRevisions.' })),
  conditions: opt(Type.Array(DaemonSetCondition, { description: 'Latest observations of the DaemonSet.' })),
  daemonSetHash: Type.String({ description: 'controller-revision-hash of the newest revision.' }),
});

export const DaemonSetScaleStrategy = Type.Object({
  partitionedScaling: opt(
    Type.Boolean({
      description:
        'Create daemon pods on new nodes only within rollingUpdate.partition, as updates are (v1alpha1: the daemonset.kruise.io/progressive-create-pod: "true" annotation). Default false.',
    }),
  ),
});

/** v1beta1 (OpenKruise's storage version): scaleStrategy replaces the progressive-create-pod annotation. */
export const DaemonSetSpecV1beta1 = Type.Object({
  ...DaemonSetSpec.properties,
  scaleStrategy: opt(Type.Composite([DaemonSetScaleStrategy], { description: 'How daemon pods are created on nodes that need one.' })),
});

const { daemonSetHash: _hash, ...sharedStatusFields } = DaemonSetStatus.properties;

/** v1beta1: `updateRevision` is v1alpha1's `daemonSetHash`. */
export const DaemonSetStatusV1beta1 = Type.Object({
  ...sharedStatusFields,
  updateRevision: opt(Type.String({ description: 'controller-revision-hash of the newest revision.' })),
});

export const DaemonSetKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  otherVersions: [{ name: 'v1beta1', spec: DaemonSetSpecV1beta1, status: DaemonSetStatusV1beta1 }],
  storage: 'v1beta1',
  conversion: 'Webhook',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  listKind: 'DaemonSetList',
  shortNames: ['daemon', 'ads'],
  scope: 'Namespaced',
  description: 'Advanced DaemonSet: one pod per node, with in-place update, partitioned and node-selective rollouts.',
  spec: DaemonSetSpec,
  status: DaemonSetStatus,
  printerColumns: [
    { name: 'DESIRED', type: 'integer', jsonPath: '.status.desiredNumberScheduled', description: 'Nodes that should run the pod.' },
    { name: 'CURRENT', type: 'integer', jsonPath: '.status.currentNumberScheduled', description: 'Nodes running the pod.' },
    { name: 'READY', type: 'integer', jsonPath: '.status.numberReady', description: 'Nodes with the pod ready.' },
    { name: 'UP-TO-DATE', type: 'integer', jsonPath: '.status.updatedNumberScheduled', description: 'Nodes with the pod at the newest revision.' },
    { name: 'AVAILABLE', type: 'integer', jsonPath: '.status.numberAvailable', description: 'Nodes with the pod available.' },
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
});

export type RollingUpdateDaemonSet = Static<typeof RollingUpdateDaemonSet>;
export type DaemonSetUpdateStrategy = Static<typeof DaemonSetUpdateStrategy>;
export type DaemonSetSpec = Static<typeof DaemonSetSpec>;
export type DaemonSetCondition = Static<typeof DaemonSetCondition>;
export type DaemonSetStatus = Static<typeof DaemonSetStatus>;
export type DaemonSet = ObjectOf<typeof DaemonSetKind>;
export type DaemonSetSpecV1beta1 = Static<typeof DaemonSetSpecV1beta1>;
export type DaemonSetStatusV1beta1 = Static<typeof DaemonSetStatusV1beta1>;
export type DaemonSetV1beta1 = KindObject<DaemonSetSpecV1beta1, DaemonSetStatusV1beta1>;
