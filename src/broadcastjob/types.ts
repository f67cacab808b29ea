// BroadcastJob (apps.kruise.io/v1alpha1): the names and labels OpenKruise's controller writes, and
// the loose shape the webhooks and the controller read (an admitted or listed object is untrusted;
// the schema is src/api/apps/broadcastjob.ts).
import type { IntOrString } from '../kube/intstr.js';

export const BROADCASTJOB_API_VERSION = 'apps.kruise.io/v1alpha1';
export const BROADCASTJOB_KIND = 'BroadcastJob';

/** The job's name and uid on every pod it creates (OpenKruise's JobNameLabelKey / ControllerUIDLabelKey). */
export const JOB_NAME_LABEL = 'broadcastjob-name';
export const CONTROLLER_UID_LABEL = 'broadcastjob-controller-uid';

export type JobCondition = {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
};

export type BroadcastJobStatus = {
  conditions?: JobCondition[];
  startTime?: string | null;
  completionTime?: string | null;
  active?: number;
  succeeded?: number;
  failed?: number;
  desired?: number;
  phase?: string;
};

export type BroadcastJobLike = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; generation?: number; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string>; deletionTimestamp?: string | null; [k: string]: unknown };
  spec: {
    parallelism?: IntOrString | null;
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; [k: string]: unknown }; spec?: Record<string, unknown>; [k: string]: unknown };
    completionPolicy?: { type?: string; activeDeadlineSeconds?: number | null; ttlSecondsAfterFinished?: number | null } | null;
    paused?: boolean;
    failurePolicy?: { type?: string; restartLimit?: number | null } | null;
    [k: string]: unknown;
  };
  status?: BroadcastJobStatus;
};

export type BroadcastJob = BroadcastJobLike & {
  metadata: NonNullable<BroadcastJobLike['metadata']> & { name: string; namespace: string };
};

/** The job as the object of a write, status or Event. */
export const broadcastJobRef = (job: { metadata: { name: string; namespace: string } }) => ({ apiVersion: BROADCASTJOB_API_VERSION, kind: BROADCASTJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
