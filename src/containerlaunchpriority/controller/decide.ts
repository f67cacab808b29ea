// The launch priority controller's plan: per pod, its barrier step (./barrier.ts) as writes: the
// `<pod>-barrier` ConfigMap created (owned by the pod, so it goes with it), a `p_<priority>` key
// added, the pod annotated `container-launch-priority-completed: "true"`. OpenKruise creates the
// ConfigMap empty and adds the key on its next pass; here both go in the create. Pure.
//
// While a pod created less than LAUNCH_WAKE_WINDOW_MS ago still has priorities to release, the run
// asks to come back in LAUNCH_WAKE_MS: the next step waits on its containers' readiness, which the
// Node loop's pod watch sees but nothing sends to Lambda (the pod-status observer selects pods by a
// workload label, and a barrier pod may have none). Older pods are left to the scheduled full run,
// so a pod whose containers never get ready does not keep the wake-ups going.
import type { KubeObject } from '../../kube/http.js';
import { emptyPlan, type Plan } from '../../reconcile/types.js';
import { COMPLETED_ANNOTATION, barrierName } from '../types.js';
import { barrierStep } from './barrier.js';
import type { LaunchPriorityObserved } from './observe.js';

export const LAUNCH_WAKE_MS = 1_000;
export const LAUNCH_WAKE_WINDOW_MS = 60_000;

const young = (created: string | null | undefined, now: Date) => {
  const at = created ? Date.parse(created) : NaN;
  return Number.isFinite(at) && now.getTime() - at < LAUNCH_WAKE_WINDOW_MS;
};

export function decideLaunchPriority(o: LaunchPriorityObserved, now: Date): Plan {
  const plan = emptyPlan();
  for (const { pod, barrier } of o.pods) {
    const step = barrierStep(pod, barrier);
    if (step && !step.complete && young(pod.metadata.creationTimestamp, now)) plan.requeueAfterMs = LAUNCH_WAKE_MS;
    if (!step) continue;
    const { name, namespace } = pod.metadata;
    const cm = barrierName(name);
    if (step.createBarrier) {
      const object = {
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name: cm, namespace, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name, uid: pod.metadata.uid ?? '' }] },
        ...(step.release ? { data: { [step.release]: 'true' } } : {}),
      } as KubeObject;
      plan.writes.push({ op: 'create', object, reason: `pod ${name}: launch barrier${step.release ? `, release ${step.release}` : ''}` });
    } else if (step.release) {
      plan.writes.push({ op: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: cm, namespace }, patchType: 'merge', patch: { data: { [step.release]: 'true' } }, reason: `pod ${name}: release ${step.release}` });
    }
    if (step.complete) {
      plan.writes.push({
        op: 'patch', target: { apiVersion: 'v1', kind: 'Pod', name, namespace }, patchType: 'merge',
        patch: { metadata: { annotations: { [COMPLETED_ANNOTATION]: 'true' } } }, reason: `pod ${name}: every launch priority released`,
      });
    }
  }
  return plan;
}
