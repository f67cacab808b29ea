// The ControllerRevision of a workload that stores its pod template (CloneSet, Advanced
// StatefulSet), byte for byte as OpenKruise's controllers write it (getPatch + newRevision, with
// k8s.io/kubernetes/pkg/controller/history):
// - data: the pod template as Go's typed encoding writes it, decoded into a generic map, marked
//   `"$patch":"replace"`, under `spec.template`, and written again with sorted keys:
//   {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,…},"spec":{…}}}}
// - name `<owner>-<hash>`, the hash FNV-1 (32 bit) over those bytes then the collision count in
//   decimal, safe-encoded; the same hash as label `controller.kubernetes.io/hash`;
// - labels: the template's labels plus that hash label; annotations: the owner's;
// - one owner reference, to the workload, controller and blockOwnerDeletion.
// Pure, Web APIs only.
import { goJSON } from '../kube/go-json.js';
import { isRecord } from '../kube/validation.js';
import { podTemplateAsGoMap } from '../kube/go-pod-template.js';
import { CONTROLLER_REVISION_HASH_LABEL, controllerRevisionName, hashControllerRevision, type ControllerRevision } from './revisions.js';
import { controllerReference } from '../kube/owner-reference.js';

type Template = Parameters<typeof podTemplateAsGoMap>[0];

/** The exact `data` bytes of the revision of a pod template (what is hashed and compared). */
export function templateRevisionData(template: Template): string {
  const map = podTemplateAsGoMap(template);
  map.$patch = 'replace';
  return goJSON({ spec: { template: map } });
}

export type TemplateOwner = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; uid?: string; annotations?: Record<string, string> };
  template: Template & { metadata?: { labels?: Record<string, string> } };
};

/**
 * NewRevision: the ControllerRevision for the owner's template, numbered `revision`. `data` is
 * the parsed form of templateRevisionData, its keys in Go's order.
 */
export function newTemplateRevision(owner: TemplateOwner, collisionCount: number, revision: number, annotations: Record<string, string> = {}): ControllerRevision {
  const dataJson = templateRevisionData(owner.template);
  const hash = hashControllerRevision(dataJson, collisionCount);
  const { name, namespace, uid } = owner.metadata;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(name, hash),
      ...(namespace ? { namespace } : {}),
      labels: { ...(owner.template?.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
      annotations: { ...(owner.metadata.annotations ?? {}), ...annotations },
      ownerReferences: [controllerReference(owner.apiVersion, owner.kind, { name, uid })],
    },
    data: JSON.parse(dataJson) as unknown,
    revision,
  };
}

/** A pod template as a revision holds it (labels, annotations and finalizers are what workloads copy to pods). */
export type RevisionTemplate = { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: unknown };

/** The pod template a revision holds (its data is `{"spec":{"template":{…,"$patch":"replace"}}}`). */
export function templateOfRevision(rev: ControllerRevision | undefined): RevisionTemplate | undefined {
  const data = isRecord(rev?.data) ? rev.data : undefined;
  const spec = isRecord(data?.spec) ? data.spec : undefined;
  if (!isRecord(spec?.template)) return undefined;
  const { $patch: _p, ...template } = spec.template;
  return template as RevisionTemplate;
}
