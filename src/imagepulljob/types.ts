// ImagePullJob (apps.kruise.io/v1alpha1): the names and labels of the pull pods this controller
// writes (OpenKruise has none: its kruise-daemon pulls through CRI), and the loose shape the
// webhooks and the controller read (an admitted or listed object is untrusted; the schema is
// src/api/apps/imagepulljob.ts).
import type { ImagePullJob, ImagePullJobSpec, ImagePullJobStatus } from '../api/apps/imagepulljob.js';
import type { Loose, ObjectMeta, Stored } from '../api/kind.js';

export const IMAGEPULLJOB_API_VERSION = 'apps.kruise.io/v1alpha1';
export const IMAGEPULLJOB_KIND = 'ImagePullJob';

/** On every pull pod: the job's name and uid, and which attempt on its node it is (0, 1, …). */
export const JOB_NAME_LABEL = 'imagepulljob.kruise-serverless.io/name';
export const JOB_UID_LABEL = 'imagepulljob.kruise-serverless.io/controller-uid';
export const ATTEMPT_LABEL = 'imagepulljob.kruise-serverless.io/attempt';

/** OpenKruise's defaults (SetDefaultsImagePullJob). */
export const DEFAULT_TIMEOUT_SECONDS = 600;
export const DEFAULT_BACKOFF_LIMIT = 3;

/** An ImagePullJob as the webhooks read it (an admitted object is untrusted). */
export type ImagePullJobLike = { apiVersion?: string; kind?: string; metadata?: ObjectMeta; spec: Loose<ImagePullJobSpec>; status?: ImagePullJobStatus };

/** An ImagePullJob as the controller lists it (named, namespaced). */
export type StoredImagePullJob = Stored<ImagePullJob>;

/** The job as the object of a write, status or Event. */
export const imagePullJobRef = (job: { metadata: { name: string; namespace: string } }) => ({ apiVersion: IMAGEPULLJOB_API_VERSION, kind: IMAGEPULLJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
