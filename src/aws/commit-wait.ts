// Pure: whether the write a change event reports is visible yet. Webhooks publish an event as they
// answer, and the API server commits the write only once every validating webhook has answered (a
// slow one of another vendor can take seconds), so an event can reach the Lambda first. A run
// started then reads the cluster without the write and, finding nothing to do, asks for no
// wake-up: the change would wait for the scheduled resync. So the handler reads the object the
// write concerns first; while the write is not visible, the runs wait in the queue (a wake-up
// COMMIT_RECHECK_MS later, checked again), for at most COMMIT_WAIT_MS, then run anyway: the write
// was refused by a later webhook, or changed nothing (a no-op update keeps the resourceVersion).
import type { AdmittedRef } from '../edge-state/contracts.js';

export const COMMIT_RECHECK_MS = 1_000;
/** Longer than the default 10 s webhook timeout of the webhooks that may hold the write. */
export const COMMIT_WAIT_MS = 15_000;

/** What a GET shows of the object (undefined: not found). */
export type ObjectVersion = { resourceVersion?: string; deletionTimestamp?: string };

export function hasCommitted(ref: AdmittedRef, current: ObjectVersion | undefined): boolean {
  switch (ref.operation) {
    case 'CREATE':
      return current !== undefined;
    case 'UPDATE':
      return current === undefined || ref.basedOn === undefined || current.resourceVersion !== ref.basedOn;
    case 'DELETE':
      return current === undefined || current.deletionTimestamp !== undefined || ref.basedOn === undefined || current.resourceVersion !== ref.basedOn;
  }
}

export const describeRef = (ref: AdmittedRef): string => `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name} ${ref.operation.toLowerCase()}`;
