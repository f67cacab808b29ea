// An ImageListPullJob's ImagePullJob template: its spec less `images`, the hash that tells whether
// an ImagePullJob was made from the current template (OpenKruise: refreshJobTemplateHash and
// isConsistentVersion, on the controller-revision-hash label), and the ImagePullJob for one image.
// The hash is FNV-1 of the template's JSON with sorted keys (OpenKruise hashes Go's printed struct:
// the values differ, the use is the same). Names are deterministic, not generateName: a doubled
// run finds its own creation. Pure.
import type { KubeObject } from '../../kube/http.js';
import { fnv1_32, revisionDataJson, safeEncodeString } from '../../workload/revisions.js';
import { CHILD_API_VERSION, CHILD_KIND, IMAGELISTPULLJOB_API_VERSION, IMAGELISTPULLJOB_KIND, TEMPLATE_HASH_LABEL, type ChildImagePullJob, type StoredImageListPullJob } from '../types.js';

/** The name is also the pull pods' label value: at most 63 characters. */
const MAX_NAME = 63;

const hashOf = (text: string) => safeEncodeString(String(fnv1_32(new TextEncoder().encode(text))));

export function templateOf(job: StoredImageListPullJob): Record<string, unknown> {
  const { images: _images, ...template } = job.spec;
  return template;
}

export function templateHash(job: StoredImageListPullJob): string {
  return hashOf(revisionDataJson(templateOf(job)));
}

/** `<list job>-<hash of image and template>`, the list job's name cut to fit. */
export function childName(job: StoredImageListPullJob, image: string, hash: string): string {
  const suffix = hashOf(`${image}\n${hash}`);
  const prefix = job.metadata.name.slice(0, MAX_NAME - suffix.length - 1).replace(/[-.]+$/, '');
  return `${prefix}-${suffix}`;
}

/** An ImagePullJob made from the template `hash` (by label), or, unlabelled, with the same template. */
export function isConsistent(child: ChildImagePullJob, job: StoredImageListPullJob, hash: string): boolean {
  const label = child.metadata.labels?.[TEMPLATE_HASH_LABEL];
  if (label === hash) return true;
  if (label !== undefined) return false;
  const { image: _image, ...template } = child.spec;
  return revisionDataJson(template) === revisionDataJson(templateOf(job));
}

export function newChild(job: StoredImageListPullJob, image: string, hash: string): KubeObject {
  return {
    apiVersion: CHILD_API_VERSION,
    kind: CHILD_KIND,
    metadata: {
      name: childName(job, image, hash),
      namespace: job.metadata.namespace,
      labels: { [TEMPLATE_HASH_LABEL]: hash },
      ownerReferences: [{ apiVersion: IMAGELISTPULLJOB_API_VERSION, kind: IMAGELISTPULLJOB_KIND, name: job.metadata.name, uid: job.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: { image, ...structuredClone(templateOf(job)) },
  } as KubeObject;
}
