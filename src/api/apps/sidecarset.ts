// SidecarSet (apps.kruise.io/v1alpha1, cluster-scoped): sidecar containers, volumes and pod
// metadata that are injected into every matching pod when it is created, and optionally rolled
// out to pods that already carry them.
import type {
  V1Container,
  V1LabelSelector,
  V1LocalObjectReference,
  V1ObjectFieldSelector,
  V1Volume,
} from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, oneOf, opt, openString, preserveUnknown, stringMap, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type KindObject, type ObjectOf } from '../kind.js';
import { UpdatePriorityStrategy, UpdateScatterTerm } from './pub.js';

const labelSelector = (description: string) =>
  core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', { description });

// ---- Sidecar containers ---------------------------------------------------------------------

export type PodInjectPolicyType = 'BeforeAppContainer' | 'AfterAppContainer';
export type SidecarContainerUpgradeType = 'ColdUpgrade' | 'HotUpgrade';
export type ShareVolumePolicyType = 'enabled' | 'disabled';

export const SidecarContainerUpgradeStrategy = Type.Object({
  upgradeType: opt(
    openString<SidecarContainerUpgradeType>({
      description:
        'ColdUpgrade (the default) restarts the sidecar in place; HotUpgrade runs two copies of it and swaps them, for sidecars that must not go away.',
    }),
  ),
  hotUpgradeEmptyImage: opt(
    Type.String({
      description:
        'For HotUpgrade: an image that behaves like the sidecar (same command, args, probes) but does nothing; it fills the idle slot.',
    }),
  ),
});

export const ShareVolumePolicy = Type.Object({
  type: opt(
    openString<ShareVolumePolicyType>({
      description: "enabled: the sidecar also mounts every volume mount of the pod's own containers; disabled (default): it does not.",
    }),
  ),
});

export const ShareVolumeDevicePolicy = Type.Object({
  type: opt(
    openString<ShareVolumePolicyType>({
      description: "enabled: the sidecar also maps every volume device of the pod's own containers; disabled (default): it does not.",
    }),
  ),
});

export const SourceContainerNameSource = Type.Object({
  fieldRef: opt(
    core<V1ObjectFieldSelector>('io.k8s.api.core.v1.ObjectFieldSelector', {
      description:
        "A pod field holding the source container's name: metadata.name, metadata.labels['<KEY>'] or metadata.annotations['<KEY>'].",
    }),
  ),
});

export const TransferEnvVar = Type.Object({
  sourceContainerName: opt(Type.String({ description: 'Name of the pod container to copy environment variables from.' })),
  sourceContainerNameFrom: opt(
    Type.Composite([SourceContainerNameSource], {
      description: 'Reads the source container name from a pod field instead of giving it literally.',
    }),
  ),
  envName: opt(Type.String({ description: 'A single environment variable to copy.' })),
  envNames: opt(Type.Array(Type.String(), { description: 'Several environment variables to copy.' })),
});

export type TargetContainersModeType = 'sum' | 'max';

const resourceExpressions = (which: 'limits' | 'requests') =>
  Type.Object({
    cpu: opt(
      Type.String({
        description: `Expression for the CPU ${which}: +, -, *, /, max(), min(), numbers, percentages, quantities and the variable cpu (the ${which} CPU of the matched containers, summed or maxed).${which === 'limits' ? ' Unlimited when a matched container has no CPU limit.' : ' A missing request counts as 0.'}`,
      }),
    ),
    memory: opt(
      Type.String({
        description: `Expression for the memory ${which}, with the variable memory.${which === 'limits' ? ' Unlimited when a matched container has no memory limit.' : ' A missing request counts as 0.'}`,
      }),
    ),
  });

export const ResourceExprLimits = resourceExpressions('limits');
export const ResourceExprRequests = resourceExpressions('requests');

export const ResourcesExpr = Type.Object({
  limits: opt(Type.Composite([ResourceExprLimits], { description: 'Expressions for the resource limits.' })),
  requests: opt(Type.Composite([ResourceExprRequests], { description: 'Expressions for the resource requests.' })),
});

export const ResourcesPolicy = Type.Object({
  targetContainersMode: oneOf(['sum', 'max'], {
    description: 'How the matched containers\' resources are aggregated: sum or max.',
  }),
  targetContainersNameRegex: opt(
    Type.String({
      default: '.*',
      description:
        "Regex (Go syntax) of the pod containers to size from: plain containers and native sidecars, never containers a SidecarSet injects. No match refuses the pod's creation.",
    }),
  ),
  resourcesExpr: Type.Composite([ResourcesExpr], { description: 'The cpu and memory expressions for limits and requests.' }),
});

export const SidecarContainerExtras = Type.Object({
  podInjectPolicy: opt(
    openString<PodInjectPolicyType>({
      description:
        "Where the sidecar goes among the pod's containers: BeforeAppContainer (default) puts it first, AfterAppContainer last. Ignored for init containers.",
    }),
  ),
  upgradeStrategy: opt(
    Type.Composite([SidecarContainerUpgradeStrategy], { description: 'How the sidecar is upgraded in existing pods.' }),
  ),
  shareVolumePolicy: opt(
    Type.Composite([ShareVolumePolicy], {
      description: "Whether the sidecar shares the volume mounts of the pod's other (non-injected) containers.",
    }),
  ),
  shareVolumeDevicePolicy: opt(
    Type.Composite([ShareVolumeDevicePolicy], {
      description: "Whether the sidecar shares the volume devices of the pod's other (non-injected) containers.",
    }),
  ),
  transferEnv: opt(
    Type.Array(TransferEnvVar, {
      description: "Environment variables copied into the sidecar from another container of the pod.",
    }),
  ),
  resourcesPolicy: opt(
    Type.Composite([ResourcesPolicy], {
      description:
        "The sidecar's resources computed at pod creation from the pod's containers; not together with resources. On an init container, only for a native sidecar (restartPolicy Always).",
    }),
  ),
});

/**
 * A core Container plus the injection settings OpenKruise adds to it. As in OpenKruise's CRD the
 * schema is free-form: a Container schema frozen at one Kubernetes version would prune fields
 * that newer clusters accept (e.g. an init container's `restartPolicy`).
 */
export const SidecarContainer = preserveUnknown<V1Container & Static<typeof SidecarContainerExtras>>({
  description: 'A container to inject, with the usual Container fields plus injection and upgrade settings.',
  required: ['name'],
  // Given a schema, as in OpenKruise's CRD, so the API server applies their enum, required fields and default.
  properties: {
    shareVolumeDevicePolicy: SidecarContainerExtras.properties.shareVolumeDevicePolicy,
    resourcesPolicy: SidecarContainerExtras.properties.resourcesPolicy,
  },
});

// ---- Pod metadata patches -------------------------------------------------------------------

export type SidecarSetPatchPolicyType = 'Retain' | 'Overwrite' | 'MergePatchJson';

export const SidecarSetPatchPodMetadata = Type.Object({
  annotations: opt(stringMap({ description: 'Annotations to set on the pod.' })),
  patchPolicy: opt(
    openString<SidecarSetPatchPolicyType>({
      description:
        "What to do when the pod already has the annotation: Retain (default) keeps the pod's value and only applies at injection, Overwrite replaces it, MergePatchJson JSON-merges the values.",
    }),
  ),
});

// ---- Update strategy ------------------------------------------------------------------------

export type SidecarSetUpdateStrategyType = 'NotUpdate' | 'RollingUpdate';

export const SidecarSetUpdateStrategy = Type.Object({
  type: opt(
    openString<SidecarSetUpdateStrategyType>({
      description:
        'RollingUpdate (default) upgrades sidecars of existing pods; NotUpdate only injects into new pods.',
    }),
  ),
  paused: opt(
    Type.Boolean({
      description: 'Stop upgrading existing pods. Also affects which revision new pods receive (see selector).',
    }),
  ),
  selector: opt(
    labelSelector(
      'Only upgrade pods matching this selector. Since 1.8 it also decides which new pods get the pinned injection revision.',
    ),
  ),
  partition: opt(
    intOrString({
      description: 'Number or percentage of matched pods to leave on old revisions. Defaults to 0.',
    }),
  ),
  maxUnavailable: opt(
    intOrString({
      description: 'Most pods that may be unavailable during the upgrade, as a number or a percentage (rounded up). Not 0; defaults to 1.',
    }),
  ),
  priorityStrategy: opt(
    Type.Composite([UpdatePriorityStrategy], {
      description: 'Which pods are upgraded first. Use either orderPriority or weightPriority, not both.',
    }),
  ),
  scatterStrategy: opt(
    Type.Array(UpdateScatterTerm, {
      description: 'Spread updates of pods carrying these labels over batches instead of updating them together; applied after priority ordering.',
    }),
  ),
});

// ---- Injection strategy ---------------------------------------------------------------------

export type SidecarSetInjectRevisionPolicy = 'Always' | 'Partial';

export const SidecarSetInjectRevision = Type.Object({
  customVersion: opt(
    Type.String({
      description:
        'Inject the stored revision whose apps.kruise.io/sidecarset-custom-version label has this value.',
    }),
  ),
  revisionName: opt(Type.String({ description: 'Inject the stored revision (ControllerRevision) with this name.' })),
  policy: opt(
    oneOf(['Always', 'Partial'], {
      default: 'Always',
      description:
        'Always: new pods get the pinned revision unless updateStrategy.selector picks them. Partial: new pods get the latest revision with a probability set by updateStrategy (selector, paused, percentage partition).',
    }),
  ),
});

export const SidecarSetInjectionStrategy = Type.Object({
  paused: opt(
    Type.Boolean({
      description: 'Stop injecting into newly created pods; sidecars already injected are still managed.',
    }),
  ),
  revision: opt(
    Type.Composite([SidecarSetInjectRevision], {
      description: 'Inject a specific stored revision of this SidecarSet instead of the latest one.',
    }),
  ),
});

// ---- Spec and status ------------------------------------------------------------------------

export const SidecarSetSpec = Type.Object({
  selector: opt(labelSelector('Pods to inject into, by label.')),
  namespace: opt(Type.String({ description: 'Only inject into pods of this namespace; empty means every namespace.' })),
  namespaceSelector: opt(
    labelSelector('Only inject into pods whose namespace has matching labels; unset matches every namespace.'),
  ),
  initContainers: opt(
    Type.Array(SidecarContainer, {
      description: 'Init containers to inject, sorted by name. Only added when a pod is created.',
    }),
  ),
  containers: opt(Type.Array(SidecarContainer, { description: 'Sidecar containers to inject.' })),
  volumes: opt(
    // Free-form for the same reason as SidecarContainer: volume sources keep growing.
    Type.Array(preserveUnknown<V1Volume>({ required: ['name'] }), {
      description: 'Volumes the sidecars mount; added to the pod unless it already has a volume of that name.',
    }),
  ),
  updateStrategy: opt(
    Type.Composite([SidecarSetUpdateStrategy], {
      description: 'How existing pods are moved to a new version of the sidecars.',
    }),
  ),
  injectionStrategy: opt(
    Type.Composite([SidecarSetInjectionStrategy], { description: 'How and whether sidecars are injected into new pods.' }),
  ),
  imagePullSecrets: opt(
    Type.Array(core<V1LocalObjectReference>('io.k8s.api.core.v1.LocalObjectReference'), {
      description: 'Secrets for pulling the sidecar images, added to the pod.',
    }),
  ),
  revisionHistoryLimit: opt(int32({ description: 'How many old revisions to keep. Defaults to 10.' })),
  patchPodMetadata: opt(
    Type.Array(SidecarSetPatchPodMetadata, { description: 'Annotations to set on injected pods.' }),
  ),
});

export const SidecarSetStatus = Type.Object({
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  matchedPods: int32({ description: 'Pods matching this SidecarSet (created after it).' }),
  updatedPods: int32({ description: 'Matched pods running the latest sidecar version.' }),
  readyPods: int32({ description: 'Matched pods that are ready.' }),
  updatedReadyPods: opt(int32({ description: 'Matched pods that are both updated and ready.' })),
  latestRevision: opt(Type.String({ description: 'Name of the ControllerRevision holding the latest version.' })),
  collisionCount: opt(
    int32({ description: 'Hash collisions met when naming revisions; used to make revision names unique.' }),
  ),
});

const { namespace: _namespace, ...sharedSpecFields } = SidecarSetSpec.properties;

/** v1beta1 (OpenKruise's storage version): `namespace` is gone (namespaceSelector covers it), and the custom version is a field instead of a label. */
export const SidecarSetSpecV1beta1 = Type.Object({
  ...sharedSpecFields,
  customVersion: opt(
    Type.String({
      description:
        'A version name of your own for this revision of the sidecars; replaces the apps.kruise.io/sidecarset-custom-version label of v1alpha1.',
    }),
  ),
});

export const SidecarSetKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  otherVersions: [{ name: 'v1beta1', spec: SidecarSetSpecV1beta1 }],
  storage: 'v1beta1',
  conversion: 'Webhook',
  kind: 'SidecarSet',
  plural: 'sidecarsets',
  singular: 'sidecarset',
  scope: 'Cluster',
  description: 'Injects sidecar containers into matching pods and upgrades them in place.',
  spec: SidecarSetSpec,
  status: SidecarSetStatus,
  printerColumns: [
    { name: 'MATCHED', type: 'integer', jsonPath: '.status.matchedPods', description: 'Number of matched pods.' },
    { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedPods', description: 'Number of matched pods that are updated.' },
    { name: 'READY', type: 'integer', jsonPath: '.status.readyPods', description: 'Number of matched pods that are ready.' },
    AGE_COLUMN,
  ],
});

export type SidecarContainer = Static<typeof SidecarContainer>;
export type SidecarContainerUpgradeStrategy = Static<typeof SidecarContainerUpgradeStrategy>;
export type ShareVolumePolicy = Static<typeof ShareVolumePolicy>;
export type SourceContainerNameSource = Static<typeof SourceContainerNameSource>;
export type TransferEnvVar = Static<typeof TransferEnvVar>;
export type ResourcesPolicy = Static<typeof ResourcesPolicy>;
export type ResourcesExpr = Static<typeof ResourcesExpr>;
export type SidecarSetPatchPodMetadata = Static<typeof SidecarSetPatchPodMetadata>;
export type SidecarSetUpdateStrategy = Static<typeof SidecarSetUpdateStrategy>;
export type SidecarSetInjectRevision = Static<typeof SidecarSetInjectRevision>;
export type SidecarSetInjectionStrategy = Static<typeof SidecarSetInjectionStrategy>;
export type SidecarSetSpec = Static<typeof SidecarSetSpec>;
export type SidecarSetStatus = Static<typeof SidecarSetStatus>;
export type SidecarSet = ObjectOf<typeof SidecarSetKind>;
export type SidecarSetSpecV1beta1 = Static<typeof SidecarSetSpecV1beta1>;
export type SidecarSetV1beta1 = KindObject<SidecarSetSpecV1beta1, SidecarSetStatus>;
