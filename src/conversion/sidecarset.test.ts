import { describe, expect, it } from 'vitest';
import { convertObject, type ConvertibleObject } from './convert.js';
import { itRoundTrips } from './round-trip.js';
import { CUSTOM_VERSION_LABEL, NAMESPACE_NAME_LABEL } from './sidecarset.js';
import { jsonObject, metadata, random, someFields, word, type Random } from './random-objects.js';

const SHARED_SPEC = ['selector', 'namespaceSelector', 'initContainers', 'containers', 'volumes', 'updateStrategy', 'injectionStrategy', 'imagePullSecrets', 'revisionHistoryLimit', 'patchPodMetadata'];
const OBJECT_FIELDS = ['selector', 'namespaceSelector', 'updateStrategy', 'injectionStrategy'];

const status = (r: Random) => (r.chance(0.7) ? { status: { matchedPods: r.int(9), updatedPods: r.int(9), readyPods: r.int(9), ...someFields(r, ['latestRevision', 'collisionCount']) } } : {});

/** A v1alpha1 SidecarSet in the form OpenKruise's conversion keeps: no spec.namespace (it becomes a selector). */
function alpha(r: Random): ConvertibleObject {
  const custom: Record<string, string> = r.chance(0.5) ? { [CUSTOM_VERSION_LABEL]: word(r) || 'v' } : {};
  return { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: metadata(r, { labels: custom }), spec: someFields(r, SHARED_SPEC, OBJECT_FIELDS), ...status(r) };
}

/** A v1beta1 SidecarSet: the custom version is the field, never the label. */
function beta(r: Random): ConvertibleObject {
  const meta = metadata(r);
  const labels = meta.labels as Record<string, string> | undefined;
  if (labels) delete labels[CUSTOM_VERSION_LABEL];
  if (labels && !Object.keys(labels).length) delete meta.labels;
  const spec = { ...someFields(r, SHARED_SPEC, OBJECT_FIELDS), ...(r.chance(0.5) ? { customVersion: word(r) || 'v' } : {}) };
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: meta, spec, ...status(r) };
}

describe('SidecarSet conversion', () => {
  itRoundTrips(alpha, beta);

  it('does not change its input', () => {
    const obj = alpha(random(7));
    const copy = structuredClone(obj);
    convertObject(obj, 'apps.kruise.io/v1beta1');
    expect(obj).toEqual(copy);
  });

  it('moves the custom-version label to spec.customVersion and back', () => {
    const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's', labels: { [CUSTOM_VERSION_LABEL]: 'v2', app: 'x' } }, spec: { containers: [] } };
    const b = convertObject(obj, 'apps.kruise.io/v1beta1');
    expect(b).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 's', labels: { app: 'x' } }, spec: { containers: [], customVersion: 'v2' } });
    expect(convertObject(b, 'apps.kruise.io/v1alpha1')).toEqual(obj);
  });

  it('turns spec.namespace into a namespaceSelector on the name label, over any selector, as OpenKruise does', () => {
    const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: 'ns1', namespaceSelector: { matchLabels: { team: 'a' } } } };
    const b = convertObject(obj, 'apps.kruise.io/v1beta1');
    expect(b.spec).toEqual({ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: 'ns1' } } });
    // v1beta1 has no spec.namespace: read back as v1alpha1 it is the selector (OpenKruise's ConvertFrom).
    expect(convertObject(b, 'apps.kruise.io/v1alpha1').spec).toEqual({ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: 'ns1' } } });
  });

  it('an empty custom-version label has no v1beta1 field (customVersion is omitempty in OpenKruise)', () => {
    const b = convertObject({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's', labels: { [CUSTOM_VERSION_LABEL]: '' } }, spec: {} }, 'apps.kruise.io/v1beta1');
    expect(b).toEqual({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 's' }, spec: {} });
  });

  it('keeps fields it does not know (the API server prunes by the target schema)', () => {
    const extra = jsonObject(random(3));
    const b = convertObject({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's' }, spec: { containers: [extra] } }, 'apps.kruise.io/v1beta1');
    expect(b.spec).toEqual({ containers: [extra] });
  });
});
