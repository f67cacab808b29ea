// Step 2 of a takeover and its undo: OpenKruise's webhook configurations are removed and the
// `conversion` stanza of its CRDs (a Webhook strategy calling kruise-webhook-service) is taken
// out, and everything removed is kept in a ConfigMap (kruise-system/kruise-serverless-handback),
// so that `handback` puts it back as it was. Pure: the plan and the record; run.ts does the I/O.
import type { KubeObject } from '../kube/http.js';
import { KRUISE_NAMESPACE } from './preflight.js';

export const OPENKRUISE_WEBHOOKS = [
  { kind: 'MutatingWebhookConfiguration', name: 'kruise-mutating-webhook-configuration' },
  { kind: 'ValidatingWebhookConfiguration', name: 'kruise-validating-webhook-configuration' },
] as const;
export const HANDBACK_CONFIGMAP = 'kruise-serverless-handback';
export const ADMISSION_API = 'admissionregistration.k8s.io/v1';

const KRUISE_GROUPS = new Set(['apps.kruise.io', 'policy.kruise.io']);

type Crd = KubeObject & { spec?: { group?: string; conversion?: { strategy?: string; webhook?: { clientConfig?: { service?: unknown } } } } };

/** What the takeover removes: the webhook configurations found, and each OpenKruise CRD's conversion webhook. */
export type HandbackRecord = {
  webhookConfigurations: KubeObject[];
  /** CRD name → the conversion stanza it had. */
  conversions: Record<string, unknown>;
};

/** Server-set fields a re-create must not carry. */
function restorable(obj: KubeObject): KubeObject {
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, managedFields: _mf, generation: _g, selfLink: _sl, ...metadata } = (obj.metadata ?? {}) as Record<string, unknown>;
  return { ...obj, metadata: metadata as KubeObject['metadata'] };
}

export function handbackRecord(webhooks: readonly KubeObject[], crds: readonly KubeObject[]): HandbackRecord {
  const conversions: Record<string, unknown> = {};
  for (const crd of crds as readonly Crd[]) {
    if (!KRUISE_GROUPS.has(crd.spec?.group ?? '')) continue;
    // OpenKruise's conversion calls its Service; ours (an earlier takeover's) calls the edge's URL.
    const conversion = crd.spec?.conversion;
    if (conversion?.strategy === 'Webhook' && conversion.webhook?.clientConfig?.service) conversions[crd.metadata?.name ?? ''] = conversion;
  }
  return { webhookConfigurations: webhooks.map(restorable), conversions };
}

export function recordConfigMap(record: HandbackRecord): KubeObject {
  return {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: HANDBACK_CONFIGMAP, namespace: KRUISE_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'kruise-serverless' } },
    data: { 'webhook-configurations.json': JSON.stringify(record.webhookConfigurations), 'crd-conversions.json': JSON.stringify(record.conversions) },
  } as KubeObject;
}

export class HandbackRecordError extends Error {}

/** The record a ConfigMap holds; a clear error for one that was edited into something else. */
export function readRecord(cm: KubeObject | undefined): HandbackRecord {
  if (!cm) throw new HandbackRecordError(`ConfigMap ${KRUISE_NAMESPACE}/${HANDBACK_CONFIGMAP} not found: nothing to hand back (was takeover run on this cluster?)`);
  const data = ((cm as { data?: Record<string, string> }).data ?? {});
  try {
    const webhookConfigurations = JSON.parse(data['webhook-configurations.json'] ?? '[]') as unknown;
    const conversions = JSON.parse(data['crd-conversions.json'] ?? '{}') as unknown;
    if (!Array.isArray(webhookConfigurations) || typeof conversions !== 'object' || conversions === null || Array.isArray(conversions)) throw new Error('unexpected shape');
    return { webhookConfigurations: webhookConfigurations as KubeObject[], conversions: conversions as Record<string, unknown> };
  } catch (e) {
    throw new HandbackRecordError(`ConfigMap ${KRUISE_NAMESPACE}/${HANDBACK_CONFIGMAP} cannot be read: ${(e as Error).message}`);
  }
}
