// The ImagePullJob reconciler: observe → decide (pure) → the runtime applies the plan. Triggers:
// a change to one of its pull pods runs just its job (the kubelet reporting an imageID or a pull
// error); a Node added, relabelled or removed runs every job. Wake-ups carry pull timeouts, the
// active deadline and the TTL. The helper image is configurable (KS_IMAGE_PULL_HELPER=image[,binary]).
import type { Reconciler } from '../../reconcile/types.js';
import { ownedPods } from '../../reconcile/owned-pods.js';
import { IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND } from '../types.js';
import { decideImagePullJobs, type ImagePullJobDecideOptions } from './decide.js';
import { observeImagePullJobs, type ImagePullJobObserved } from './observe.js';
import { DEFAULT_HELPER, type PullHelper } from './pull-pod.js';

/** `image[,binary]`, e.g. `registry.local/busybox:1.36.1-musl,/bin/true`; unset: DEFAULT_HELPER. */
export function parsePullHelper(text: string | undefined): PullHelper {
  const [image, binary] = (text ?? '').split(',').map((s) => s.trim());
  return image ? { image, binary: binary || DEFAULT_HELPER.binary } : { ...DEFAULT_HELPER };
}

export function imagePullJobReconcilerFor(opts: ImagePullJobDecideOptions = {}): Reconciler<ImagePullJobObserved> {
  return {
    kind: IMAGEPULLJOB_KIND,
    apiVersion: IMAGEPULLJOB_API_VERSION,
    observe: (kube, scope) => observeImagePullJobs(kube, scope),
    decide: (observed, now) => decideImagePullJobs(observed, now, opts),
    triggers: [ownedPods(IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND), { apiVersion: 'v1', kind: 'Node' }],
  };
}

export const imagePullJobReconciler: Reconciler<ImagePullJobObserved> = imagePullJobReconcilerFor();
