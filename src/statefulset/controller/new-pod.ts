// An Advanced StatefulSet's pods and PVCs (newVersionedStatefulSetPod, newStatefulSetPod,
// initIdentity, updateStorage, getPersistentVolumeClaims): pod `<set>-<ordinal>` from the template
// of the revision it is created at, with hostname and subdomain, the pod-name, pod-index and
// controller-revision-hash labels, the InPlaceUpdateReady and KruisePodReady readiness gates
// (OpenKruise's pod webhook adds the second), and one volume per claim template pointing at PVC
// `<template>-<set>-<ordinal>`. Pure.
import { isRecord } from '../../kube/validation.js';
import { withInPlaceUpdateReadinessGate } from '../../workload/inplace-update-condition.js';
import { withLifecycleState, type LifecycleState } from '../../workload/lifecycle.js';
import { withKruisePodReadinessGate } from '../../workload/pod-readiness.js';
import type { Pod } from '../../workload/pods.js';
import type { RevisionTemplate } from '../../workload/template-revision.js';
import { defaultedTemplateSpec } from '../../workload/template-defaults.js';
import { POD_INDEX_LABEL, POD_NAME_LABEL, REVISION_HASH_LABEL, STATEFULSET_API_VERSION, STATEFULSET_KIND, type StoredStatefulSet } from '../types.js';
import type { OwnerRef, Pvc } from './observe.js';

export type Template = RevisionTemplate;

type ClaimTemplate = { metadata?: { name?: string; labels?: Record<string, string>; [k: string]: unknown }; spec?: unknown; [k: string]: unknown };
type Volume = { name: string; persistentVolumeClaim?: { claimName?: string }; [k: string]: unknown };

export const podName = (set: StoredStatefulSet, ordinal: number): string => `${set.metadata.name}-${ordinal}`;

export const setOwnerRef = (set: StoredStatefulSet, controller: boolean): OwnerRef => ({
  apiVersion: STATEFULSET_API_VERSION,
  kind: STATEFULSET_KIND,
  name: set.metadata.name,
  uid: set.metadata.uid ?? '',
  ...(controller ? { controller: true, blockOwnerDeletion: true } : {}),
});

export const claimTemplates = (set: StoredStatefulSet): ClaimTemplate[] =>
  ((set.spec.volumeClaimTemplates ?? []) as unknown[]).filter((c): c is ClaimTemplate => isRecord(c) && isRecord(c.metadata) && typeof c.metadata.name === 'string');

export const claimName = (set: StoredStatefulSet, template: string, ordinal: number): string => `${template}-${set.metadata.name}-${ordinal}`;

/** The PVCs of `ordinal`: a copy of each claim template labelled with the selector's matchLabels (no owner yet). */
export function claimsFor(set: StoredStatefulSet, ordinal: number): Pvc[] {
  const matchLabels = (isRecord(set.spec.selector) && isRecord(set.spec.selector.matchLabels) ? set.spec.selector.matchLabels : {}) as Record<string, string>;
  return claimTemplates(set).map((t) => {
    const { status: _status, ...rest } = structuredClone(t) as ClaimTemplate & { status?: unknown };
    return {
      ...rest,
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { ...rest.metadata, name: claimName(set, t.metadata!.name!, ordinal), namespace: set.metadata.namespace, labels: { ...(t.metadata?.labels ?? {}), ...matchLabels } },
    } as Pvc;
  });
}

/** The pod's volumes with one per claim template (updateStorage): claims first, the rest kept. */
export function withClaimVolumes(set: StoredStatefulSet, ordinal: number, volumes: readonly Volume[] = []): Volume[] {
  const claims = claimTemplates(set).map((t) => t.metadata!.name!);
  return [
    ...claims.map((name) => ({ name, persistentVolumeClaim: { claimName: claimName(set, name, ordinal) } })),
    ...volumes.filter((v) => !claims.includes(v.name)),
  ];
}

/** storageMatches: every claim template mounted from the ordinal's PVC. */
export function storageMatches(set: StoredStatefulSet, pod: Pod, ordinal: number): boolean {
  const volumes = new Map(((pod.spec.volumes ?? []) as Volume[]).map((v) => [v.name, v]));
  return claimTemplates(set).every((t) => volumes.get(t.metadata!.name!)?.persistentVolumeClaim?.claimName === claimName(set, t.metadata!.name!, ordinal));
}

/** The identity labels a pod at `ordinal` carries (updateIdentity). */
export function identityLabels(set: StoredStatefulSet, ordinal: number, podIndexLabel: boolean): Record<string, string> {
  return { [POD_NAME_LABEL]: podName(set, ordinal), ...(podIndexLabel ? { [POD_INDEX_LABEL]: String(ordinal) } : {}) };
}

export type NewPodOptions = { revision: string; template: Template; state: LifecycleState; podIndexLabel: boolean; now: Date };

export function newStatefulSetPod(set: StoredStatefulSet, ordinal: number, o: NewPodOptions): Pod {
  const meta = o.template.metadata ?? {};
  const spec = defaultedTemplateSpec(o.template.spec) as Pod['spec'] & { volumes?: Volume[] };
  const volumes = withClaimVolumes(set, ordinal, spec.volumes);
  const name = podName(set, ordinal);
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace,
      labels: { ...(meta.labels ?? {}), ...identityLabels(set, ordinal, o.podIndexLabel), [REVISION_HASH_LABEL]: o.revision },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers?.length ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [setOwnerRef(set, true)],
    },
    spec: withKruisePodReadinessGate(
      withInPlaceUpdateReadinessGate({
        ...spec,
        hostname: name,
        ...(set.spec.serviceName ? { subdomain: set.spec.serviceName } : {}),
        ...(volumes.length ? { volumes } : {}),
      }),
    ),
  };
  return withLifecycleState(pod, o.state, o.now);
}
