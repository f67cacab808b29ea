// One copy of a distributed resource: what it should look like in a namespace, whose it is, and
// what, if anything, must be written to bring an existing object there. Pure.
import { Buffer } from 'node:buffer';
import { canonicalJson } from './canonical-json.js';
import { copyLabelValue } from './copy-label.js';
import {
  ANNOTATION_TIMESTAMP,
  ANNOTATION_FROM,
  ANNOTATION_HASH,
  COPY_LABEL,
  RD_API_VERSION,
  RD_GROUP,
  RD_KIND,
  isDistributedKind,
  type CopyMeta,
  type DistributedKind,
  type DistributedObject,
  type OwnerReference,
  type ResourceDistribution,
} from './types.js';
import { controllerReference } from '../kube/owner-reference.js';

/** The resource a distribution copies, when `spec.resource` is a usable v1 ConfigMap or Secret. */
export type SourceResource = { kind: DistributedKind; name: string; body: Record<string, unknown> };

export function sourceResource(rd: ResourceDistribution): SourceResource | undefined {
  const body = rd.spec?.resource as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return undefined;
  const name = (body.metadata as { name?: unknown } | undefined)?.name;
  if (body.apiVersion !== 'v1' || !isDistributedKind(body.kind) || typeof name !== 'string' || name === '') return undefined;
  return { kind: body.kind, name, body };
}

/** metav1.Time: RFC 3339 in whole seconds. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function ownerReferenceTo(rd: ResourceDistribution): OwnerReference {
  return controllerReference(RD_API_VERSION, RD_KIND, rd.metadata);
}

function controllerOf(obj: DistributedObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** A reference to this distribution by group, kind and name, whatever its uid (OpenKruise's isControlledByDistributor). */
function refersTo(ref: OwnerReference, rd: ResourceDistribution): boolean {
  return ref.kind === RD_KIND && ref.apiVersion.split('/')[0] === RD_GROUP && ref.name === rd.metadata.name;
}

/** Whether the copy's controller ownerReference names this distribution (whatever its uid). */
export function isControlledBy(obj: DistributedObject, rd: ResourceDistribution): boolean {
  const controller = controllerOf(obj);
  return !!controller && refersTo(controller, rd);
}

/**
 * - ours: written by us for this distribution (our label, its name in `resource.from`).
 * - adoptable: this distribution's by annotation and controller, without our label: OpenKruise's copy.
 * - foreign: anything else, including a copy whose `resource.from` was changed. Never written.
 */
export type Ownership = 'ours' | 'adoptable' | 'foreign';

export function ownershipOf(obj: DistributedObject, rd: ResourceDistribution): Ownership {
  if (obj.metadata.annotations?.[ANNOTATION_FROM] !== rd.metadata.name) return 'foreign';
  const controller = controllerOf(obj);
  if (controller && !refersTo(controller, rd)) return 'foreign';
  return obj.metadata.labels?.[COPY_LABEL] === copyLabelValue(rd.metadata.name ?? '') ? 'ours' : 'adoptable';
}

// Metadata the API server owns, or that is per-copy: never taken from the template.
const SERVER_META = ['namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink'];

function templateMeta(src: SourceResource): Record<string, unknown> {
  const meta = { ...((src.body.metadata as Record<string, unknown> | undefined) ?? {}) };
  for (const k of SERVER_META) delete meta[k];
  return meta;
}

/** Everything but metadata and status: what a copy holds. */
function contentOf(body: Record<string, unknown>): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...content } = body;
  return content;
}

/** A new copy of the resource for `namespace`. */
export function desiredCopy(rd: ResourceDistribution, src: SourceResource, namespace: string, hash: string, now: Date): DistributedObject {
  const meta = templateMeta(src);
  const ownerRefs = ((meta.ownerReferences as OwnerReference[] | undefined) ?? []).filter((r) => !refersTo(r, rd));
  return {
    ...contentOf(src.body),
    apiVersion: 'v1',
    kind: src.kind,
    metadata: {
      ...meta,
      name: src.name,
      namespace,
      labels: { ...(meta.labels as Record<string, string> | undefined), [COPY_LABEL]: copyLabelValue(rd.metadata.name ?? '') },
      annotations: {
        ...(meta.annotations as Record<string, string> | undefined),
        [ANNOTATION_FROM]: rd.metadata.name ?? '',
        [ANNOTATION_HASH]: hash,
        [ANNOTATION_TIMESTAMP]: rfc3339(now),
      },
      ownerReferences: [...ownerRefs, ownerReferenceTo(rd)],
    },
  };
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'object' && Object.keys(v as object).length === 0);
}

/**
 * The content as the API server stores it, so a copy that matches does not compare unequal:
 * a Secret's stringData is folded into data (base64) and its type defaults to Opaque; empty maps
 * are dropped (Go's omitempty).
 */
function storedContent(kind: DistributedKind, body: Record<string, unknown>): Record<string, unknown> {
  const content = contentOf(body);
  if (kind === 'Secret') {
    const stringData = content.stringData as Record<string, string> | undefined;
    delete content.stringData;
    if (stringData && Object.keys(stringData).length > 0) {
      const data = { ...((content.data as Record<string, string> | undefined) ?? {}) };
      for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      content.data = data;
    }
    content.type ??= 'Opaque';
  }
  for (const [k, v] of Object.entries(content)) if (isEmpty(v)) delete content[k];
  return content;
}

/** True when the copy's content (not metadata) differs from the resource: OpenKruise's needToUpdate. */
export function contentDiffers(obj: DistributedObject, src: SourceResource): boolean {
  return canonicalJson(storedContent(src.kind, obj)) !== canonicalJson(storedContent(src.kind, src.body));
}

/** The owner references an owned copy should carry: others kept, ours (current uid) last. */
function ownerRefsFor(obj: DistributedObject, rd: ResourceDistribution): OwnerReference[] {
  return [...(obj.metadata.ownerReferences ?? []).filter((r) => !refersTo(r, rd)), ownerReferenceTo(rd)];
}

function hasCurrentOwnerRef(obj: DistributedObject, rd: ResourceDistribution): boolean {
  const want = ownerReferenceTo(rd);
  return (obj.metadata.ownerReferences ?? []).some(
    (r) => refersTo(r, rd) && r.uid === want.uid && r.apiVersion === want.apiVersion && r.controller === true && r.blockOwnerDeletion === true,
  );
}

/**
 * The full replacement for an owned copy whose content or hash is stale: the resource's content
 * and metadata, over the copy's own labels, annotations and finalizers (OpenKruise's
 * mergeMetadata), with the copy's resourceVersion as precondition.
 */
export function updatedCopy(existing: DistributedObject, rd: ResourceDistribution, src: SourceResource, hash: string, now: Date): DistributedObject {
  const fresh = desiredCopy(rd, src, existing.metadata.namespace, hash, now);
  const { managedFields: _mf, ...kept } = existing.metadata;
  const finalizers = [...new Set([...(existing.metadata.finalizers ?? []), ...((fresh.metadata.finalizers as string[] | undefined) ?? [])])].sort();
  const metadata: CopyMeta = {
    ...kept,
    ...fresh.metadata,
    uid: existing.metadata.uid,
    resourceVersion: existing.metadata.resourceVersion,
    labels: { ...existing.metadata.labels, ...fresh.metadata.labels },
    annotations: { ...existing.metadata.annotations, ...fresh.metadata.annotations },
    ownerReferences: ownerRefsFor(existing, rd),
    ...(finalizers.length ? { finalizers } : {}),
  };
  if (metadata.uid === undefined) delete metadata.uid;
  if (metadata.resourceVersion === undefined) delete metadata.resourceVersion;
  return { ...fresh, metadata };
}

/** What an owned copy in a target namespace needs. */
export type CopyFix =
  | { kind: 'none' }
  | { kind: 'update'; why: string }
  /** Only our label or ownerReference is missing: a merge patch, content untouched. */
  | { kind: 'relabel'; why: string };

export function fixFor(existing: DistributedObject, rd: ResourceDistribution, src: SourceResource, hash: string): CopyFix {
  const adopting = ownershipOf(existing, rd) === 'adoptable';
  const stale = existing.metadata.annotations?.[ANNOTATION_HASH] !== hash;
  const drifted = contentDiffers(existing, src);
  if (stale || drifted) {
    const what = drifted && !stale ? 'content was changed in place' : 'spec.resource changed';
    return { kind: 'update', why: adopting ? `adopt the copy OpenKruise made; ${what}` : what };
  }
  if (adopting) return { kind: 'relabel', why: 'adopt the copy OpenKruise made: add our label and ownerReference' };
  if (!hasCurrentOwnerRef(existing, rd)) return { kind: 'relabel', why: 'restore the ownerReference to this ResourceDistribution' };
  return { kind: 'none' };
}

/** The merge patch of a relabel: resourceVersion makes it conditional; ownerReferences is replaced whole. */
export function relabelPatch(existing: DistributedObject, rd: ResourceDistribution): Record<string, unknown> {
  return {
    metadata: {
      resourceVersion: existing.metadata.resourceVersion,
      labels: { [COPY_LABEL]: copyLabelValue(rd.metadata.name ?? '') },
      ownerReferences: ownerRefsFor(existing, rd),
    },
  };
}
