// SidecarSet v1alpha1 ↔ v1beta1, as OpenKruise's apis/apps/v1alpha1/sidecarset_conversion.go:
// v1alpha1's `spec.namespace` becomes a namespaceSelector on the namespace's name label, and its
// custom-version label becomes v1beta1's `spec.customVersion`. Everything else keeps its place.
import type { SidecarSet, SidecarSetSpec, SidecarSetSpecV1beta1, SidecarSetV1beta1 } from '../api/apps/sidecarset.js';
import { withoutKey } from './objects.js';

export const CUSTOM_VERSION_LABEL = 'apps.kruise.io/sidecarset-custom-version';
/** Set by the API server on every namespace (1.21+). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

export function sidecarSetToV1beta1(src: SidecarSet): SidecarSetV1beta1 {
  const out = structuredClone(src);
  const { namespace, ...rest } = out.spec ?? ({} as SidecarSetSpec);
  const spec: SidecarSetSpecV1beta1 = rest;
  // spec.namespace wins over a namespaceSelector, as in OpenKruise (its validation forbids both).
  if (namespace) spec.namespaceSelector = { matchLabels: { [NAMESPACE_NAME_LABEL]: namespace } };
  const labels = out.metadata?.labels;
  const custom = labels?.[CUSTOM_VERSION_LABEL];
  if (custom !== undefined) {
    if (custom) spec.customVersion = custom;
    out.metadata = { ...out.metadata, labels: withoutKey(labels!, CUSTOM_VERSION_LABEL) };
    if (!Object.keys(out.metadata.labels!).length) delete out.metadata.labels;
  }
  return { ...out, apiVersion: 'apps.kruise.io/v1beta1', spec };
}

export function sidecarSetToV1alpha1(src: SidecarSetV1beta1): SidecarSet {
  const out = structuredClone(src);
  const { customVersion, ...spec } = out.spec ?? ({} as SidecarSetSpecV1beta1);
  if (customVersion) out.metadata = { ...out.metadata, labels: { ...out.metadata?.labels, [CUSTOM_VERSION_LABEL]: customVersion } };
  return { ...out, apiVersion: 'apps.kruise.io/v1alpha1', spec };
}
