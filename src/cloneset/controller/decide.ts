// The CloneSet controller's decisions, so far scaling and status (updates of existing pods come
// next): the update revision (created when new), new pods up to `replicas` named
// `<cs>-<instance id>`, surplus pods deleted (`podsToDelete` and the specified-delete label first,
// then the scale-down order), and the status OpenKruise reports. Pure.
import { kruiseScaledValue, partitionReplicas } from '../../kube/intstr.js';
import type { KubeObject } from '../../kube/http.js';
import { formatLabelSelector, type LabelSelector } from '../../kube/selectors.js';
import { isRecord } from '../../kube/validation.js';
import type { EventNote, Plan, Write } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import { activePodsLess, byLess } from '../../workload/order.js';
import { isActivePod, isPodReadyCondition, podAvailability, type Pod } from '../../workload/pods.js';
import { defaultedTemplateSpec } from '../../workload/template-defaults.js';
import { defaultedCloneSet } from '../defaults.js';
import {
  CLONESET_API_VERSION,
  CLONESET_KIND,
  INSTANCE_ID_LABEL,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_HASH_LABEL,
  SPECIFIED_DELETE_LABEL,
  cloneSetRef,
  shortHash,
  type CloneSet,
} from '../types.js';
import { newInstanceIds } from './instance-id.js';
import type { CloneSetObserved } from './observe.js';
import { chooseUpdateRevision, type RevisionChoice } from './revision-choice.js';
import { planUpdates } from './update.js';
import { withInPlaceUpdateReadinessGate } from '../../workload/inplace-update-condition.js';

/** While pods are still to become available, come back this soon (no watch tells a Lambda). */
export const WAITING_REQUEUE_MS = 3_000;

const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

function newPod(cs: CloneSet, id: string, revision: RevisionChoice): KubeObject {
  const template = isRecord(cs.spec.template) ? cs.spec.template : {};
  const meta = isRecord(template.metadata) ? template.metadata : {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${cs.metadata.name}-${id}`,
      namespace: cs.metadata.namespace,
      labels: { ...(meta.labels as Record<string, string> | undefined), [INSTANCE_ID_LABEL]: id, [REVISION_HASH_LABEL]: revision.name, [POD_TEMPLATE_HASH_LABEL]: revision.hash },
      ...(isRecord(meta.annotations) ? { annotations: meta.annotations } : {}),
      ownerReferences: [{ apiVersion: CLONESET_API_VERSION, kind: CLONESET_KIND, name: cs.metadata.name, uid: cs.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    // InPlaceUpdateReady gates readiness during an in-place update; the controller sets it True.
    spec: withInPlaceUpdateReadinessGate(defaultedTemplateSpec(template.spec)),
  };
}

/** Which surplus pods go: those asked for by name or label first, then the scale-down order. */
function podsToDelete(cs: CloneSet, pods: readonly Pod[], surplus: number): Pod[] {
  const named = new Set(cs.spec.scaleStrategy?.podsToDelete ?? []);
  const asked = (p: Pod) => named.has(p.metadata.name) || p.metadata.labels?.[SPECIFIED_DELETE_LABEL] === 'true';
  const order = [...pods.keys()].sort(byLess((i, j) => {
    const a = pods[i]!;
    const b = pods[j]!;
    if (asked(a) !== asked(b)) return asked(a);
    return activePodsLess(a, b);
  }));
  return order.slice(0, surplus).map((i) => pods[i]!);
}

/** Pods asked for by name or label are deleted even without surplus (the CloneSet replaces them). */
function specifiedDeletes(cs: CloneSet, pods: readonly Pod[]): Pod[] {
  const named = new Set(cs.spec.scaleStrategy?.podsToDelete ?? []);
  return pods.filter((p) => named.has(p.metadata.name) || p.metadata.labels?.[SPECIFIED_DELETE_LABEL] === 'true');
}

function statusOf(cs: CloneSet, pods: readonly Pod[], revision: RevisionChoice, now: number): { status: Record<string, unknown>; wakeAt?: number } {
  const minReady = cs.spec.minReadySeconds ?? 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  let updatedReady = 0;
  let updatedAvailable = 0;
  let wakeAt: number | undefined;
  for (const pod of pods) {
    const isUpdated = shortHash(pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '') === revision.hash;
    const isReady = isPodReadyCondition(pod);
    const avail = podAvailability(pod, minReady, now);
    if (avail.at !== undefined) wakeAt = Math.min(wakeAt ?? Infinity, avail.at);
    ready += isReady ? 1 : 0;
    available += avail.available ? 1 : 0;
    updated += isUpdated ? 1 : 0;
    updatedReady += isUpdated && isReady ? 1 : 0;
    updatedAvailable += isUpdated && avail.available ? 1 : 0;
  }
  const replicas = cs.spec.replicas ?? 1;
  const current = revision.currentRevision;
  const status = {
    observedGeneration: cs.metadata.generation ?? 0,
    replicas: pods.length,
    readyReplicas: ready,
    availableReplicas: available,
    updatedReplicas: updated,
    updatedReadyReplicas: updatedReady,
    updatedAvailableReplicas: updatedAvailable,
    expectedUpdatedReplicas: Math.max(replicas - partitionReplicas(cs.spec.updateStrategy?.partition, replicas), 0),
    updateRevision: revision.name,
    // The current revision moves to the update revision once every pod runs it.
    currentRevision: !current || (updated === pods.length && pods.length === replicas) ? revision.name : current,
    collisionCount: revision.collisionCount,
    labelSelector: formatLabelSelector(cs.spec.selector as LabelSelector | undefined),
  };
  return { status, ...(wakeAt !== undefined ? { wakeAt } : {}) };
}

const STATUS_FIELDS = ['observedGeneration', 'replicas', 'readyReplicas', 'availableReplicas', 'updatedReplicas', 'updatedReadyReplicas', 'updatedAvailableReplicas', 'expectedUpdatedReplicas', 'updateRevision', 'currentRevision', 'collisionCount', 'labelSelector'];

function decideOne(input: CloneSet, owned: readonly Pod[], o: CloneSetObserved, now: number, plan: Plan): number | undefined {
  const cs = defaultedCloneSet(input) as CloneSet;
  const revision = chooseUpdateRevision(cs, o.revisions, owned);
  const writes: Write[] = [...revision.writes];
  const events: EventNote[] = [];

  const active = owned.filter((p) => isActivePod(p));
  const replicas = cs.spec.replicas ?? 1;
  const specified = specifiedDeletes(cs, active);
  const keep = active.filter((p) => !specified.includes(p));
  const surplus = keep.length - replicas;
  const deletes = [...specified, ...(surplus > 0 ? podsToDelete(cs, keep, surplus) : [])];
  for (const pod of deletes) {
    writes.push({ op: 'delete', target: podRef(pod), ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}), reason: `CloneSet ${cs.metadata.name}: ${specified.includes(pod) ? 'asked to delete' : 'scale in'} ${pod.metadata.name}` });
    events.push({ regarding: { ...cloneSetRef(cs), ...(cs.metadata.uid ? { uid: cs.metadata.uid } : {}) }, type: 'Normal', reason: 'SuccessfulDelete', message: `succeed to delete pod ${pod.metadata.name}` });
  }

  // Scale-up, throttled by scaleStrategy.maxUnavailable: no more new pods while that many are unavailable.
  const missing = replicas - keep.length;
  let creating = Math.max(missing, 0);
  const throttle = cs.spec.scaleStrategy?.maxUnavailable;
  if (creating > 0 && throttle !== undefined) {
    const limit = kruiseScaledValue(throttle, replicas, true);
    const unavailable = keep.filter((p) => !podAvailability(p, cs.spec.minReadySeconds ?? 0, now).available).length;
    if (typeof limit === 'number') creating = Math.min(creating, Math.max(limit - unavailable, 0));
  }
  const used = new Set(owned.map((p) => p.metadata.labels?.[INSTANCE_ID_LABEL] ?? ''));
  for (const id of newInstanceIds(cs.metadata.uid ?? cs.metadata.name, used, creating)) {
    const pod = newPod(cs, id, revision);
    writes.push({ op: 'create', object: pod, reason: `CloneSet ${cs.metadata.name}: scale out to ${replicas} (revision ${revision.name})` });
    events.push({ regarding: { ...cloneSetRef(cs), ...(cs.metadata.uid ? { uid: cs.metadata.uid } : {}) }, type: 'Normal', reason: 'SuccessfulCreate', message: `succeed to create pod ${pod.metadata?.name}` });
  }

  // Never scale and update in one pass (OpenKruise neither): updates wait for the scale to settle.
  const remaining = active.filter((p) => !deletes.includes(p));
  const updateWake = deletes.length === 0 && creating === 0 && missing <= 0 ? planUpdates(cs, remaining, revision, o.revisions, new Date(now), plan) : undefined;
  const { status, wakeAt } = statusOf(cs, remaining, revision, now);
  const current = (input.status ?? {}) as Record<string, unknown>;
  if (STATUS_FIELDS.some((k) => current[k] !== status[k])) {
    plan.status.push({ target: cloneSetRef(cs), status, ...(input.metadata.resourceVersion ? { resourceVersion: input.metadata.resourceVersion } : {}), reason: `CloneSet ${cs.metadata.name}: ${status.readyReplicas}/${replicas} ready, ${status.updatedReplicas} updated` });
  }
  plan.writes.push(...writes);
  plan.events.push(...events);
  const outdated = remaining.some((p) => shortHash(p.metadata.labels?.[REVISION_HASH_LABEL] ?? '') !== revision.hash);
  const waiting = writes.some((w) => !revision.writes.includes(w)) || outdated || active.some((p) => !podAvailability(p, cs.spec.minReadySeconds ?? 0, now).available) || missing > creating;
  const wakes = [wakeAt === undefined ? undefined : Math.max(wakeAt - now, 0), updateWake, waiting ? WAITING_REQUEUE_MS : undefined].filter((w): w is number => w !== undefined);
  return wakes.length ? Math.min(...wakes) : undefined;
}

export function decideCloneSets(o: CloneSetObserved, now: Date): Plan {
  const plan = emptyPlan();
  let requeue: number | undefined;
  for (const cs of o.cloneSets) {
    const after = decideOne(cs, o.podsByOwner.get(cs.metadata.uid ?? '') ?? [], o, now.getTime(), plan);
    if (after !== undefined) requeue = Math.min(requeue ?? Infinity, after);
  }
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}
