// A CloneSet's ControllerRevision, byte for byte as OpenKruise's revision control writes it
// (pkg/controller/cloneset/revision, with k8s.io/kubernetes/pkg/controller/history):
// - data: the CloneSet's pod template as Go's typed encoding writes it, decoded into a generic
//   map, marked `"$patch":"replace"`, under `spec.template`, and written again with sorted keys:
//   {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,…},"spec":{…}}}}
// - name `<cloneset>-<hash>`, the hash FNV-1 (32 bit) over those bytes then the collision count
//   in decimal, safe-encoded; the same hash as label `controller.kubernetes.io/hash`;
// - labels: the template's labels plus that hash label; annotations: the CloneSet's, plus
//   `kruise.io/cloneset-volumeclaimtemplate-hash` ("" without volumeClaimTemplates);
// - one owner reference, to the CloneSet, controller and blockOwnerDeletion.
// Pure, Web APIs only.
import { goJSON } from '../kube/go-json.js';
import { podTemplateAsGoMap } from '../kube/go-pod-template.js';
import type { CloneSet } from '../api/apps/cloneset.js';
import { CLONESET_API_VERSION, CLONESET_KIND } from './types.js';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  controllerRevisionName,
  hashControllerRevision,
  type ControllerRevision,
} from '../workload/revisions.js';

export const VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION = 'kruise.io/cloneset-volumeclaimtemplate-hash';

/** The exact `data` bytes of the CloneSet's revision (what is hashed and compared). */
export function cloneSetRevisionData(cs: CloneSet): string {
  const template = podTemplateAsGoMap(cs.spec?.template);
  template.$patch = 'replace';
  return goJSON({ spec: { template } });
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
  const dataJson = cloneSetRevisionData(cs);
  const { name, hash } = cloneSetRevisionName(cs, collisionCount, dataJson);
  const annotations: Record<string, string> = { ...(cs.metadata?.annotations ?? {}) };
  // OpenKruise hashes non-empty templates with Go's spew printer, not reproduced here: left unset,
  // which OpenKruise reads as "unknown" (no PVC-driven recreation decided on it).
  if (!cs.spec?.volumeClaimTemplates?.length) annotations[VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION] = '';
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      ...(cs.metadata?.namespace ? { namespace: cs.metadata.namespace } : {}),
      labels: { ...(cs.spec?.template?.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
      annotations,
      ownerReferences: [
        {
          apiVersion: cs.apiVersion ?? CLONESET_API_VERSION,
          kind: CLONESET_KIND,
          name: cs.metadata?.name ?? '',
          uid: cs.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: JSON.parse(dataJson) as unknown,
    revision,
  };
}
