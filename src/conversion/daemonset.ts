// Advanced DaemonSet v1alpha1 ↔ v1beta1, as OpenKruise's apis/apps/v1alpha1/daemonset_conversion.go:
// the progressive-create-pod annotation ↔ spec.scaleStrategy.partitionedScaling, status
// daemonSetHash ↔ updateRevision, and the deprecated rolling-update type Surging reads as Standard.
import type { DaemonSet, DaemonSetSpec, DaemonSetSpecV1beta1, DaemonSetStatus, DaemonSetStatusV1beta1, DaemonSetV1beta1 } from '../api/apps/daemonset.js';

export const PROGRESSIVE_CREATE_POD_ANNOTATION = 'daemonset.kruise.io/progressive-create-pod';

export function daemonSetToV1beta1(src: DaemonSet): DaemonSetV1beta1 {
  const out = structuredClone(src);
  const spec: DaemonSetSpecV1beta1 = out.spec;
  const rolling = spec?.updateStrategy?.rollingUpdate;
  if (rolling?.rollingUpdateType === 'Surging') rolling.rollingUpdateType = 'Standard';
  // OpenKruise keeps the annotation (ObjectMeta is copied) and adds the field.
  if (out.metadata?.annotations?.[PROGRESSIVE_CREATE_POD_ANNOTATION] === 'true') spec.scaleStrategy = { partitionedScaling: true };
  const result: DaemonSetV1beta1 = { ...out, apiVersion: 'apps.kruise.io/v1beta1', spec, status: undefined };
  if (out.status) {
    const { daemonSetHash, ...status } = out.status;
    result.status = { ...status, ...(daemonSetHash ? { updateRevision: daemonSetHash } : {}) };
  } else delete result.status;
  return result;
}

export function daemonSetToV1alpha1(src: DaemonSetV1beta1): DaemonSet {
  const out = structuredClone(src);
  const { scaleStrategy, ...spec } = out.spec ?? ({} as DaemonSetSpecV1beta1);
  if (scaleStrategy?.partitionedScaling) {
    out.metadata = { ...out.metadata, annotations: { ...out.metadata?.annotations, [PROGRESSIVE_CREATE_POD_ANNOTATION]: 'true' } };
  }
  const result: DaemonSet = { ...out, apiVersion: 'apps.kruise.io/v1alpha1', spec: spec as DaemonSetSpec, status: undefined };
  if (out.status) {
    const { updateRevision, ...status } = out.status as DaemonSetStatusV1beta1;
    // daemonSetHash is omitempty in OpenKruise; our v1alpha1 type says required because our controller always writes it.
    result.status = { ...status, ...(updateRevision ? { daemonSetHash: updateRevision } : {}) } as DaemonSetStatus;
  } else delete result.status;
  return result;
}
