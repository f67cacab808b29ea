// ImagePullJob (apps.kruise.io/v1alpha1): the names and labels of the pull pods this controller
// writes (OpenKruise has none: its kruise-daemon pulls through CRI), and the loose shape the
// webhooks and the controller read (an admitted or listed object is untrusted; the schema is
// src/api/apps/imagepulljob.ts).
import type { IntOrString } from '../kube/intstr.js';
import type { LabelSelector } from '../kube/selectors.js';

export const IMAGEPULLJOB_API_VERSION = 'apps.kruise.io/v1alpha1';
export const IMAGEPULLJOB_KIND = 'ImagePullJob';

/** On every pull pod: the job's name and uid, and which attempt on its node it is (0, 1, …). */
export const JOB_NAME_LABEL = 'imagepulljob.kruise-serverless.io/name';
export const JOB_UID_LABEL = 'imagepulljob.kruise-serverless.io/controller-uid';
export const ATTEMPT_LABEL = 'imagepulljob.kruise-serverless.io/attempt';

/** OpenKruise's defaults (SetDefaultsImagePullJob). */
export const DEFAULT_TIMEOUT_SECONDS = 600;
export const DEFAULT_BACKOFF_LIMIT = 3;

export type ImagePullJobStatus = {
  startTime?: string | null;
  completionTime?: string | null;
  desired?: number;
  active?: number;
  succeeded?: number;
  failed?: number;
  message?: string;
  failedNodes?: string[];
};

export type ImagePullJobLike = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string | null; labels?: Record<string, string>; annotations?: Record<string, string>; deletionTimestamp?: string | null; ownerReferences?: { uid?: string; kind?: string; controller?: boolean }[]; [k: string]: unknown };
  spec: {
    image?: string;
    pullSecrets?: string[] | null;
    selector?: (LabelSelector & { names?: string[] | null }) | null;
    podSelector?: LabelSelector | null;
    parallelism?: IntOrString | null;
    pullPolicy?: { timeoutSeconds?: number | null; backoffLimit?: number | null } | null;
    completionPolicy?: { type?: string; activeDeadlineSeconds?: number | null; ttlSecondsAfterFinished?: number | null } | null;
    sandboxConfig?: { labels?: Record<string, string> | null; annotations?: Record<string, string> | null } | null;
    imagePullPolicy?: string;
    [k: string]: unknown;
  };
  status?: ImagePullJobStatus;
};

export type ImagePullJob = ImagePullJobLike & {
  metadata: NonNullable<ImagePullJobLike['metadata']> & { name: string; namespace: string };
};

/** The job as the object of a write, status or Event. */
export const imagePullJobRef = (job: { metadata: { name: string; namespace: string } }) => ({ apiVersion: IMAGEPULLJOB_API_VERSION, kind: IMAGEPULLJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
