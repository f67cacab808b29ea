// The pod that pulls the job's image on one node, through that node's kubelet (no node daemon).
// An init container from a small helper image copies a static `true` into an emptyDir; the main
// container runs it from the target image, so it exits at once whatever the image holds (a
// distroless image without a shell too), once the kubelet has pulled it (prior art: kube-fledged).
// Pinned by spec.nodeName (no scheduler, no binding write), tolerating every taint, Never
// restarted, its activeDeadlineSeconds the pull timeout, the job's pull policy and secrets, and
// the smallest requests. Pure.
import { derivedPodName } from '../../workload/node-pinning.js';
import type { Pod } from '../../workload/pods.js';
import { ATTEMPT_LABEL, DEFAULT_TIMEOUT_SECONDS, IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND, JOB_NAME_LABEL, JOB_UID_LABEL, type StoredImagePullJob } from '../types.js';
import { controllerReference } from '../../kube/owner-reference.js';

/**
 * busybox's musl build is static: its `true` (one hardlink of the busybox binary) runs in any
 * image of the node's architecture. Any image with a static binary at `binary` will do.
 */
export const DEFAULT_HELPER = { image: 'busybox:1.36.1-musl', binary: '/bin/true' } as const;
export type PullHelper = { image: string; binary: string };

export const PULL_CONTAINER = 'pull';
export const HELPER_CONTAINER = 'helper';
const VOLUME = 'ks-pull';
const MOUNT = '/ks-pull';

const RESOURCES = { requests: { cpu: '1m', memory: '8Mi' }, limits: { cpu: '100m', memory: '32Mi' } };

export const pullTimeoutSeconds = (job: StoredImagePullJob): number => job.spec.pullPolicy?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;

export function pullPodName(job: StoredImagePullJob, node: string, attempt: number, taken: ReadonlySet<string>): string {
  return derivedPodName(job.metadata.name, `${job.metadata.uid ?? job.metadata.name}/${node}/${attempt}`, taken);
}

/**
 * A workload's image pre-download job (controlled by a CloneSet or an Advanced StatefulSet) carries
 * the workload's template labels as sandbox labels; on a pod they would make the pull pods look
 * like the workload's pods to its Services, PUBs, SidecarSets and WorkloadSpreads.
 */
function isPreDownloadJob(job: StoredImagePullJob): boolean {
  const owners = (job.metadata as { ownerReferences?: { apiVersion?: string; kind?: string; controller?: boolean }[] }).ownerReferences ?? [];
  return owners.some((o) => o.controller && (o.apiVersion ?? '').startsWith('apps.kruise.io/') && (o.kind === 'CloneSet' || o.kind === 'StatefulSet'));
}

/**
 * The sandbox config's labels and annotations go on the pod (OpenKruise puts them on the pull's
 * sandbox); the job's own labels win over sandbox labels of the same key. A pre-download job's
 * sandbox labels stay off its pods (isPreDownloadJob).
 */
export function newPullPod(job: StoredImagePullJob, node: string, attempt: number, name: string, helper: PullHelper): Pod {
  const annotations = job.spec.sandboxConfig?.annotations ?? undefined;
  const mount = [{ name: VOLUME, mountPath: MOUNT }];
  const pullPolicy = job.spec.imagePullPolicy === 'Always' ? 'Always' : 'IfNotPresent';
  const binary = `${MOUNT}/true`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: job.metadata.namespace,
      labels: { ...(isPreDownloadJob(job) ? {} : (job.spec.sandboxConfig?.labels ?? {})), [JOB_NAME_LABEL]: job.metadata.name, [JOB_UID_LABEL]: job.metadata.uid ?? '', [ATTEMPT_LABEL]: String(attempt) },
      ...(annotations && Object.keys(annotations).length ? { annotations: { ...annotations } } : {}),
      ownerReferences: [controllerReference(IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND, job.metadata)],
    },
    spec: {
      nodeName: node,
      restartPolicy: 'Never',
      activeDeadlineSeconds: pullTimeoutSeconds(job),
      terminationGracePeriodSeconds: 0,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      tolerations: [{ operator: 'Exists' }],
      ...(job.spec.pullSecrets?.length ? { imagePullSecrets: job.spec.pullSecrets.map((s) => ({ name: s })) } : {}),
      volumes: [{ name: VOLUME, emptyDir: { sizeLimit: '16Mi' } }],
      initContainers: [{ name: HELPER_CONTAINER, image: helper.image, imagePullPolicy: 'IfNotPresent', command: ['cp', helper.binary, binary], volumeMounts: mount, resources: RESOURCES }],
      containers: [{ name: PULL_CONTAINER, image: job.spec.image ?? '', imagePullPolicy: pullPolicy, command: [binary], volumeMounts: mount, resources: RESOURCES }],
    },
  };
}
