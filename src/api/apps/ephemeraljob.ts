// EphemeralJob (apps.kruise.io/v1alpha1): injects ephemeral containers into the pods a selector
// matches, through the pods/ephemeralcontainers subresource, and counts how they end.
import type { V1EphemeralContainer, V1LabelSelector } from '@kubernetes/client-node';
import { Type, core, int32, int64, openString, opt, preserveUnknown, time, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type ObjectOf } from '../kind.js';

export type EphemeralJobPhase = 'Succeeded' | 'Failed' | 'Waiting' | 'Running' | 'Paused' | 'Error' | 'Unknown';
export type EphemeralJobConditionType = 'JobSucceeded' | 'JobFailed' | 'JobError' | 'Initialized' | 'MatchedEmpty';

export const EphemeralJobSpec = Type.Object({
  selector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', { description: 'Selects the pods to inject into.' }),
  replicas: opt(int32({ description: 'How many matched pods get the ephemeral containers (default: every matched pod).' })),
  parallelism: opt(int32({ description: 'How many pods run the ephemeral containers at once (default 1).' })),
  template: Type.Object(
    {
      // The API server's 1.20 OpenAPI has no EphemeralContainer (alpha, behind a gate): kept verbatim, checked by the webhook.
      ephemeralContainers: Type.Array(preserveUnknown<V1EphemeralContainer>(), { description: 'The ephemeral containers to inject (core EphemeralContainer).' }),
    },
    { description: 'The ephemeral containers injected into each pod.' },
  ),
  paused: opt(Type.Boolean({ description: 'Stop injecting into more pods.' })),
  activeDeadlineSeconds: opt(int64({ description: 'Seconds after the start after which the job fails.' })),
  ttlSecondsAfterFinished: opt(int32({ description: 'Seconds after the job finished after which it is deleted.' })),
});

export const EphemeralJobCondition = Type.Object({
  type: openString<EphemeralJobConditionType>(),
  status: Type.String(),
  lastProbeTime: opt(time()),
  lastTransitionTime: opt(time()),
  reason: opt(Type.String()),
  message: opt(Type.String()),
});

export const EphemeralJobStatus = Type.Object({
  conditions: opt(Type.Array(EphemeralJobCondition)),
  startTime: opt(time({ description: 'When the controller started the job.' })),
  completionTime: opt(time({ description: 'When the job finished.' })),
  phase: openString<EphemeralJobPhase>({ description: 'Succeeded, Failed, Waiting, Running, Paused, Error or Unknown.' }),
  match: int32({ description: 'Pods matched by the selector.' }),
  running: int32({ description: 'Ephemeral containers running.' }),
  succeeded: int32({ description: 'Ephemeral containers that exited 0.' }),
  waiting: int32({ description: 'Ephemeral containers waiting.' }),
  failed: int32({ description: 'Ephemeral containers that failed.' }),
});

export const EphemeralJobKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'EphemeralJob',
  plural: 'ephemeraljobs',
  singular: 'ephemeraljob',
  listKind: 'EphemeralJobList',
  scope: 'Namespaced',
  description: 'Injects ephemeral containers into the pods a selector matches.',
  spec: EphemeralJobSpec,
  status: EphemeralJobStatus,
  printerColumns: [
    { name: 'STATUS', type: 'string', jsonPath: '.status.phase', description: 'The status of ephemeral job' },
    { name: 'MATCH', type: 'integer', jsonPath: '.status.match', description: 'Number of ephemeral container matched by this job' },
    { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of succeed ephemeral containers' },
    { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of failed ephemeral containers' },
    { name: 'RUNNING', type: 'integer', jsonPath: '.status.running', description: 'Number of running ephemeral containers' },
    { name: 'WAITING', type: 'integer', jsonPath: '.status.waiting', description: 'Number of waiting ephemeral containers' },
    AGE_COLUMN,
  ],
});

export type EphemeralJobSpec = Static<typeof EphemeralJobSpec>;
export type EphemeralJobStatus = Static<typeof EphemeralJobStatus>;
export type EphemeralJob = ObjectOf<typeof EphemeralJobKind>;
