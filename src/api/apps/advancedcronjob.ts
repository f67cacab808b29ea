// AdvancedCronJob (apps.kruise.io/v1alpha1, namespaced): creates a Job or a BroadcastJob on a cron
// schedule, with the history limits and concurrency rules of a CronJob.
import type { V1JobTemplateSpec, V1ObjectMeta, V1ObjectReference } from '@kubernetes/client-node';
import { Type, core, int32, int64, oneOf, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type ObjectOf } from '../kind.js';
import { BroadcastJobSpec } from './broadcastjob.js';

/** Which kind of job an AdvancedCronJob creates (reported in status.type). */
export type AdvancedCronJobTemplateKind = 'Job' | 'BroadcastJob' | 'ImageListPullJob';

export const BroadcastJobTemplateSpec = Type.Object(
  {
    metadata: opt(
      preserveUnknown<V1ObjectMeta>({ description: 'Labels, annotations and other metadata for each BroadcastJob created.' }),
    ),
    spec: opt(Type.Composite([BroadcastJobSpec], { description: 'The spec of each BroadcastJob created.' })),
  },
  { description: 'The BroadcastJob to create at each scheduled time.' },
);

export const AdvancedCronJobTemplate = Type.Object(
  {
    jobTemplate: opt(
      preserveUnknown<V1JobTemplateSpec>({
        description: 'The batch Job to create at each scheduled time (metadata and spec, as in a CronJob).',
      }),
    ),
    broadcastJobTemplate: opt(BroadcastJobTemplateSpec),
  },
  { description: 'What to create at each scheduled time: set exactly one of jobTemplate or broadcastJobTemplate.' },
);

export const AdvancedCronJobSpec = Type.Object({
  schedule: Type.String({ minLength: 0, description: 'When to run, in cron syntax (e.g. "*/5 * * * *").' }),
  timeZone: opt(
    Type.String({
      description:
        'IANA time zone name the schedule is read in (e.g. "Asia/Shanghai"). Unset means the controller\'s local time zone.',
    }),
  ),
  startingDeadlineSeconds: opt(
    int64({ description: 'Seconds after a missed scheduled time during which the run may still start; later, it counts as failed.' }),
  ),
  concurrencyPolicy: opt(
    oneOf(['Allow', 'Forbid', 'Replace'], {
      description:
        'What to do when a run is due while the previous one is still going: Allow (default) runs both, Forbid skips the new run, Replace stops the old run and starts the new one.',
    }),
  ),
  paused: opt(Type.Boolean({ description: 'Create no new jobs while true.' })),
  successfulJobsHistoryLimit: opt(int32({ description: 'How many successfully finished jobs to keep.' })),
  failedJobsHistoryLimit: opt(int32({ description: 'How many failed jobs to keep.' })),
  template: AdvancedCronJobTemplate,
});

/** v1beta1's template can also create an ImageListPullJob (the controller reads v1beta1). */
export const AdvancedCronJobTemplateV1beta1 = Type.Object(
  {
    ...AdvancedCronJobTemplate.properties,
    imageListPullJobTemplate: opt(
      preserveUnknown({ description: 'The ImageListPullJob to create at each scheduled time (metadata and spec).' }),
    ),
  },
  { description: 'What to create at each scheduled time: set exactly one of jobTemplate, broadcastJobTemplate or imageListPullJobTemplate.' },
);

export const AdvancedCronJobSpecV1beta1 = Type.Object({ ...AdvancedCronJobSpec.properties, template: AdvancedCronJobTemplateV1beta1 });

export const AdvancedCronJobStatus = Type.Object({
  type: opt(openString<AdvancedCronJobTemplateKind>({ description: 'The kind of job this creates: Job, BroadcastJob or ImageListPullJob.' })),
  active: opt(
    Type.Array(core<V1ObjectReference>('io.k8s.api.core.v1.ObjectReference'), {
      description: 'References to the jobs currently running.',
    }),
  ),
  lastScheduleTime: opt(time({ description: 'The last time a job was successfully scheduled.' })),
});

export const AdvancedCronJobKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  // Conversion None, as in OpenKruise 1.9: v1alpha1 reads drop imageListPullJobTemplate.
  otherVersions: [{ name: 'v1beta1', spec: AdvancedCronJobSpecV1beta1 }],
  storage: 'v1beta1',
  kind: 'AdvancedCronJob',
  plural: 'advancedcronjobs',
  singular: 'advancedcronjob',
  shortNames: ['acj'],
  scope: 'Namespaced',
  description: 'Creates a Job or a BroadcastJob on a cron schedule.',
  spec: AdvancedCronJobSpec,
  status: AdvancedCronJobStatus,
  printerColumns: [
    { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule', description: 'The cron schedule.' },
    { name: 'Type', type: 'string', jsonPath: '.status.type', description: 'Kind of job created: Job or BroadcastJob.' },
    { name: 'LastScheduleTime', type: 'date', jsonPath: '.status.lastScheduleTime', description: 'When a job was last scheduled.' },
    AGE_COLUMN,
  ],
});

export type BroadcastJobTemplateSpec = Static<typeof BroadcastJobTemplateSpec>;
export type AdvancedCronJobTemplate = Static<typeof AdvancedCronJobTemplate>;
export type AdvancedCronJobSpec = Static<typeof AdvancedCronJobSpec>;
export type AdvancedCronJobStatus = Static<typeof AdvancedCronJobStatus>;
export type AdvancedCronJob = ObjectOf<typeof AdvancedCronJobKind>;
