// A CloneSet's ControllerRevision: the shared template revision (../workload/template-revision.ts,
// as pkg/controller/cloneset/revision writes it), whose annotations add
// `kruise.io/cloneset-volumeclaimtemplate-hash` ("" without volumeClaimTemplates). Pure.
import type { CloneSet } from '../api/apps/cloneset.js';
import { CLONESET_API_VERSION, CLONESET_KIND } from './types.js';
import { controllerRevisionName, hashControllerRevision, type ControllerRevision } from '../workload/revisions.js';
import { newTemplateRevision, templateRevisionData } from '../workload/template-revision.js';

export const VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION = 'kruise.io/cloneset-volumeclaimtemplate-hash';

/** The exact `data` bytes of the CloneSet's revision (what is hashed and compared). */
export function cloneSetRevisionData(cs: CloneSet): string {
  return templateRevisionData(cs.spec?.template);
}

/** The name and hash the CloneSet's current template gets with this collision count. */
export function cloneSetRevisionName(cs: CloneSet, collisionCount: number, dataJson = cloneSetRevisionData(cs)): { name: string; hash: string } {
  const hash = hashControllerRevision(dataJson, collisionCount);
  return { name: controllerRevisionName(cs.metadata?.name ?? '', hash), hash };
}

/**
 * NewRevision: the ControllerRevision for the CloneSet's current template, numbered `revision`.
 * `data` is the parsed form of cloneSetRevisionData (its keys in Go's order, so that a client
 * serialising it writes the same bytes — see the README for the one exception).
 */
export function newCloneSetRevision(cs: CloneSet, collisionCount: number, revision: number): ControllerRevision {
  // OpenKruise hashes non-empty templates with Go's spew printer, not reproduced here: left unset,
  // which OpenKruise reads as "unknown" (no PVC-driven recreation decided on it).
  const vct: Record<string, string> = cs.spec?.volumeClaimTemplates?.length ? {} : { [VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION]: '' };
  return newTemplateRevision(
    {
      apiVersion: cs.apiVersion ?? CLONESET_API_VERSION,
      kind: CLONESET_KIND,
      metadata: { name: cs.metadata?.name ?? '', ...(cs.metadata?.namespace ? { namespace: cs.metadata.namespace } : {}), uid: cs.metadata?.uid ?? '', ...(cs.metadata?.annotations ? { annotations: cs.metadata.annotations } : {}) },
      template: cs.spec?.template as never,
    },
    collisionCount,
    revision,
    vct,
  );
}
