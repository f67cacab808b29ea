// The ImageListPullJob that controls an ImagePullJob, from its controller owner reference. Pure.
import { isRecord } from '../kube/validation.js';
import { IMAGELISTPULLJOB_GROUP, IMAGELISTPULLJOB_KIND } from './types.js';

type OwnerReference = { apiVersion?: string; kind?: string; name?: string; controller?: boolean };

export function owningListJob(metadata: unknown): string[] {
  const owners = isRecord(metadata) && Array.isArray(metadata.ownerReferences) ? (metadata.ownerReferences as OwnerReference[]) : [];
  const owner = owners.find((o) => isRecord(o) && o.controller === true);
  if (!owner?.name || owner.kind !== IMAGELISTPULLJOB_KIND || owner.apiVersion?.split('/')[0] !== IMAGELISTPULLJOB_GROUP) return [];
  return [owner.name];
}
