// EphemeralJob's identity and the shape the reconciler reads it in.
import type { EphemeralJob } from '../api/apps/ephemeraljob.js';
import type { Stored } from '../api/kind.js';

export const EPHEMERALJOB_GROUP = 'apps.kruise.io';
export const EPHEMERALJOB_KIND = 'EphemeralJob';
export const EPHEMERALJOB_API_VERSION = `${EPHEMERALJOB_GROUP}/v1alpha1`;

/** An EphemeralJob as the API server returns it. */
export type StoredEphemeralJob = Stored<EphemeralJob>;

export const ephemeralJobRef = (job: StoredEphemeralJob) => ({ apiVersion: EPHEMERALJOB_API_VERSION, kind: EPHEMERALJOB_KIND, name: job.metadata.name, namespace: job.metadata.namespace });
