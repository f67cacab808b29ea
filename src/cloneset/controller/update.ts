// The CloneSet controller's updates of existing pods to the update revision (cloneset_update.go,
// simplified): how many may be updated now (up to replicas − partition updated, within
// maxUnavailable, nothing while paused), in which order (not-ready first), and how — ReCreate
// deletes a pod (the next run creates its replacement at the new revision), InPlaceIfPossible
// changes its images in place when only images and template metadata differ
// (src/workload/inplace-update*.ts), else recreates it; InPlaceOnly never recreates. Pods in the
// middle of an in-place update are carried on, and new pods get InPlaceUpdateReady set. Pure.
//
// Not yet: maxSurge (extra pods during an update), partition rollback, priority and scatter
// strategies, lifecycle hooks.
import { kruiseScaledValue, partitionReplicas } from '../../kube/intstr.js';
import type { KubeObject } from '../../kube/http.js';
import { isRecord } from '../../kube/validation.js';
import type { Plan } from '../../reconcile/types.js';
import { inPlaceUpdateSpec, type PodTemplate } from '../../workload/inplace-update.js';
import { inPlaceUpdateStep } from '../../workload/inplace-update-step.js';
import { activePodsLess, byLess } from '../../workload/order.js';
import { podAvailability, type Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import type { CloneSet as CloneSetSchema } from '../../api/apps/cloneset.js';
import { cloneSetRevisionData } from '../revisions.js';
import { POD_TEMPLATE_HASH_LABEL, REVISION_HASH_LABEL, cloneSetRef, shortHash, type CloneSet } from '../types.js';
import type { RevisionChoice } from './revision-choice.js';

const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

function templateOfRevision(rev: ControllerRevision | undefined): PodTemplate | undefined {
  const data = isRecord(rev?.data) ? rev.data : undefined;
  const spec = isRecord(data?.spec) ? data.spec : undefined;
  if (!isRecord(spec?.template)) return undefined;
  const { $patch: _p, ...template } = spec.template;
  return template as PodTemplate;
}

/** Plans this run's pod updates into `plan`; returns a wake-up (ms) if one is needed. */
export function planUpdates(cs: CloneSet, pods: readonly Pod[], revision: RevisionChoice, revisions: readonly ControllerRevision[], now: Date, plan: Plan): number | undefined {
  const strategy = cs.spec.updateStrategy ?? {};
  const type = strategy.type ?? 'ReCreate';
  const replicas = cs.spec.replicas ?? 1;
  const minReady = cs.spec.minReadySeconds ?? 0;
  const grace = strategy.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;
  const isAt = (pod: Pod, rev: string) => shortHash(pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '') === shortHash(rev);
  const opts = { isAtRevision: isAt, revisionLabels: (r: string) => ({ [REVISION_HASH_LABEL]: r, [POD_TEMPLATE_HASH_LABEL]: shortHash(r) }) };
  let wake: number | undefined;
  const later = (ms: number) => (wake = Math.min(wake ?? Infinity, Math.max(ms, 0)));
  const apply = (pod: Pod, action: ReturnType<typeof inPlaceUpdateStep>) => {
    switch (action.type) {
      case 'set-not-ready':
      case 'set-ready':
        plan.status.push(action.write);
        break;
      case 'update-pod':
        plan.writes.push({ op: 'update', object: action.pod as unknown as KubeObject, reason: `CloneSet ${cs.metadata.name}: ${action.reason}` });
        if (action.wakeAt) later(action.wakeAt.getTime() - now.getTime());
        break;
      case 'wait-grace':
        later(action.until.getTime() - now.getTime());
        break;
      case 'wait-completion':
      case 'invalid':
      case 'done':
        break;
    }
  };

  // Pods at the update revision: carry on an in-place update, or mark a new pod InPlaceUpdateReady.
  const updated = pods.filter((p) => isAt(p, revision.name));
  for (const pod of updated) apply(pod, inPlaceUpdateStep(pod, undefined, revision.name, now, grace, opts));

  const old = pods.filter((p) => !isAt(p, revision.name));
  if (strategy.paused || old.length === 0) return wake;
  const keepOld = partitionReplicas(strategy.partition, replicas);
  const wanted = Math.max(replicas - keepOld - updated.length, 0);
  const maxSurge = kruiseScaledValue(strategy.maxSurge ?? 0, replicas, true);
  const limit = kruiseScaledValue(strategy.maxUnavailable ?? '20%', replicas, typeof maxSurge === 'number' && maxSurge > 0 ? false : true);
  const unavailable = pods.filter((p) => !podAvailability(p, minReady, now.getTime()).available).length;
  const budget = Math.max((typeof limit === 'number' ? limit : 0) - unavailable, 0);
  // A pod already unavailable costs no further availability: those go first and ignore the budget.
  const order = [...old.keys()].sort(byLess((i, j) => activePodsLess(old[i]!, old[j]!))).map((i) => old[i]!);
  const byName = new Map(revisions.map((r) => [r.metadata.name, r]));
  // Compared as revisions hold templates: Go's typed encoding of the stored template.
  const target = templateOfRevision({ metadata: { name: revision.name }, revision: 0, data: JSON.parse(cloneSetRevisionData(cs as unknown as CloneSetSchema)) as unknown }) ?? {};
  let started = 0;
  let spent = 0;
  for (const pod of order) {
    if (started >= wanted) break;
    const available = podAvailability(pod, minReady, now.getTime()).available;
    if (available && spent >= budget) break;
    const from = templateOfRevision(byName.get(pod.metadata.labels?.[REVISION_HASH_LABEL] ?? ''));
    const inPlace = type !== 'ReCreate' && from ? inPlaceUpdateSpec(from, target) : undefined;
    if (inPlace?.kind === 'in-place') {
      apply(pod, inPlaceUpdateStep(pod, inPlace, revision.name, now, grace, opts));
    } else if (type === 'InPlaceOnly') {
      continue; // the webhook admits image changes only; a pod of an unknown revision waits
    } else {
      plan.writes.push({ op: 'delete', target: podRef(pod), ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}), reason: `CloneSet ${cs.metadata.name}: recreate ${pod.metadata.name} at ${revision.name}` });
      plan.events.push({ regarding: cloneSetRef(cs), type: 'Normal', reason: 'SuccessfulUpdatePodReCreate', message: `successfully delete old pod ${pod.metadata.name} for update, revision ${revision.name}` });
    }
    started++;
    if (available) spent++;
  }
  return wake;
}
