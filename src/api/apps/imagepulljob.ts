// ImagePullJob (apps.kruise.io/v1alpha1): pre-pulls one image onto a set of nodes through
// kruise-daemon, in parallel batches, once or continuously.
import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, opt, openString, stringMap, time, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type ObjectOf } from '../kind.js';

export type ImagePullPolicy = 'Always' | 'IfNotPresent';
export type CompletionPolicyType = 'Always' | 'Never';

/** A label selector over nodes, optionally narrowed to named nodes (LabelSelector fields inlined). */
export const ImagePullJobNodeSelector = Type.Object(
  {
    names: opt(Type.Array(Type.String(), { description: 'Pull only on these nodes, by name.' })),
    matchLabels: opt(stringMap({ description: 'Node labels that must all match.' })),
    matchExpressions: opt(
      Type.Array(core<V1LabelSelectorRequirement>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement'), {
        description: 'Node label requirements that must all match.',
        'x-kubernetes-list-type': 'atomic',
      }),
    ),
  },
  { 'x-kubernetes-map-type': 'atomic' },
);

export const PullPolicy = Type.Object({
  timeoutSeconds: opt(int32({ description: 'Timeout of one pull attempt, in seconds. Default 600.' })),
  backoffLimit: opt(int32({ description: 'Retries before a node is marked failed. Default 3.' })),
});

export const CompletionPolicy = Type.Object({
  type: opt(
    openString<CompletionPolicyType>({
      description: 'Always (default): finish once every node has pulled or failed; Never: keep running and pull on new nodes too.',
    }),
  ),
  activeDeadlineSeconds: opt(
    int64({ description: 'Fail the job if it is still running this many seconds after it started. Always type only.' }),
  ),
  ttlSecondsAfterFinished: opt(
    int32({ description: 'Delete the job this many seconds after it finishes (0: right away; unset: never). Always type only.' }),
  ),
});

export const SandboxConfig = Type.Object({
  labels: opt(stringMap({ description: 'Labels passed in the sandbox config of the CRI PullImage call.' })),
  annotations: opt(stringMap({ description: 'Annotations passed in the sandbox config of the CRI PullImage call.' })),
});

/** Everything of an ImagePullJob's spec except the image (shared with ImageListPullJob). */
export const ImagePullJobTemplate = Type.Object({
  pullSecrets: opt(
    Type.Array(Type.String(), { description: 'Names of Secrets in the job namespace used as registry credentials.' }),
  ),
  selector: opt(
    Type.Composite([ImagePullJobNodeSelector], {
      description: 'Nodes to pull on; all nodes when unset.',
      'x-kubernetes-map-type': 'atomic',
    }),
  ),
  podSelector: opt(
    core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
      description: 'Pull on the nodes running pods that match; not to be combined with selector.',
    }),
  ),
  parallelism: opt(intOrString({ description: 'Most nodes pulling at once. Default 1; 0 pauses the job.' })),
  pullPolicy: opt(Type.Composite([PullPolicy], { description: 'Timeout and retries of each pull; defaults when unset.' })),
  completionPolicy: Type.Composite([CompletionPolicy], { description: 'When the job counts as finished. Default type Always.' }),
  sandboxConfig: opt(
    Type.Composite([SandboxConfig], { description: 'Metadata attached to the CRI PullImage request.' }),
  ),
  imagePullPolicy: opt(
    openString<ImagePullPolicy>({ description: 'Always, or IfNotPresent (default): skip nodes that already have the image.' }),
  ),
});

export const ImagePullJobSpec = Type.Composite([
  Type.Object({ image: Type.String({ description: 'The image to pull.' }) }),
  ImagePullJobTemplate,
]);

export const ImagePullJobStatus = Type.Object({
  startTime: opt(time({ description: 'When the controller started the job.' })),
  completionTime: opt(time({ description: 'When the job finished.' })),
  desired: int32({ description: 'Number of pull tasks, normally the number of selected nodes.' }),
  active: opt(int32({ description: 'Pull tasks running now.' })),
  succeeded: opt(int32({ description: 'Pull tasks that succeeded.' })),
  failed: opt(int32({ description: 'Pull tasks that failed.' })),
  message: opt(Type.String({ description: 'Short summary of the job state.' })),
  failedNodes: opt(Type.Array(Type.String(), { description: 'Nodes where the pull failed.' })),
});

export const ImagePullJobKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  // The same schema in both versions (conversion None), as in OpenKruise 1.9.
  otherVersions: [{ name: 'v1beta1' }],
  storage: 'v1beta1',
  kind: 'ImagePullJob',
  plural: 'imagepulljobs',
  singular: 'imagepulljob',
  listKind: 'ImagePullJobList',
  scope: 'Namespaced',
  description: 'Pre-pulls an image onto selected nodes.',
  spec: ImagePullJobSpec,
  status: ImagePullJobStatus,
  printerColumns: [
    { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Nodes selected by the job.' },
    { name: 'ACTIVE', type: 'integer', jsonPath: '.status.active', description: 'Pull tasks running.' },
    { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Pull tasks succeeded.' },
    { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Pull tasks failed.' },
    AGE_COLUMN,
    { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'Summary of the job state.' },
  ],
});

export type ImagePullJobNodeSelector = Static<typeof ImagePullJobNodeSelector>;
export type PullPolicy = Static<typeof PullPolicy>;
export type CompletionPolicy = Static<typeof CompletionPolicy>;
export type SandboxConfig = Static<typeof SandboxConfig>;
export type ImagePullJobTemplate = Static<typeof ImagePullJobTemplate>;
export type ImagePullJobSpec = Static<typeof ImagePullJobSpec>;
export type ImagePullJobStatus = Static<typeof ImagePullJobStatus>;
export type ImagePullJob = ObjectOf<typeof ImagePullJobKind>;
