// Where a node's pull stands, read from its pull pods (one per attempt, labelled with the
// attempt's number). An attempt succeeded once the kubelet reports the pull container's imageID
// (whether the container then ran or not); it failed when a container waits on a pull error
// (ErrImagePull, ImagePullBackOff, …), when the pod ended without that imageID (its
// activeDeadlineSeconds, the pull timeout, ran out), or when it is older than the timeout without
// an answer (a kubelet that is gone never fails it). Pure.
import { containerStatus, timeOf, type Pod } from '../../workload/pods.js';
import { ATTEMPT_LABEL } from '../types.js';
import { PULL_CONTAINER } from './pull-pod.js';

/** The kubelet's waiting reasons of a pull that did not work (kubelet images and kuberuntime). */
const PULL_ERRORS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable', 'SignatureValidationFailed', 'ErrImageInspect']);

export type AttemptState = { state: 'succeeded' } | { state: 'failed'; why: string } | { state: 'pulling'; timeoutAt: number };

export const attemptOf = (pod: Pod): number => {
  const n = Number(pod.metadata.labels?.[ATTEMPT_LABEL] ?? '0');
  return Number.isInteger(n) && n >= 0 ? n : 0;
};

const isTerminal = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
export { isTerminal as isTerminalPod };

type Waiting = { name: string; state?: { waiting?: { reason?: string; message?: string } } };

function pullError(pod: Pod): string | undefined {
  const statuses = [...((pod.status?.['initContainerStatuses'] as Waiting[] | undefined) ?? []), ...((pod.status?.containerStatuses as Waiting[] | undefined) ?? [])];
  for (const s of statuses) {
    const w = s.state?.waiting;
    if (w?.reason && PULL_ERRORS.has(w.reason)) return `${s.name}: ${w.reason}${w.message ? `: ${w.message}` : ''}`;
  }
  return undefined;
}

export function attemptState(pod: Pod, timeoutSeconds: number, now: number): AttemptState {
  if (containerStatus(pod, PULL_CONTAINER)?.imageID) return { state: 'succeeded' };
  const error = pullError(pod);
  if (error) return { state: 'failed', why: error };
  if (isTerminal(pod)) return { state: 'failed', why: `pod ${pod.status?.phase}${pod.status?.['reason'] ? ` (${String(pod.status['reason'])})` : ''} without pulling` };
  const timeoutAt = timeOf(pod.metadata.creationTimestamp) + timeoutSeconds * 1000;
  if (now >= timeoutAt) return { state: 'failed', why: `no pull within ${timeoutSeconds}s` };
  return { state: 'pulling', timeoutAt };
}
