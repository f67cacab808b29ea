// The launch priority controller's plan: per pod, its barrier step (./barrier.ts) as writes: the
// `<pod>-barrier` ConfigMap created (owned by the pod, so it goes with it), a `p_<priority>` key
// added, the pod annotated `container-launch-priority-completed: "true"`. OpenKruise creates the
// ConfigMap empty and adds the key on its next pass; here both go in the create. Pure.
import type { KubeObject } from '../../kube/http.js';
import { emptyPlan, type Plan } from '../../reconcile/types.js';
import { COMPLETED_ANNOTATION, barrierName } from '../types.js';
import { barrierStep } from './barrier.js';
import type { LaunchPriorityObserved } from './observe.js';

export function decideLaunchPriority(o: LaunchPriorityObserved): Plan {
  const plan = emptyPlan();
  for (const { pod, barrier } of o.pods) {
    const step = barrierStep(pod, barrier);
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
