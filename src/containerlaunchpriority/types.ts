// Container launch priority (OpenKruise apis/apps/pub/launch_priority.go): the annotation and env
// names users set, the barrier env the pod webhook injects, and the `<pod>-barrier` ConfigMap whose
// `p_<priority>` keys the controller adds, highest priority first, as containers become ready.
export const PRIORITY_ENV = 'KRUISE_CONTAINER_PRIORITY';
export const BARRIER_ENV = 'KRUISE_CONTAINER_BARRIER';
export const PRIORITY_ANNOTATION = 'apps.kruise.io/container-launch-priority';
export const ORDERED = 'Ordered';
export const COMPLETED_ANNOTATION = 'apps.kruise.io/container-launch-priority-completed';

export const barrierName = (podName: string): string => `${podName}-barrier`;
/** GetKey: `p_<priority>`. */
export const barrierKey = (priority: bigint): string => `p_${priority}`;
