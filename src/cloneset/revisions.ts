// A CloneSet's ControllerRevision: the shared template revision (../workload/template-revision.ts,
// as pkg/controller/cloneset/revision writes it), whose annotations add
// `kruise.io/cloneset-volumeclaimtemplate-hash` (vct-hash.ts; "" without volumeClaimTemplates). Pure.
import type { CloneSet } from '../api/apps/cloneset.js';
import { CLONESET_API_VERSION, CLONESET_KIND } from './types.js';
import { controllerRevisionName, hashControllerRevision, type ControllerRevision } from '../workload/revisions.js';
import { newTemplateRevision, templateRevisionData } from '../workload/template-revision.js';
import { VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION, volumeClaimTemplatesAnnotation, type ClaimTemplate } from './vct-hash.js';

export { VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION };

/** The annotation a revision of the CloneSet's current volumeClaimTemplates carries. */
export function cloneSetVCTHash(cs: CloneSet): string {
  return volumeClaimTemplatesAnnotation(cs.spec?.volumeClaimTemplates as ClaimTemplate[] | undefined);
}

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
  const vct = { [VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION]: cloneSetVCTHash(cs) };
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
