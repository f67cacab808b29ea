// BroadcastJob (apps.kruise.io/v1alpha1): the names and labels OpenKruise's controller writes, and
// the loose shape the webhooks and the controller read (an admitted or listed object is untrusted;
// the schema is src/api/apps/broadcastjob.ts).
import type { BroadcastJob, BroadcastJobSpec, BroadcastJobStatus } from '../api/apps/broadcastjob.js';
import type { Loose, ObjectMeta, Stored } from '../api/kind.js';

export const BROADCASTJOB_API_VERSION = 'apps.kruise.io/v1alpha1';
export const BROADCASTJOB_KIND = 'BroadcastJob';

/** The job's name and uid on every pod it creates (OpenKruise's JobNameLabelKey / ControllerUIDLabelKey). */
export const JOB_NAME_LABEL = 'broadcastjob-name';
export const CONTROLLER_UID_LABEL = 'broadcastjob-controller-uid';

/** A BroadcastJob as the webhooks read it (an admitted object is untrusted). */
export type BroadcastJobLike = { apiVersion?: string; kind?: string; metadata?: ObjectMeta; spec: Loose<BroadcastJobSpec>; status?: BroadcastJobStatus };

/** A BroadcastJob as the controller lists it (named, namespaced). */
export type StoredBroadcastJob = Stored<BroadcastJob>;

/** The job as the object of a write, status or Event. */
export const broadcastJobRef = (job: { metadata: { name: string; namespace: string } }) => ({ apiVersion: BROADCASTJOB_API_VERSION, kind: BROADCASTJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
