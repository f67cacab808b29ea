// Applies the rendered cluster side (render.ts) with server-side apply, and removes it again.
// Node only. Webhook configurations merge with what a managed platform added to them instead of
// fighting it (kruise#2220): see carryForeignSelectors. It returns once the API server admits with
// the webhook configurations it applied (probe-wait.ts).
import { createHash } from 'node:crypto';
import { installCrds } from '../kube/crds.js';
import { isNotFound } from '../kube/errors.js';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import { FIELD_MANAGER } from '../kube/apply.js';
import { EdgeFailingError, waitForWebhookConfigs } from './probe-wait.js';
import { checkStoredVersions, conversionWebhookRemoval } from './conversion.js';
import {
  carryForeignSelectors,
  DEFAULT_NAMESPACE,
  MUTATING_CONFIG,
  NAME_LABEL,
  OPT_OUT_LABEL,
  OPT_OUT_VALUE,
  RECONCILER_NAME,
  VALIDATING_CONFIG,
  type WebhookEntry,
} from './render.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
const RBAC = 'rbac.authorization.k8s.io/v1';
const WEBHOOK_CONFIGS = [
  { kind: 'MutatingWebhookConfiguration', name: MUTATING_CONFIG },
  { kind: 'ValidatingWebhookConfiguration', name: VALIDATING_CONFIG },
];

export type ApplyOptions = {
  log?: (message: string) => void;
  /** How long to wait for the CRDs to be established. */
  crdTimeoutMs?: number;
  /** How long to wait for the API server to admit with the applied webhook configurations. */
  webhookTimeoutMs?: number;
  /** Keep the webhook configurations even if the edge answers with an error (probe-wait.ts). */
  force?: boolean;
  /**
   * Apply the objects given and leave every webhook configuration as it is: `objects` holds none
   * on purpose (takeover step 3 applies CRDs and RBAC before it may install webhooks), so ours
   * already installed must not be taken for ones without endpoints and deleted.
   */
  leaveWebhookConfigs?: boolean;
};

/** The edge answered with an error, so the webhook configurations were deleted again. */
export class WebhooksRefusedError extends Error {
  override name = 'WebhooksRefusedError';
}

/**
 * Applies `objects` in order (field manager `kruise-serverless`), waiting for CRDs to be
 * established, and labels kube-system with the webhook opt-out before any webhook is registered.
 * A webhook configuration of ours that `objects` no longer contains is deleted, so no stale URL
 * stays registered.
 */
export async function applyClusterSide(kube: KubeHttp, objects: readonly KubeObject[], opts: ApplyOptions = {}): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
  if (crds.length) {
    checkStoredVersions(await Promise.all(crds.map(async (desired) => ({ desired, live: await getIfExists(kube, desired) }))));
    await installCrds(kube, crds, opts.crdTimeoutMs);
    log(`applied ${crds.length} CustomResourceDefinitions (established)`);
  }
  // kube-system has no kubernetes.io/metadata.name label before 1.21; this label excludes it there.
  // Our own namespace carries it in its rendered manifest.
  await kube.apply(optOutNamespace(), FIELD_MANAGER);
  log(`labelled namespace kube-system ${OPT_OUT_LABEL}=${OPT_OUT_VALUE}`);

  for (const obj of objects) {
    if (obj.kind === 'CustomResourceDefinition') continue;
    const isWebhookConfig = WEBHOOK_CONFIGS.some((c) => c.kind === obj.kind);
    const live = isWebhookConfig ? await getIfExists(kube, obj) : undefined;
    const desired = isWebhookConfig ? withAppliedHash(carryForeignSelectors(obj, live)) : obj;
    const kept = isWebhookConfig ? foreignCount(obj, desired) : 0;
    const keptNote = kept ? ` (kept ${kept} selector expressions added by others)` : '';
    // Nothing to change — the same desired state as last time, and nobody overwrote it: send
    // nothing (older API servers record even a no-op apply as a write, so a re-run would churn).
    if (live && annotation(live, APPLIED_HASH) === annotation(desired, APPLIED_HASH) && holds(live, desired)) {
      log(`unchanged ${obj.kind} ${obj.metadata?.name}${keptNote}`);
      continue;
    }
    await kube.apply(desired, FIELD_MANAGER);
    log(`applied ${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}${keptNote}`);
  }

  if (opts.leaveWebhookConfigs) return;
  for (const c of WEBHOOK_CONFIGS) {
    if (objects.some((o) => o.kind === c.kind && o.metadata?.name === c.name)) continue;
    if (await deleteIfExists(kube, { apiVersion: ADMISSION, kind: c.kind, metadata: { name: c.name } })) {
      log(`deleted ${c.kind} ${c.name} (no endpoints of that type)`);
    }
  }
  // Read-your-writes for whoever applies workloads next: return once the API server admits with these.
  const configs = objects.filter((o) => WEBHOOK_CONFIGS.some((c) => c.kind === o.kind));
  try {
    await waitForWebhookConfigs(kube, configs, { log, ...(opts.force ? { force: true } : {}), ...(opts.webhookTimeoutMs !== undefined ? { timeoutMs: opts.webhookTimeoutMs } : {}) });
  } catch (e) {
    if (!(e instanceof EdgeFailingError)) throw e;
    // Left in place, webhooks with failurePolicy Fail would refuse every request they match.
    for (const c of WEBHOOK_CONFIGS) {
      if (await deleteIfExists(kube, { apiVersion: ADMISSION, kind: c.kind, metadata: { name: c.name } })) log(`deleted ${c.kind} ${c.name} again`);
    }
    throw new WebhooksRefusedError(
      `${e.message}\nThe webhook configurations were removed again: their failurePolicy Fail webhooks would have refused every request they match. ` +
        'Fix the edge (its logs say why: e.g. the webhook function cannot reach the cluster, or the cluster id or secret is not registered) and run install again, or pass --force to keep them.',
    );
  }
}

const APPLIED_HASH = 'kruise-serverless.io/applied-hash';

function annotation(obj: KubeObject, key: string): string | undefined {
  return (obj.metadata?.annotations as Record<string, string> | undefined)?.[key];
}

/** Stamps the hash of what we are about to apply, so a removal (a field we stop setting) is seen as a change. */
function withAppliedHash(obj: KubeObject): KubeObject {
  const hash = createHash('sha256').update(JSON.stringify(obj)).digest('hex').slice(0, 16);
  const annotations = { ...(obj.metadata?.annotations as Record<string, string> | undefined), [APPLIED_HASH]: hash };
  return { ...obj, metadata: { ...obj.metadata, annotations } };
}

/** Whether `live` already has every field `want` sets, with the same values (lists: same items). */
export function holds(live: unknown, want: unknown): boolean {
  if (Array.isArray(want)) return Array.isArray(live) && live.length === want.length && want.every((w, i) => holds(live[i], w));
  if (want && typeof want === 'object') {
    if (!live || typeof live !== 'object' || Array.isArray(live)) return false;
    return Object.entries(want).every(([k, v]) => holds((live as Record<string, unknown>)[k], v));
  }
  return live === want;
}

export type UninstallOptions = {
  /** Default: where the installed ClusterRoleBinding points, else kruise-system. */
  namespace?: string;
  /** Delete these CRDs too. This deletes every object of those kinds in the cluster. */
  purgeCrds?: readonly KubeObject[];
  /** Delete our namespace too. */
  purgeNamespace?: boolean;
  log?: (message: string) => void;
};

/**
 * Removes the webhook configurations first (so nothing calls the edge any more), then RBAC and
 * the kube-system label. CRDs and the namespace stay unless asked for: deleting a CRD deletes
 * every user object of that kind.
 */
export async function uninstallClusterSide(kube: KubeHttp, opts: UninstallOptions = {}): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const namespace = opts.namespace ?? (await installedNamespace(kube)) ?? DEFAULT_NAMESPACE;
  const targets: KubeObject[] = [
    ...WEBHOOK_CONFIGS.map((c) => ({ apiVersion: ADMISSION, kind: c.kind, metadata: { name: c.name } })),
    { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: RECONCILER_NAME } },
    { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: RECONCILER_NAME } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: RECONCILER_NAME, namespace } },
  ];
  for (const t of targets) {
    const gone = await deleteIfExists(kube, t);
    log(`${gone ? 'deleted' : 'already absent:'} ${t.kind} ${t.metadata?.namespace ? `${t.metadata.namespace}/` : ''}${t.metadata?.name}`);
  }
  await removeConversionWebhooks(kube, log);
  // Applying the namespace with no labels releases the labels we own (and only ours).
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }, FIELD_MANAGER);
  log(`removed ${OPT_OUT_LABEL} from namespace kube-system`);
  for (const crd of opts.purgeCrds ?? []) {
    if (await deleteIfExists(kube, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: crd.metadata?.name } })) {
      log(`deleted CustomResourceDefinition ${crd.metadata?.name}`);
    }
  }
  if (opts.purgeNamespace && (await deleteIfExists(kube, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }))) {
    log(`deleted Namespace ${namespace}`);
  }
}

/** The API server calls the edge to convert too: our CRDs go back to conversion None. */
export async function removeConversionWebhooks(kube: KubeHttp, log: (message: string) => void = () => undefined): Promise<void> {
  const { items } = await kube.list<KubeObject>('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { labelSelector: 'app.kubernetes.io/part-of=kruise-serverless' });
  for (const crd of items) {
    const patch = conversionWebhookRemoval(crd);
    if (!patch) continue;
    await kube.patch(crd, patch, 'merge');
    log(`removed the conversion webhook of CustomResourceDefinition ${crd.metadata?.name} (conversion None)`);
  }
}

/** The namespace of the reconciler ServiceAccount our ClusterRoleBinding names, if installed. */
async function installedNamespace(kube: KubeHttp): Promise<string | undefined> {
  const crb = await getIfExists(kube, { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: RECONCILER_NAME } });
  const subjects = (crb?.subjects ?? []) as { kind?: string; name?: string; namespace?: string }[];
  return subjects.find((s) => s.kind === 'ServiceAccount' && s.name === RECONCILER_NAME)?.namespace;
}

function optOutNamespace(): KubeObject {
  // The name label too (1.21+ sets it itself): the observers that see our namespace exclude kube-system by it alone.
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system', labels: { [OPT_OUT_LABEL]: OPT_OUT_VALUE, [NAME_LABEL]: 'kube-system' } } };
}

async function getIfExists(kube: KubeHttp, obj: KubeObject): Promise<KubeObject | undefined> {
  try {
    return await kube.get<KubeObject>(obj.apiVersion!, obj.kind!, obj.metadata!.name!, obj.metadata?.namespace);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** True if it existed. */
async function deleteIfExists(kube: KubeHttp, obj: KubeObject): Promise<boolean> {
  try {
    await kube.delete(obj);
    return true;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}

function foreignCount(rendered: KubeObject, merged: KubeObject): number {
  const count = (o: KubeObject) =>
    ((o.webhooks ?? []) as WebhookEntry[]).reduce((n, w) => n + (w.namespaceSelector?.matchExpressions?.length ?? 0) + (w.objectSelector?.matchExpressions?.length ?? 0), 0);
  return count(merged) - count(rendered);
}
