// What the installer does to CRDs because of API versions. Pure.
// - Kinds whose versions need our conversion webhook come out of infra/crds with `strategy:
//   None` and an annotation (src/api/crd.ts); here they get `strategy: Webhook`, pointed at the
//   edge's /convert under the cluster's path secret, and OpenKruise's storage version.
// - A CRD may never drop a version the cluster still stores objects in (status.storedVersions):
//   the API server refuses the update, and those objects could not be read any more.
import { CONVERSION_ANNOTATION, STORAGE_ANNOTATION, STORAGE_WITHOUT_WEBHOOK_ANNOTATION } from '../api/crd.js';
import type { KubeObject } from '../kube/http.js';

export const CONVERSION_PATH = 'convert';

type CrdVersion = { name: string; served?: boolean; storage?: boolean };
type CrdShape = { metadata?: { name?: string; annotations?: Record<string, string> }; spec?: { versions?: CrdVersion[]; conversion?: { strategy?: string; webhook?: unknown } }; status?: { storedVersions?: string[] } };

/** The CRD as installed with the edge serving conversion at `url` (caBundle: base64 PEM, if any). */
export function withConversionWebhook(crd: KubeObject, url: string, caBundle?: string): KubeObject {
  const c = crd as CrdShape;
  const annotations = c.metadata?.annotations ?? {};
  if (annotations[CONVERSION_ANNOTATION] !== 'Webhook') return crd;
  const storage = annotations[STORAGE_ANNOTATION];
  const versions = c.spec?.versions ?? [];
  if (!storage || !versions.some((v) => v.name === storage)) {
    throw new Error(`CustomResourceDefinition ${c.metadata?.name}: ${STORAGE_ANNOTATION} names "${storage ?? ''}", which it does not serve`);
  }
  const out = structuredClone(crd) as KubeObject & CrdShape;
  out.spec!.versions = versions.map((v) => ({ ...structuredClone(v), storage: v.name === storage }));
  out.spec!.conversion = {
    strategy: 'Webhook',
    webhook: { conversionReviewVersions: ['v1'], clientConfig: { url, ...(caBundle ? { caBundle } : {}) } },
  };
  return out;
}

/** The versions the cluster stores objects in that `desired` no longer lists, in storedVersions order. */
export function droppedStoredVersions(desired: KubeObject, live: KubeObject | undefined): string[] {
  const listed = new Set(((desired as CrdShape).spec?.versions ?? []).map((v) => v.name));
  return ((live as CrdShape | undefined)?.status?.storedVersions ?? []).filter((v) => !listed.has(v));
}

export class StoredVersionsError extends Error {
  override name = 'StoredVersionsError';
}

/** Throws StoredVersionsError, naming each CRD and version, if applying `desired` would drop a stored version. */
export function checkStoredVersions(pairs: readonly { desired: KubeObject; live: KubeObject | undefined }[]): void {
  const problems = pairs.flatMap(({ desired, live }) => {
    const dropped = droppedStoredVersions(desired, live);
    return dropped.length ? [`${desired.metadata?.name}: stores objects as ${dropped.join(', ')} (status.storedVersions), which this install does not serve`] : [];
  });
  if (problems.length) {
    throw new StoredVersionsError(
      `refusing to apply CustomResourceDefinitions that drop a stored version (the API server would refuse them, and those objects could no longer be read):\n  ${problems.join('\n  ')}\n` +
        'Migrate the stored objects to a served version first: docs/api-versions.md, "Storage migration".',
    );
  }
}

/**
 * The merge patch that takes a live CRD of ours off the conversion webhook (uninstall: with no
 * edge, every read of another version would fail), or undefined if it is not on it. It then
 * stores the version our features read again; objects already stored as the other version keep
 * only the fields both versions share when read back (docs/api-versions.md).
 */
export function conversionWebhookRemoval(live: KubeObject): Record<string, unknown> | undefined {
  const c = live as CrdShape;
  const storage = c.metadata?.annotations?.[STORAGE_WITHOUT_WEBHOOK_ANNOTATION];
  const versions = c.spec?.versions ?? [];
  if (c.spec?.conversion?.strategy !== 'Webhook' || !storage || !versions.some((v) => v.name === storage)) return undefined;
  return { spec: { conversion: { strategy: 'None', webhook: null }, versions: versions.map((v) => ({ ...v, storage: v.name === storage })) } };
}
