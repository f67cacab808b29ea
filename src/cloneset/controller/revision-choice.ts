// Which ControllerRevision a CloneSet's template is (history.go in OpenKruise's CloneSet
// controller): the revision `data` is `{"spec":{"template":{…,"$patch":"replace"}}}` spelled as
// Go's json.Marshal of a map (keys sorted), its name `<cs>-<hash>` with the hash over those bytes
// and the collision count. An existing revision with the same bytes is reused (a rollback to an
// old template reuses its revision); a different revision holding the name means a collision,
// and the count goes up. Pure.
import { compareRevisions, controllerRevisionName, hashControllerRevision, revisionDataJson, type ControllerRevision } from '../../workload/revisions.js';
import { defaultedTemplateSpec } from '../../workload/template-defaults.js';
import { isRecord } from '../../kube/validation.js';
import { CLONESET_API_VERSION, CLONESET_KIND, REVISION_HASH_LABEL, type CloneSet } from '../types.js';

export type RevisionChoice = {
  /** The revision name pods get in controller-revision-hash, e.g. `web-7b5c4d9f8`. */
  name: string;
  hash: string;
  collisionCount: number;
  /** The revision to create, when none with these bytes exists yet. */
  create?: ControllerRevision;
};

/** The bytes OpenKruise stores for the CloneSet's current template. */
export function cloneSetRevisionJson(cs: CloneSet): string {
  const template = isRecord(cs.spec.template) ? cs.spec.template : {};
  return revisionDataJson({ spec: { template: { ...template, spec: defaultedTemplateSpec(template.spec), $patch: 'replace' } } });
}

const dataJson = (rev: ControllerRevision): string => (rev.data === undefined ? '' : revisionDataJson(rev.data));

/** The revisions this CloneSet controls, oldest first. */
export function ownedRevisions(cs: CloneSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return revisions.filter((r) => r.metadata.ownerReferences?.some((o) => o.controller && o.uid === cs.metadata.uid)).sort(compareRevisions);
}

export function chooseUpdateRevision(cs: CloneSet, revisions: readonly ControllerRevision[]): RevisionChoice {
  const json = cloneSetRevisionJson(cs);
  const owned = ownedRevisions(cs, revisions);
  const equal = owned.filter((r) => dataJson(r) === json).at(-1);
  let collisionCount = Number(cs.status?.collisionCount ?? 0);
  if (equal) return { name: equal.metadata.name, hash: equal.metadata.labels?.[REVISION_HASH_LABEL] ?? equal.metadata.name.slice(cs.metadata.name.length + 1), collisionCount };
  const byName = new Map(revisions.map((r) => [r.metadata.name, r]));
  for (;;) {
    const hash = hashControllerRevision(json, collisionCount);
    const name = controllerRevisionName(cs.metadata.name, hash);
    if (!byName.has(name)) {
      const selector = isRecord(cs.spec.selector) && isRecord(cs.spec.selector.matchLabels) ? (cs.spec.selector.matchLabels as Record<string, string>) : {};
      const create: ControllerRevision = {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name,
          namespace: cs.metadata.namespace,
          labels: { ...selector, [REVISION_HASH_LABEL]: hash },
          ownerReferences: [{ apiVersion: CLONESET_API_VERSION, kind: CLONESET_KIND, name: cs.metadata.name, uid: cs.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
        },
        data: JSON.parse(json) as unknown,
        revision: (owned.at(-1)?.revision ?? 0) + 1,
      };
      return { name, hash, collisionCount, create };
    }
    collisionCount++;
  }
}
