// A CloneSet's new pod and its PVCs (NewVersionedPods, GetPersistentVolumeClaims, UpdateStorage in
// OpenKruise's cloneset core and utils): the pod from the template of the revision it is created
// at, named `<cs>-<id>`, with the instance-id and revision labels, the InPlaceUpdateReady and
// KruisePodReady readiness gates, lifecycle state PreparingNormal, and one volume per claim
// template pointing at the PVC `<template>-<cs>-<id>`. Pure.
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { KubeObject } from '../../kube/http.js';
import { isRecord } from '../../kube/validation.js';
import { withInPlaceUpdateReadinessGate } from '../../workload/inplace-update-condition.js';
import { withLifecycleState } from '../../workload/lifecycle.js';
import { withKruisePodReadinessGate } from '../../workload/pod-readiness.js';
import type { Pod } from '../../workload/pods.js';
import { defaultedTemplateSpec } from '../../workload/template-defaults.js';
import type { RevisionTemplate } from '../../workload/template-revision.js';
import { CLONESET_API_VERSION, CLONESET_KIND, INSTANCE_ID_LABEL, POD_TEMPLATE_HASH_LABEL, REVISION_HASH_LABEL, type StoredCloneSet } from '../types.js';
import type { Pvc } from './observe.js';
import { controllerReference } from '../../kube/owner-reference.js';

export type Template = RevisionTemplate;

const controllerRef = (cs: StoredCloneSet) => controllerReference(CLONESET_API_VERSION, CLONESET_KIND, cs.metadata);

type ClaimTemplate = V1PersistentVolumeClaim & { metadata: { name: string } };

const claimTemplates = (cs: StoredCloneSet): ClaimTemplate[] => (cs.spec.volumeClaimTemplates ?? []).filter((c): c is ClaimTemplate => isRecord(c) && isRecord(c.metadata) && typeof c.metadata.name === 'string');

export const claimName = (cs: StoredCloneSet, template: string, id: string) => `${template}-${cs.metadata.name}-${id}`;

/** The PVCs pod `id` mounts: a copy of each claim template, labelled with the selector's matchLabels and the id. */
export function claimsFor(cs: StoredCloneSet, id: string): Pvc[] {
  const matchLabels = (isRecord(cs.spec.selector) && isRecord(cs.spec.selector.matchLabels) ? cs.spec.selector.matchLabels : {}) as Record<string, string>;
  return claimTemplates(cs).map((t) => {
    const { status: _status, ...rest } = structuredClone(t);
    const name = claimName(cs, t.metadata.name, id);
    return {
      ...rest,
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { ...rest.metadata, name, namespace: cs.metadata.namespace, labels: { ...(t.metadata?.labels ?? {}), ...matchLabels, [INSTANCE_ID_LABEL]: id }, ownerReferences: [controllerRef(cs)] },
    } as Pvc;
  });
}

type Volume = { name: string; [k: string]: unknown };

export function newPod(cs: StoredCloneSet, id: string, revision: { label: string; hash: string; template: Template }, now: Date): Pod {
  const meta = revision.template.metadata ?? {};
  const spec = defaultedTemplateSpec(revision.template.spec) as Pod['spec'] & { volumes?: Volume[] };
  const claims = claimTemplates(cs).map((t) => t.metadata.name);
  const volumes = [
    ...claims.map((name) => ({ name, persistentVolumeClaim: { claimName: claimName(cs, name, id) } })),
    ...(spec.volumes ?? []).filter((v) => !claims.includes(v.name)),
  ];
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${cs.metadata.name}-${id}`,
      namespace: cs.metadata.namespace,
      labels: { ...(meta.labels ?? {}), [REVISION_HASH_LABEL]: revision.label, [POD_TEMPLATE_HASH_LABEL]: revision.hash, [INSTANCE_ID_LABEL]: id },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers?.length ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [controllerRef(cs)],
    },
    spec: withKruisePodReadinessGate(withInPlaceUpdateReadinessGate({ ...spec, ...(volumes.length ? { volumes } : {}) })),
  };
  return withLifecycleState(pod, 'PreparingNormal', now);
}

export const asKubeObject = (o: Pod | Pvc): KubeObject => o as unknown as KubeObject;
