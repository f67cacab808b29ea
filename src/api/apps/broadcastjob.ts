// BroadcastJob (apps.kruise.io/v1alpha1, namespaced): runs one Pod from a template on every eligible
// node of the cluster, like a DaemonSet whose Pods run to completion.
import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import { Type, int32, int64, intOrString, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type ObjectOf } from '../kind.js';

export const BroadcastJobCompletionPolicy = Type.Object(
  {
    type: opt(
      openString<'Always' | 'Never'>({
        description:
          'Always (default): the job finishes once every Pod on the eligible nodes has ended, or a deadline or restart limit is hit. Never: the job stays alive and also runs on nodes added later.',
      }),
    ),
    activeDeadlineSeconds: opt(
      int64({
        description:
          'Seconds after the start time the job may stay active before it is stopped and marked failed. Positive; Always only.',
      }),
    ),
    ttlSecondsAfterFinished: opt(
      int32({
        description:
          'Seconds after the job finishes (Complete or Failed) before it is deleted automatically; 0 deletes right away, unset never. Always only.',
      }),
    ),
  },
  { description: 'When the job counts as finished. Defaults to type Always.' },
);

export const BroadcastJobFailurePolicy = Type.Object(
  {
    type: opt(
      openString<'Continue' | 'FailFast' | 'Pause'>({
        description:
          'What a failed Pod does to the job: FailFast (default) fails the job, Continue keeps it running, Pause pauses it.',
      }),
    ),
    restartLimit: opt(int32({ description: 'Retries allowed before a Pod is marked failed.' })),
  },
  { description: 'How the job reacts when one of its Pods fails.' },
);

export const BroadcastJobSpec = Type.Object({
  parallelism: opt(
    intOrString({
      description:
        'Most Pods running at once, as a number or a percentage of the desired Pods. Unset means no limit.',
    }),
  ),
  template: preserveUnknown<V1PodTemplateSpec>({ description: 'The Pod to run on each eligible node.' }),
  completionPolicy: opt(BroadcastJobCompletionPolicy),
  paused: opt(Type.Boolean({ description: 'Stop creating new Pods while true.' })),
  failurePolicy: opt(BroadcastJobFailurePolicy),
});

export const BroadcastJobCondition = Type.Object(
  {
    type: openString<'Complete' | 'Failed'>({ description: 'Complete or Failed.' }),
    status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
    lastProbeTime: opt(time({ description: 'When the condition was last checked.' })),
    lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
    reason: opt(Type.String({ description: 'Short machine-readable cause of the last change.' })),
    message: opt(Type.String({ description: 'Human-readable details about the last change.' })),
  },
  { description: 'One observation about the state of the job.' },
);

export const BroadcastJobStatus = Type.Object({
  conditions: opt(Type.Array(BroadcastJobCondition, { description: 'The latest observations of the job.' })),
  startTime: opt(time({ description: 'When the controller first picked up the job (RFC 3339, UTC).' })),
  completionTime: opt(time({ description: 'When the job finished (RFC 3339, UTC).' })),
  active: opt(int32({ description: 'Pods currently running.' })),
  succeeded: opt(int32({ description: 'Pods that ended in phase Succeeded.' })),
  failed: opt(int32({ description: 'Pods that ended in phase Failed.' })),
  desired: opt(int32({ description: 'Pods wanted, usually the number of nodes the Pod fits on.' })),
  phase: opt(
    openString<'running' | 'paused' | 'completed' | 'failed'>({
      description: 'Where the job is: running, paused, completed or failed.',
    }),
  ),
});

export const BroadcastJobKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  // The same schema in both versions (conversion None), as in OpenKruise 1.9.
  otherVersions: [{ name: 'v1beta1' }],
  storage: 'v1beta1',
  kind: 'BroadcastJob',
  plural: 'broadcastjobs',
  singular: 'broadcastjob',
  shortNames: ['bcj'],
  scope: 'Namespaced',
  description: 'Runs a Pod to completion on every eligible node of the cluster.',
  spec: BroadcastJobSpec,
  status: BroadcastJobStatus,
  printerColumns: [
    { name: 'Desired', type: 'integer', jsonPath: '.status.desired', description: 'Pods wanted, usually one per eligible node.' },
    { name: 'Active', type: 'integer', jsonPath: '.status.active', description: 'Pods currently running.' },
    { name: 'Succeeded', type: 'integer', jsonPath: '.status.succeeded', description: 'Pods that succeeded.' },
    { name: 'Failed', type: 'integer', jsonPath: '.status.failed', description: 'Pods that failed.' },
    AGE_COLUMN,
  ],
});

export type BroadcastJobCompletionPolicy = Static<typeof BroadcastJobCompletionPolicy>;
export type BroadcastJobFailurePolicy = Static<typeof BroadcastJobFailurePolicy>;
export type BroadcastJobSpec = Static<typeof BroadcastJobSpec>;
export type BroadcastJobCondition = Static<typeof BroadcastJobCondition>;
export type BroadcastJobStatus = Static<typeof BroadcastJobStatus>;
export type BroadcastJob = ObjectOf<typeof BroadcastJobKind>;
