// Pure: an AdvancedCronJob's children — which are running, which finished and how, which the
// history limits drop — and the child to create for a scheduled time.
import type { KubeObject } from '../../kube/http.js';
import { ACJ_API_VERSION, ACJ_KIND, ACJ_V1BETA1_API_VERSION, IMAGELISTPULLJOB_KIND, SCHEDULED_AT_ANNOTATION, childApiVersion, type AdvancedCronJobLike, type Child, type ChildKind } from '../types.js';
import { controllerReference } from '../../kube/owner-reference.js';

export type Finished = 'Complete' | 'Failed' | undefined;

/**
 * A Job or BroadcastJob is finished when its Complete or Failed condition is True; an
 * ImageListPullJob once it has a completionTime: Complete when every image succeeded, else Failed.
 */
export function finishedAs(child: Child, kind: ChildKind | undefined = undefined): Finished {
  if ((kind ?? child.kind) === IMAGELISTPULLJOB_KIND) {
    const s = child.status;
    if (!s?.completionTime) return undefined;
    return (s.succeeded ?? 0) === (s.desired ?? 0) ? 'Complete' : 'Failed';
  }
  for (const c of child.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/** `<acj>-<unix seconds of the scheduled time>`: a repeated run collides on the name. */
export function childName(acjName: string, scheduled: Date): string {
  return `${acjName}-${Math.floor(scheduled.getTime() / 1000)}`;
}

/** RFC 3339 in UTC, whole seconds (Go's time.RFC3339 layout). */
export function rfc3339(t: Date): string {
  return t.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The children beyond `limit`, oldest first by status.startTime (none sorts first; ties by name),
 * as OpenKruise prunes them.
 */
export function beyondLimit(children: readonly Child[], limit: number | undefined): Child[] {
  if (limit === undefined || limit === null || children.length <= limit) return [];
  const sorted = [...children].sort((a, b) => {
    const sa = a.status?.startTime;
    const sb = b.status?.startTime;
    if (sa !== sb) return sa === undefined ? -1 : sb === undefined ? 1 : Date.parse(sa) - Date.parse(sb);
    return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
  });
  return sorted.slice(0, sorted.length - Math.max(0, limit));
}

/** The child for `scheduled`: the template's metadata and spec, the scheduled-at annotation, a controller reference. */
export function newChild(acj: AdvancedCronJobLike, kind: ChildKind, scheduled: Date): KubeObject {
  const t = acj.spec.template;
  const template = (kind === 'Job' ? t?.jobTemplate : kind === IMAGELISTPULLJOB_KIND ? t?.imageListPullJobTemplate : t?.broadcastJobTemplate) ?? {};
  const meta = (template as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } }).metadata ?? {};
  const spec = (template as { spec?: unknown }).spec ?? {};
  return {
    apiVersion: childApiVersion(kind),
    kind,
    metadata: {
      name: childName(acj.metadata.name ?? '', scheduled),
      namespace: acj.metadata.namespace,
      labels: { ...(meta.labels ?? {}) },
      annotations: { ...(meta.annotations ?? {}), [SCHEDULED_AT_ANNOTATION]: rfc3339(scheduled) },
      // OpenKruise 1.9 owns ImageListPullJobs through the v1beta1 AdvancedCronJob it read.
      ownerReferences: [controllerReference(kind === IMAGELISTPULLJOB_KIND ? ACJ_V1BETA1_API_VERSION : ACJ_API_VERSION, ACJ_KIND, acj.metadata)],
    },
    spec: structuredClone(spec),
  };
}

/** The reference status.active lists (ref.GetReference without the resourceVersion, which would churn the status). */
export function activeRef(child: Child, kind: ChildKind): Record<string, string> {
  return {
    apiVersion: childApiVersion(kind),
    kind,
    name: child.metadata.name ?? '',
    namespace: child.metadata.namespace ?? '',
    ...(child.metadata.uid ? { uid: child.metadata.uid } : {}),
  };
}
