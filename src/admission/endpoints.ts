// The webhook endpoints this project can serve, one per OpenKruise webhook (../shared/SEMANTICS.md
// §1.1), plus the observers: validating webhooks with no handlers that only bring what the API
// server accepts into the edge's state (read-your-writes, src/edge-state/admitted.ts).
// Features attach handlers to them by path; only endpoints with handlers are registered in a
// cluster. Defaults differ from OpenKruise where its users got hurt: 3 s timeouts on pod
// webhooks (OpenKruise: 30 s, kruise#634) and Fail for deletion protection (OpenKruise: Ignore).
import type { WebhookEndpoint, WebhookRule } from './types.js';

type EndpointTemplate = Omit<WebhookEndpoint, 'handlers'>;

const CHANGES: WebhookRule['operations'] = ['CREATE', 'UPDATE', 'DELETE'];
/** Observers never block: a lost observation is repaired by the next push. */
const OBSERVER = { type: 'validating', failurePolicy: 'Ignore', timeoutSeconds: 2, sideEffects: 'None', observer: true } as const;

/** The pod-status observer's path (its webhook entries: `<kind>.observe-pod-status.kruise-serverless.io`). */
export const POD_STATUS_OBSERVER = 'observe-pod-status';

const DELETE_PROTECTION_SELECTOR = {
  matchExpressions: [{ key: 'policy.kruise.io/delete-protection', operator: 'Exists' as const }],
};

export const ENDPOINT_CATALOG: readonly EndpointTemplate[] = [
  {
    path: 'mutate-pod',
    type: 'mutating',
    name: 'mpod.kruise-serverless.io',
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 3,
    sideEffects: 'NoneOnDryRun',
    reinvocationPolicy: 'Never',
  },
  {
    path: 'validate-pod',
    type: 'validating',
    name: 'vpod.kruise-serverless.io',
    rules: [
      { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['UPDATE', 'DELETE'] },
      { apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'], operations: ['CREATE'] },
    ],
    failurePolicy: 'Fail',
    timeoutSeconds: 3,
    sideEffects: 'NoneOnDryRun',
  },
  {
    path: 'mutate-sidecarset',
    type: 'mutating',
    name: 'msidecarset.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['sidecarsets'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // Workload defaults (OpenKruise's mutating webhooks for its workloads): CloneSets so far.
    path: 'mutate-cloneset',
    type: 'mutating',
    name: 'mcloneset.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['clonesets'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // Advanced StatefulSets, in both served versions (v1beta1 is stored).
    path: 'mutate-statefulset',
    type: 'mutating',
    name: 'mstatefulset.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['statefulsets'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // Advanced DaemonSet defaults (OpenKruise's SetDefaultsDaemonSet).
    path: 'mutate-daemonset',
    type: 'mutating',
    name: 'mdaemonset.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['daemonsets'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // BroadcastJob defaults (OpenKruise's SetDefaultsBroadcastJob).
    path: 'mutate-broadcastjob',
    type: 'mutating',
    name: 'mbroadcastjob.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['broadcastjobs'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // ImagePullJob defaults (OpenKruise's SetDefaultsImagePullJob).
    path: 'mutate-imagepulljob',
    type: 'mutating',
    name: 'mimagepulljob.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['imagepulljobs'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // ImageListPullJob defaults (OpenKruise's SetDefaultsImageListPullJob), in both served versions.
    path: 'mutate-imagelistpulljob',
    type: 'mutating',
    name: 'mimagelistpulljob.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['imagelistpulljobs'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // AdvancedCronJob defaults (OpenKruise's SetDefaultsAdvancedCronJob).
    path: 'mutate-advancedcronjob',
    type: 'mutating',
    name: 'madvancedcronjob.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['advancedcronjobs'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    // UnitedDeployment defaults (OpenKruise's SetDefaultsUnitedDeployment).
    path: 'mutate-uniteddeployment',
    type: 'mutating',
    name: 'muniteddeployment.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['uniteddeployments'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    path: 'validate-kruise',
    type: 'validating',
    name: 'vkruise.kruise-serverless.io',
    rules: [
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['sidecarsets', 'workloadspreads', 'resourcedistributions', 'clonesets'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['statefulsets'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['policy.kruise.io'], apiVersions: ['v1alpha1'], resources: ['podunavailablebudgets'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['daemonsets'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['broadcastjobs'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['advancedcronjobs'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['uniteddeployments'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['imagepulljobs'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['imagelistpulljobs'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['persistentpodstates'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['podprobemarkers'], operations: ['CREATE', 'UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['ephemeraljobs'], operations: ['CREATE', 'UPDATE'] },
    ],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
  },
  {
    path: 'validate-delete',
    type: 'validating',
    name: 'vdelete.kruise-serverless.io',
    rules: [
      { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces', 'services'], operations: ['DELETE'] },
      { apiGroups: ['apiextensions.k8s.io'], apiVersions: ['v1', 'v1beta1'], resources: ['customresourcedefinitions'], operations: ['DELETE'] },
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'replicasets', 'statefulsets'], operations: ['DELETE'] },
      { apiGroups: ['networking.k8s.io'], apiVersions: ['v1', 'v1beta1'], resources: ['ingresses'], operations: ['DELETE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['clonesets', 'statefulsets', 'uniteddeployments'], operations: ['DELETE'] },
    ],
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
    objectSelector: DELETE_PROTECTION_SELECTOR,
  },
  {
    // Namespaces (labels for namespaceSelectors), the workloads pods are owned by (and their scale), deletions
    // of the kinds validate-kruise admits (it sees only their creates and updates), and budgets' status writes.
    ...OBSERVER,
    path: 'observe',
    name: 'observe.kruise-serverless.io',
    rules: [
      { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], operations: CHANGES },
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'replicasets', 'statefulsets'], operations: CHANGES },
      { apiGroups: ['batch'], apiVersions: ['v1'], resources: ['jobs'], operations: CHANGES },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['clonesets', 'statefulsets'], operations: CHANGES },
      // `kubectl scale` and HPAs change replicas through the scale subresource, never the object.
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale', 'replicasets/scale', 'statefulsets/scale'], operations: ['UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['clonesets/scale', 'statefulsets/scale'], operations: ['UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['sidecarsets', 'workloadspreads', 'persistentpodstates', 'podprobemarkers'], operations: ['DELETE'] },
      { apiGroups: ['policy.kruise.io'], apiVersions: ['v1alpha1'], resources: ['podunavailablebudgets'], operations: ['DELETE'] },
      // Budgets' recorded status, whoever writes it (another controller, before a takeover): a
      // ledger not resynced yet is seeded from it.
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['workloadspreads/status'], operations: ['UPDATE'] },
      // PersistentPodStates' recorded pod states: the pod webhook reads them.
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['persistentpodstates/status'], operations: ['UPDATE'] },
      { apiGroups: ['policy.kruise.io'], apiVersions: ['v1alpha1'], resources: ['podunavailablebudgets/status'], operations: ['UPDATE'] },
    ],
  },
  {
    // SidecarSet ControllerRevisions (injectionStrategy.revision pins one).
    ...OBSERVER,
    path: 'observe-revisions',
    name: 'observe-revisions.kruise-serverless.io',
    rules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['controllerrevisions'], operations: CHANGES }],
    objectSelector: { matchExpressions: [{ key: 'kruise.io/sidecarset-name', operator: 'Exists' }] },
    // OpenKruise keeps them in its own namespace, which other webhooks skip.
    withInstallNamespace: true,
  },
  {
    // The kruise-configuration ConfigMap lives in the install namespace, which other webhooks skip.
    // A ConfigMap has no label to select it by: every ConfigMap change is sent, and only
    // kruise-configuration is written through (the collection's field selector).
    ...OBSERVER,
    path: 'observe-config',
    name: 'observe-config.kruise-serverless.io',
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: CHANGES }],
    withInstallNamespace: true,
  },
  {
    // Pod creations, with their final names (a mutating webhook sees a generateName pod unnamed):
    // an eviction right after a create must find the pod. Updates and deletes go through validate-pod.
    ...OBSERVER,
    path: 'observe-pod',
    name: 'observe-pod.kruise-serverless.io',
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
  },
  {
    // Status changes of our workloads' pods (ready, restarted, updated in place): each runs the
    // pod's workload reconciler at once instead of at its next wake-up. Only the declared workloads'
    // pods are sent (one entry per pod label, from the features), and nothing is written through.
    ...OBSERVER,
    dedicatedObserver: true,
    observesWorkloadPods: true,
    path: POD_STATUS_OBSERVER,
    name: `${POD_STATUS_OBSERVER}.kruise-serverless.io`,
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'], operations: ['UPDATE'] }],
  },
  {
    // What a Cascading namespace's deletion depends on (src/deletion-protection/dependents.ts):
    // namespaces created Cascading, and their pods' and PVCs' lives, phases included. Only
    // namespaces labelled Cascading send anything.
    ...OBSERVER,
    dedicatedObserver: true,
    path: 'observe-protected',
    name: 'observe-protected.kruise-serverless.io',
    rules: [
      { apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], operations: ['CREATE'] },
      { apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'persistentvolumeclaims'], operations: ['CREATE', 'DELETE'] },
      { apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status', 'persistentvolumeclaims/status'], operations: ['UPDATE'] },
    ],
    namespaceSelector: { matchLabels: { 'policy.kruise.io/delete-protection': 'Cascading' } },
  },
  {
    // Status changes of Jobs and BroadcastJobs (a child finished): the AdvancedCronJob that controls
    // one runs at once (its next run may have waited on it: Forbid, history limits).
    // Likewise ImagePullJobs: the ImageListPullJob that controls one runs at once.
    ...OBSERVER,
    dedicatedObserver: true,
    path: 'observe-job-status',
    name: 'observe-job-status.kruise-serverless.io',
    rules: [
      { apiGroups: ['batch'], apiVersions: ['v1'], resources: ['jobs/status'], operations: ['UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['broadcastjobs/status'], operations: ['UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['imagepulljobs/status'], operations: ['UPDATE'] },
    ],
  },
  {
    // Status changes of UnitedDeployment subset workloads (scaled, their pods ready or updated):
    // the UnitedDeployment that controls one runs at once. Only workloads with a subset label are sent.
    ...OBSERVER,
    dedicatedObserver: true,
    path: 'observe-subset-status',
    name: 'observe-subset-status.kruise-serverless.io',
    rules: [
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/status', 'statefulsets/status'], operations: ['UPDATE'] },
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['clonesets/status', 'statefulsets/status'], operations: ['UPDATE'] },
    ],
    objectSelector: { matchExpressions: [{ key: 'apps.kruise.io/subset-name', operator: 'Exists' }] },
  },
  {
    // Nodes added, relabelled, tainted, cordoned or removed: per-node workloads (Advanced
    // DaemonSet, BroadcastJob) run at once instead of at the next schedule. Heartbeats (nodes/status) are not sent.
    ...OBSERVER,
    dedicatedObserver: true,
    path: 'observe-node',
    name: 'observe-node.kruise-serverless.io',
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['nodes'], operations: CHANGES }],
  },
];
