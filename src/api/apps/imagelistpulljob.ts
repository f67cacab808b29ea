// ImageListPullJob (apps.kruise.io, v1beta1 stored, v1alpha1 served with the same schema): one
// ImagePullJob per listed image, all sharing the ImagePullJob template.
import { Type, int32, opt, time, type Static } from '../schema.js';
import { AGE_COLUMN, defineKind, type ObjectOf } from '../kind.js';
import { ImagePullJobTemplate } from './imagepulljob.js';

export const ImageListPullJobSpec = Type.Composite([
  Type.Object({ images: Type.Array(Type.String(), { description: 'The images to pull: one ImagePullJob each (at most 255, no duplicates).' }) }),
  ImagePullJobTemplate,
]);

export const FailedImageStatus = Type.Object({
  imagePullJob: opt(Type.String({ description: 'The ImagePullJob with failed nodes.' })),
  name: opt(Type.String({ description: 'The image.' })),
  message: opt(Type.String({ description: 'Where to look for the failed nodes.' })),
});

export const ImageListPullJobStatus = Type.Object({
  startTime: opt(time({ description: 'When the controller started the job.' })),
  completionTime: opt(time({ description: 'When every ImagePullJob had finished.' })),
  desired: int32({ description: 'Number of ImagePullJobs: the number of images.' }),
  active: opt(int32({ description: 'ImagePullJobs with pulls running.' })),
  completed: opt(int32({ description: 'ImagePullJobs finished (every node succeeded or failed).' })),
  succeeded: opt(int32({ description: 'ImagePullJobs that succeeded on every node.' })),
  failedImageStatuses: opt(Type.Array(FailedImageStatus, { description: 'The ImagePullJobs with failed nodes.' })),
});

export const ImageListPullJobKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  otherVersions: [{ name: 'v1alpha1' }],
  kind: 'ImageListPullJob',
  plural: 'imagelistpulljobs',
  singular: 'imagelistpulljob',
  listKind: 'ImageListPullJobList',
  scope: 'Namespaced',
  description: 'Pre-pulls a list of images onto selected nodes, one ImagePullJob per image.',
  spec: ImageListPullJobSpec,
  status: ImageListPullJobStatus,
  printerColumns: [
    { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Number of image pull jobs.' },
    { name: 'SUCCEEDED', type: 'integer', jsonPath: '.status.succeeded', description: 'Image pull jobs succeeded.' },
    { name: 'COMPLETED', type: 'integer', jsonPath: '.status.completed', description: 'Image pull jobs finished.' },
    AGE_COLUMN,
  ],
});

export type ImageListPullJobSpec = Static<typeof ImageListPullJobSpec>;
export type FailedImageStatus = Static<typeof FailedImageStatus>;
export type ImageListPullJobStatus = Static<typeof ImageListPullJobStatus>;
export type ImageListPullJob = ObjectOf<typeof ImageListPullJobKind>;
