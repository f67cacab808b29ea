// ImageListPullJob (apps.kruise.io, v1beta1 stored, v1alpha1 served): the names the controller
// writes and the loose shape the webhooks and the controller read (an admitted or listed object is
// untrusted; the schema is src/api/apps/imagelistpulljob.ts).
import type { ImageListPullJob, ImageListPullJobSpec, ImageListPullJobStatus } from '../api/apps/imagelistpulljob.js';
import type { Loose, ObjectMeta, Stored } from '../api/kind.js';
import type { StoredImagePullJob } from '../imagepulljob/types.js';

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

/** An ImageListPullJob as the webhooks read it (an admitted object is untrusted). */
export type ImageListPullJobLike = { apiVersion?: string; kind?: string; metadata?: ObjectMeta; spec: Loose<ImageListPullJobSpec>; status?: ImageListPullJobStatus };

/** An ImageListPullJob as the controller lists it (named, namespaced). */
export type StoredImageListPullJob = Stored<ImageListPullJob>;

/** An ImagePullJob the list job created, as listed. */
export type ChildImagePullJob = StoredImagePullJob;

export const imageListPullJobRef = (job: { metadata: { name: string; namespace: string } }) => ({ apiVersion: IMAGELISTPULLJOB_API_VERSION, kind: IMAGELISTPULLJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
