// Records EventNotes as core/v1 Events, aggregated like client-go's recorder: the same note about
// the same object gets one Event whose `count` grows, under a name derived from the note, so a
// repeated or doubled run bumps the count instead of piling up Events.
import { createHash } from 'node:crypto';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import { isAlreadyExists, isConflict, isNotFound, KubeApiError } from '../kube/errors.js';
import type { EventNote } from './types.js';

export type CoreEvent = KubeObject & {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  involvedObject: { apiVersion: string; kind: string; name: string; namespace?: string; uid?: string };
  reason: string;
  message: string;
  type: EventNote['type'];
  source: { component: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
};

/** What happened to one note: a new Event, a count bump, or a bump lost to a concurrent writer. */
export type EventOutcome = 'created' | 'incremented' | 'dropped';

/** Events about cluster-scoped objects live in 'default', as kubectl looks for them there. */
export function eventNamespace(note: EventNote): string {
  return note.regarding.namespace ?? 'default';
}

/** `<regarding.name>.<16 hex>`: the same note about the same object always names the same Event. */
export function eventName(note: EventNote, component: string): string {
  const r = note.regarding;
  // Without a uid, the object's full reference keeps same-named objects of other kinds apart.
  const who = r.uid ?? `${r.apiVersion}/${r.kind}/${r.namespace ?? ''}/${r.name}`;
  const hash = createHash('sha256').update(`${who}|${note.reason}|${note.message}|${component}`).digest('hex');
  return `${r.name}.${hash.slice(0, 16)}`;
}

/** metav1.Time: RFC 3339 in whole seconds. */
function eventTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Pure: the Event to create for a note seen for the first time. */
export function eventFor(note: EventNote, component: string, now: Date): CoreEvent {
  const { apiVersion, kind, name, namespace, uid } = note.regarding;
  const t = eventTime(now);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(note, component), namespace: eventNamespace(note) },
    involvedObject: { apiVersion, kind, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) },
    reason: note.reason,
    message: note.message,
    type: note.type,
    source: { component },
    firstTimestamp: t,
    lastTimestamp: t,
    count: 1,
  };
}

/** The API server refuses new objects in a namespace being deleted with 403 Forbidden. */
export function isNamespaceTerminating(e: unknown): boolean {
  return e instanceof KubeApiError && e.status === 403 && /because it is being terminated/.test(e.message);
}

/** Creates the Event, or bumps the existing one's count (read-modify-write under its resourceVersion). */
export async function recordEvent(kube: KubeHttp, note: EventNote, opts: { component: string; now: Date }): Promise<EventOutcome> {
  const fresh = eventFor(note, opts.component, opts.now);
  try {
    await kube.create(fresh);
    return 'created';
  } catch (e) {
    // As client-go's recorder: an Event about an object in a namespace being deleted is dropped.
    if (isNamespaceTerminating(e)) return 'dropped';
    if (!isAlreadyExists(e)) throw e;
  }
  try {
    const seen = await kube.get<CoreEvent>('v1', 'Event', fresh.metadata.name, fresh.metadata.namespace);
    await kube.replace<CoreEvent>({ ...seen, apiVersion: 'v1', kind: 'Event', count: (seen.count ?? 1) + 1, lastTimestamp: fresh.lastTimestamp });
    return 'incremented';
  } catch (e) {
    // Someone else bumped it, or it expired meanwhile: an Event count is not worth a retry.
    if (isConflict(e) || isNotFound(e)) return 'dropped';
    throw e;
  }
}
