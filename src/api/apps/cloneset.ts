// CloneSet (apps.kruise.io/v1alpha1): a stateless workload like Deployment, with in-place update,
// partitioned rollouts, selective pod deletion and per-pod PVCs.
import type { V1LabelSelector, V1PersistentVolumeClaim, V1PodTemplateSpec } from '@kubernetes/client-node';
import {
  Type,
  core,
  int32,
  int64,
  intOrString,
  opt,
  openString,
  preserveUnknown,
  time,
  type Static,
} from '../schema.js';
import { AGE_COLUMN, TEMPLATE_COLUMNS, REPLICAS_SCALE, defineKind, type ObjectOf } from '../kind.js';
import { InPlaceUpdateStrategy, Lifecycle, UpdatePriorityStrategy, UpdateScatterTerm, type PodUpdateStrategyType } from './pub.js';

// ---- CloneSet ----

export const CloneSetScaleStrategy = Type.Object({
  podsToDelete: opt(
    Type.Array(Type.String(), { description: 'Names of pods to delete; names that no longer exist are dropped from the list.' }),
  ),
  maxUnavailable: opt(
    intOrString({ description: 'Scale-up stops while more than this many (or this percentage of) new pods are unavailable.' }),
  ),
  disablePVCReuse: opt(
    Type.Boolean({ description: 'Do not reuse the PVCs left by a deleted pod when creating its replacement.' }),
  ),
  excludePreparingDelete: opt(
    Type.Boolean({ description: 'Do not count pods in PreparingDelete (held by a preDelete hook) when deciding how many pods to create.' }),
  ),
});

export const CloneSetUpdateStrategy = Type.Object({
  type: opt(
    openString<PodUpdateStrategyType>({ description: 'ReCreate (default), InPlaceIfPossible or InPlaceOnly.' }),
  ),
  partition: opt(
    intOrString({ description: 'Number or percentage of pods to keep at old revisions. Default 0.' }),
  ),
  maxUnavailable: opt(
    intOrString({ description: 'Most pods (number or percentage) that may be unavailable during update or scale. Default 20%.' }),
  ),
  maxSurge: opt(
    intOrString({ description: 'Most pods (number or percentage) created above replicas during update or targeted deletion. Default 0.' }),
  ),
  paused: opt(Type.Boolean({ description: 'Stop updating pods. Default false.' })),
  priorityStrategy: opt(Type.Composite([UpdatePriorityStrategy], { description: 'Order in which pods are updated.' })),
  scatterStrategy: opt(
    Type.Array(UpdateScatterTerm, { description: 'Spread pods with these labels across update batches rather than updating them together.' }),
  ),
  inPlaceUpdateStrategy: opt(Type.Composite([InPlaceUpdateStrategy], { description: 'Options for in-place updates.' })),
});

export const CloneSetSpec = Type.Object({
  replicas: opt(int32({ description: 'Desired number of pods. Default 1.' })),
  selector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
    description: 'Selects the pods this CloneSet owns; must match the template labels.',
  }),
  template: preserveUnknown<V1PodTemplateSpec>({ description: 'Pod template for the pods this CloneSet creates.' }),
  volumeClaimTemplates: opt(
    // Kept schemaless as in OpenKruise: no `type`, fields preserved as written.
    Type.Unsafe<V1PersistentVolumeClaim[]>({
      description: 'PVCs created for each pod; each is deleted along with its pod.',
      'x-kubernetes-preserve-unknown-fields': true,
    }),
  ),
  scaleStrategy: opt(Type.Composite([CloneSetScaleStrategy], { description: 'How pods are created and deleted.' })),
  progressDeadlineSeconds: opt(
    int32({
      description:
        'Most seconds the CloneSet may take to become available or paused by its partition; past it, OpenKruise sets a ProgressDeadlineExceeded condition (time paused is not counted). Unset: no deadline.',
    }),
  ),
  updateStrategy: opt(Type.Composite([CloneSetUpdateStrategy], { description: 'How pods are updated to a new revision.' })),
  revisionHistoryLimit: opt(int32({ description: 'Number of old ControllerRevisions to keep. Default 10.' })),
  minReadySeconds: opt(
    int32({ description: 'Seconds a new pod must stay ready, without crashing, to count as available. Default 0.' }),
  ),
  lifecycle: opt(Type.Composite([Lifecycle], { description: 'Hooks before a pod becomes Normal, before deletion and around in-place update.' })),
});

export const CloneSetCondition = Type.Object({
  type: openString<'FailedScale' | 'FailedUpdate'>({ description: 'Type of the condition.' }),
  status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
  reason: opt(Type.String({ description: 'Machine-readable reason for the last change.' })),
  message: opt(Type.String({ description: 'Human-readable details of the last change.' })),
});

export const CloneSetStatus = Type.Object({
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  replicas: int32({ description: 'Number of pods owned by this CloneSet.' }),
  readyReplicas: int32({ description: 'Number of owned pods that are Ready.' }),
  availableReplicas: int32({ description: 'Number of owned pods that have been Ready for minReadySeconds.' }),
  updatedReplicas: int32({ description: 'Number of pods at updateRevision.' }),
  updatedReadyReplicas: int32({ description: 'Number of pods at updateRevision that are Ready.' }),
  updatedAvailableReplicas: opt(
    int32({ description: 'Number of pods at updateRevision that have been Ready for minReadySeconds.' }),
  ),
  expectedUpdatedReplicas: opt(int32({ description: 'Number of pods that should be at updateRevision (replicas minus partition).' })),
  updateRevision: opt(Type.String({ description: 'The newest revision.' })),
  currentRevision: opt(Type.String({ description: 'The current revision.' })),
  collisionCount: opt(int32({ description: 'Hash collision counter used when naming new ControllerRevisions.' })),
  conditions: opt(Type.Array(CloneSetCondition, { description: 'Latest observations of the CloneSet.' })),
  labelSelector: opt(Type.String({ description: 'The pod selector in string form, for the scale subresource (HPA).' })),
});

export const CloneSetKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'CloneSet',
  plural: 'clonesets',
  singular: 'cloneset',
  listKind: 'CloneSetList',
  shortNames: ['clone'],
  scope: 'Namespaced',
  description: 'Runs a set of identical pods, with in-place update, partitioned rollout and targeted pod deletion.',
  spec: CloneSetSpec,
  status: CloneSetStatus,
  printerColumns: [
    { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired number of pods.' },
    { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'Pods at the newest revision.' },
    { name: 'UPDATED_READY', type: 'integer', jsonPath: '.status.updatedReadyReplicas', description: 'Pods at the newest revision that are ready.' },
    {
      name: 'UPDATED_AVAILABLE',
      type: 'integer',
      jsonPath: '.status.updatedAvailableReplicas',
      description: 'Pods at the newest revision that are available.',
    },
    { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Pods that are ready.' },
    { name: 'TOTAL', type: 'integer', jsonPath: '.status.replicas', description: 'All pods owned.' },
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
    { name: 'SELECTOR', type: 'string', jsonPath: '.status.labelSelector', description: 'Pod selector.', priority: 1 },
  ],
  scale: REPLICAS_SCALE,
});

export type CloneSetScaleStrategy = Static<typeof CloneSetScaleStrategy>;
export type CloneSetUpdateStrategy = Static<typeof CloneSetUpdateStrategy>;
export type CloneSetSpec = Static<typeof CloneSetSpec>;
export type CloneSetCondition = Static<typeof CloneSetCondition>;
export type CloneSetStatus = Static<typeof CloneSetStatus>;
export type CloneSet = ObjectOf<typeof CloneSetKind>;
