// Pure: which reconcilers an EventBridge event asks for, and over what scope.
//   Scheduled Event (aws.events)          → every reconciler, full resync
//   ObjectChanged (kruise-serverless)     → the reconcilers of that apiVersion+kind, for that object;
//                                            reconcilers that list the kind in `triggers` run in full
//                                            (as the Node loop does for watched trigger kinds), unless
//                                            the trigger maps the change to its objects (`objectsOf`):
//                                            the event carries no object to map, and the edge already
//                                            publishes an event for those objects themselves (the
//                                            pod-status, job-status and subset-status observers)
// Anything else is an answer too (ignored, or invalid with the reason), never an exception.
import type { Reconciler, Scope } from '../reconcile/types.js';
import { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE, parseChangeEvent, type ChangeEvent } from './change-events.js';

export const SCHEDULE_SOURCE = 'aws.events';
export const SCHEDULE_DETAIL_TYPE = 'Scheduled Event';

/** The envelope EventBridge delivers to a Lambda target. */
export type EventBridgeEvent = {
  version: string;
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
};

export type PlannedRun = { reconciler: Reconciler; scope: Scope };

export type Route =
  | { trigger: 'schedule'; runs: PlannedRun[] }
  | { trigger: 'object-changed'; event: ChangeEvent; runs: PlannedRun[] }
  | { trigger: 'ignored'; reason: string }
  | { trigger: 'invalid'; error: string };

export function routeEvent(event: unknown, reconcilers: readonly Reconciler[], clusterId: string): Route {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return { trigger: 'invalid', error: 'event: expected an EventBridge event object' };
  const e = event as Partial<Record<keyof EventBridgeEvent, unknown>>;
  const source = e.source;
  const detailType = e['detail-type'];
  if (typeof source !== 'string' || typeof detailType !== 'string') return { trigger: 'invalid', error: 'event: "source" and "detail-type" must be strings (is this an EventBridge event?)' };

  if (source === SCHEDULE_SOURCE && detailType === SCHEDULE_DETAIL_TYPE) {
    return { trigger: 'schedule', runs: reconcilers.map((reconciler) => ({ reconciler, scope: { kind: 'all' } })) };
  }
  if (source === CHANGE_EVENT_SOURCE && detailType === CHANGE_EVENT_DETAIL_TYPE) {
    const parsed = parseChangeEvent(e.detail);
    const id = typeof e.id === 'string' ? ` ${e.id}` : '';
    if (!parsed.ok) return { trigger: 'invalid', error: `${CHANGE_EVENT_DETAIL_TYPE} event${id}: ${parsed.error}` };
    const change = parsed.event;
    if (change.clusterId !== clusterId) return { trigger: 'ignored', reason: `event for cluster "${change.clusterId}"; this function serves "${clusterId}"` };
    return { trigger: 'object-changed', event: change, runs: runsFor(change, reconcilers) };
  }
  return { trigger: 'ignored', reason: `unhandled event: source "${source}", detail-type "${detailType}"` };
}

function runsFor(change: ChangeEvent, reconcilers: readonly Reconciler[]): PlannedRun[] {
  const object = change.namespace ? { namespace: change.namespace, name: change.name } : { name: change.name };
  const runs: PlannedRun[] = [];
  for (const reconciler of reconcilers) {
    if (reconciler.apiVersion === change.apiVersion && reconciler.kind === change.kind) {
      runs.push({ reconciler, scope: { kind: 'objects', objects: [object] } });
    } else if (reconciler.triggers?.some((t) => t.apiVersion === change.apiVersion && t.kind === change.kind && !t.objectsOf)) {
      runs.push({ reconciler, scope: { kind: 'all' } });
    }
  }
  return runs;
}
