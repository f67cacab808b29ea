// ImageListPullJob (apps.kruise.io, v1beta1 stored, v1alpha1 served): the names the controller
// writes and the loose shape the webhooks and the controller read (an admitted or listed object is
// untrusted; the schema is src/api/apps/imagelistpulljob.ts).
import type { ImagePullJobLike } from '../imagepulljob/types.js';

export const IMAGELISTPULLJOB_GROUP = 'apps.kruise.io';
export const IMAGELISTPULLJOB_API_VERSION = 'apps.kruise.io/v1beta1';
export const IMAGELISTPULLJOB_KIND = 'ImageListPullJob';
/** The ImagePullJobs it creates (the version this build serves them in). */
export const CHILD_API_VERSION = 'apps.kruise.io/v1alpha1';
export const CHILD_KIND = 'ImagePullJob';

/** appsv1.ControllerRevisionHashLabelKey: on the list job and its ImagePullJobs, the template's hash. */
export const TEMPLATE_HASH_LABEL = 'controller-revision-hash';
/** OpenKruise's validation limit. */
export const MAX_IMAGES = 255;

export type FailedImageStatus = { imagePullJob?: string; name?: string; message?: string };

export type ImageListPullJobStatus = {
  startTime?: string | null;
  completionTime?: string | null;
  desired?: number;
  active?: number;
  completed?: number;
  succeeded?: number;
  failedImageStatuses?: FailedImageStatus[] | null;
};

export type ImageListPullJobLike = {
  apiVersion?: string;
  kind?: string;
  metadata?: NonNullable<ImagePullJobLike['metadata']>;
  /** The ImagePullJob template inlined (no `image`), and the images. */
  spec: ImagePullJobLike['spec'] & { images?: string[] | null };
  status?: ImageListPullJobStatus;
};

export type ImageListPullJob = ImageListPullJobLike & {
  metadata: NonNullable<ImageListPullJobLike['metadata']> & { name: string; namespace: string };
};

/** An ImagePullJob as the list job reads it: its owner, hash label, image and status counters. */
export type ChildImagePullJob = ImagePullJobLike & {
  metadata: NonNullable<ImagePullJobLike['metadata']> & { name: string; namespace: string };
};

export const imageListPullJobRef = (job: { metadata: { name: string; namespace: string } }) => ({ apiVersion: IMAGELISTPULLJOB_API_VERSION, kind: IMAGELISTPULLJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
