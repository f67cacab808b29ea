import { describe, expect, it } from 'vitest';
import { convertObject, type ConvertibleObject } from './convert.js';
import { itRoundTrips } from './round-trip.js';
import { PROGRESSIVE_CREATE_POD_ANNOTATION } from './daemonset.js';
import { json, metadata, random, someFields, word, type Random } from './random-objects.js';

const SHARED_SPEC = ['selector', 'template', 'minReadySeconds', 'burstReplicas', 'revisionHistoryLimit', 'lifecycle'];
const OBJECTS = ['selector', 'template', 'lifecycle'];
const SHARED_STATUS = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount', 'conditions'];

function updateStrategy(r: Random): Record<string, unknown> {
  if (!r.chance(0.7)) return {};
  const rolling = r.chance(0.7) ? { rollingUpdate: { ...someFields(r, ['maxUnavailable', 'maxSurge', 'selector', 'partition', 'paused']), ...(r.chance(0.5) ? { rollingUpdateType: r.pick(['Standard', 'InPlaceIfPossible']) } : {}) } } : {};
  return { updateStrategy: { ...(r.chance(0.5) ? { type: r.pick(['RollingUpdate', 'OnDelete']) } : {}), ...rolling } };
}

function status(r: Random, hashField: 'daemonSetHash' | 'updateRevision'): Record<string, unknown> {
  if (!r.chance(0.7)) return {};
  return { status: { ...someFields(r, SHARED_STATUS), ...(r.chance(0.7) ? { [hashField]: word(r) || 'h' } : {}) } };
}

/** v1alpha1 as OpenKruise's conversion keeps it: no deprecated Surging type. */
function alpha(r: Random): ConvertibleObject {
  const annotations: Record<string, string> = r.chance(0.5) ? { [PROGRESSIVE_CREATE_POD_ANNOTATION]: r.pick(['true', 'false']) } : {};
  return { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: metadata(r, { annotations }), spec: { ...someFields(r, SHARED_SPEC, OBJECTS), ...updateStrategy(r) }, ...status(r, 'daemonSetHash') };
}

/** v1beta1 as OpenKruise writes it: partitionedScaling true exactly when the annotation says "true". */
function beta(r: Random): ConvertibleObject {
  const partitioned = r.chance(0.5);
  const meta = metadata(r, partitioned ? { annotations: { [PROGRESSIVE_CREATE_POD_ANNOTATION]: 'true' } } : {});
  const annotations = meta.annotations as Record<string, string> | undefined;
  if (!partitioned && annotations?.[PROGRESSIVE_CREATE_POD_ANNOTATION] === 'true') delete annotations[PROGRESSIVE_CREATE_POD_ANNOTATION];
  if (annotations && !Object.keys(annotations).length) delete meta.annotations;
  const spec = { ...someFields(r, SHARED_SPEC, OBJECTS), ...updateStrategy(r), ...(partitioned ? { scaleStrategy: { partitionedScaling: true } } : {}) };
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: meta, spec, ...status(r, 'updateRevision') };
}

describe('Advanced DaemonSet conversion', () => {
  itRoundTrips(alpha, beta);

  it('moves status.daemonSetHash to status.updateRevision', () => {
    const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: {}, status: { numberReady: 1, daemonSetHash: '5d8f' } };
    expect(convertObject(obj, 'apps.kruise.io/v1beta1').status).toEqual({ numberReady: 1, updateRevision: '5d8f' });
  });

  it('turns the progressive-create-pod annotation into scaleStrategy.partitionedScaling, keeping the annotation', () => {
    const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'd', annotations: { [PROGRESSIVE_CREATE_POD_ANNOTATION]: 'true' } }, spec: {} };
    const b = convertObject(obj, 'apps.kruise.io/v1beta1');
    expect(b.spec).toEqual({ scaleStrategy: { partitionedScaling: true } });
    expect(b.metadata).toEqual(obj.metadata);
  });

  it('a v1beta1 partitionedScaling gains the annotation in v1alpha1, as OpenKruise', () => {
    const b = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { scaleStrategy: { partitionedScaling: true } } };
    expect(convertObject(b, 'apps.kruise.io/v1alpha1')).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'd', annotations: { [PROGRESSIVE_CREATE_POD_ANNOTATION]: 'true' } }, spec: {} });
  });

  it('reads the deprecated Surging rolling-update type as Standard', () => {
    const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging', maxSurge: json(random(1)) ?? 1 } } } };
    const spec = convertObject(obj, 'apps.kruise.io/v1beta1').spec as { updateStrategy: { rollingUpdate: { rollingUpdateType: string } } };
    expect(spec.updateStrategy.rollingUpdate.rollingUpdateType).toBe('Standard');
  });
});
