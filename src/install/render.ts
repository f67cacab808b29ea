// Renders what a cluster needs to use Kruise Serverless: our CRDs, a namespace, RBAC for the
// reconcilers, and the webhook configurations that point the API server at the edge. Pure: the
// CLI prints the result as YAML or hands it to apply.ts.
//
// Webhook defaults follow what OpenKruise users got hurt by (PEERS.md §1.8, §5, §6.3): a URL
// with a per-cluster path secret and no caBundle (the edge has a public certificate), short
// timeouts, kube-system and our own namespace always excluded, and a label opt-out.
import { createHash } from 'node:crypto';
import { PROBE_ENDPOINT, PROBE_LABEL, PROBE_WEBHOOK_NAME } from '../admission/probe.js';
import { isClusterId } from '../edge-state/auth.js';
import type { LabelSelector, WebhookEndpoint } from '../admission/types.js';
import type { KubeObject } from '../kube/http.js';
import { CONVERSION_ANNOTATION } from '../api/crd.js';
import { CONVERSION_PATH, withConversionWebhook } from './conversion.js';

export const DEFAULT_NAMESPACE = 'kruise-system';
export const MUTATING_CONFIG = 'kruise-serverless-mutating';
export const VALIDATING_CONFIG = 'kruise-serverless-validating';
export const RECONCILER_NAME = 'kruise-serverless-reconciler';
/** A namespace labelled `kruise-serverless.io/webhooks: disabled` is never sent to our webhooks. */
export const OPT_OUT_LABEL = 'kruise-serverless.io/webhooks';
export const OPT_OUT_VALUE = 'disabled';
/**
 * On each webhook configuration: the selector keys we set, per webhook, as JSON. The next apply
 * reads it to tell expressions we dropped (remove them) from ones a platform added (keep them).
 */
export const SELECTOR_KEYS_ANNOTATION = 'kruise-serverless.io/selector-keys';
/** Set by the API server on every namespace since Kubernetes 1.21. */
export const NAME_LABEL = 'kubernetes.io/metadata.name';
const MANAGED_LABELS = { 'app.kubernetes.io/managed-by': 'kruise-serverless' };

/** Bad install options: the message names the option and the fix. */
export class InstallOptionError extends Error {
  override name = 'InstallOptionError';
}

export type FailurePolicy = 'Fail' | 'Ignore';

/** Per-endpoint changes to the defaults; selectors are ANDed with ours, never replace them. */
export type WebhookOverride = {
  failurePolicy?: FailurePolicy;
  timeoutSeconds?: number;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /**
   * Serve this endpoint elsewhere, under the same cluster id and secret: e.g. `validate-delete` on
   * the Lambda webhook, which reads the cluster live, so a Cascading CRD's deletion is decided
   * exactly. Its own CA, if any: the edge's `caBundle` is not applied to it.
   */
  baseUrl?: string;
  caBundle?: string;
};

export type RenderOptions = {
  /** Where the edge serves webhooks, e.g. https://kruise.example.com (a path prefix is kept). */
  baseUrl: string;
  clusterId: string;
  /** The cluster's path secret (see src/edge-state/auth.ts). */
  secret: string;
  /** PEM certificates (or their base64) for a private CA; omit for a publicly trusted edge. */
  caBundle?: string;
  namespace?: string;
  endpoints: readonly WebhookEndpoint[];
  /** CustomResourceDefinitions to install; their resources also get RBAC rules. */
  crds: readonly KubeObject[];
  /** Keyed by endpoint path. */
  overrides?: Record<string, WebhookOverride>;
  /**
   * Whether the API server keeps `kubernetes.io/metadata.name` on every namespace (Kubernetes
   * 1.21+; see serverKeepsNameLabel). Default true. Before 1.21 a namespace replaced without it
   * loses it, so the observers of our own namespace are sent every namespace instead.
   */
  nameLabelKept?: boolean;
};

type Crd = { spec?: { group?: string; names?: { plural?: string }; versions?: { subresources?: { status?: unknown; scale?: unknown } }[] } };
type Expression = NonNullable<LabelSelector['matchExpressions']>[number];
/** A rendered webhook entry (admissionregistration/v1 MutatingWebhook / ValidatingWebhook). */
export type WebhookEntry = {
  name: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  [field: string]: unknown;
};
export type SelectorKeys = Record<string, { namespaceSelector: string[]; objectSelector: string[] }>;

/** In apply order: CRDs, Namespace, RBAC, then the webhook configurations (absent when empty). */
export function renderClusterSide(opts: RenderOptions): KubeObject[] {
  const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
  if (!isClusterId(namespace)) throw new InstallOptionError(`namespace "${namespace}": must be a DNS label (lowercase letters, digits and '-')`);
  checkEndpoints(opts.endpoints, opts.overrides ?? {});
  const of = (type: WebhookEndpoint['type']) => opts.endpoints.filter((e) => e.type === type).flatMap((e) => webhookEntries(e, opts, namespace));
  const mutating = withProbe('mutating', of('mutating'), opts, namespace);
  const validating = withProbe('validating', of('validating'), opts, namespace);
  const convertAt = () => webhookUrl(opts.baseUrl, opts.clusterId, opts.secret, CONVERSION_PATH);
  const caBundle = opts.caBundle === undefined ? undefined : caBundleField(opts.caBundle);
  return [
    ...opts.crds.map((c) => (c.metadata?.annotations as Record<string, string> | undefined)?.[CONVERSION_ANNOTATION] ? withConversionWebhook(c, convertAt(), caBundle) : structuredClone(c)),
    // The name label too: API servers before 1.21 do not set it, and the config observer selects by it.
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { ...MANAGED_LABELS, [OPT_OUT_LABEL]: OPT_OUT_VALUE, [NAME_LABEL]: namespace } } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: RECONCILER_NAME, namespace, labels: MANAGED_LABELS } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: RECONCILER_NAME, labels: MANAGED_LABELS }, rules: reconcilerRules(opts.crds) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: RECONCILER_NAME, labels: MANAGED_LABELS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: RECONCILER_NAME },
      // The ServiceAccount for in-cluster runs; the group for reconcilers outside the cluster
      // (e.g. the Lambda's IAM role mapped by an EKS access entry, infra/aws/template.yaml).
      subjects: [
        { kind: 'ServiceAccount', name: RECONCILER_NAME, namespace },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: RECONCILER_NAME },
      ],
    },
    ...(mutating.length ? [webhookConfig('MutatingWebhookConfiguration', MUTATING_CONFIG, mutating)] : []),
    ...(validating.length ? [webhookConfig('ValidatingWebhookConfiguration', VALIDATING_CONFIG, validating)] : []),
  ];
}

/**
 * A non-empty configuration gains the probe entry (src/admission/probe.ts): it matches only a
 * PodTemplate in our namespace labelled with a digest of the other entries, so the installer can
 * tell when the API server admits with exactly this configuration.
 */
function withProbe(type: 'mutating' | 'validating', entries: WebhookEntry[], opts: RenderOptions, namespace: string): WebhookEntry[] {
  if (!entries.length) return entries;
  const digest = createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 16);
  const probe = { ...PROBE_ENDPOINT, type, name: PROBE_WEBHOOK_NAME[type], installNamespaceOnly: true, objectSelector: { matchLabels: { [PROBE_LABEL[type]]: digest } } };
  return [...entries, webhookEntry(probe, { ...opts, overrides: {} }, namespace)];
}

/** `${baseUrl}/clusters/${clusterId}/${secret}/${path}`, after checking what the API server requires of a webhook URL. */
export function webhookUrl(baseUrl: string, clusterId: string, secret: string, path: string): string {
  const url = checkWebhookTarget(baseUrl, clusterId, secret);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/clusters/${clusterId}/${secret}/${path}`;
}

/**
 * Throws InstallOptionError unless webhook URLs can be built from these. renderClusterSide checks
 * them only when some endpoint needs a URL (a CRDs-only install has none); the CLI always does.
 */
export function checkWebhookTarget(baseUrl: string, clusterId: string, secret: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InstallOptionError(`base URL "${baseUrl}" is not a URL; expected e.g. https://kruise.example.com`);
  }
  if (url.protocol !== 'https:') throw new InstallOptionError(`base URL "${baseUrl}" must use https:// (the API server calls webhooks only over TLS)`);
  if (url.username || url.password) throw new InstallOptionError(`base URL "${url.host}": must not contain user info (the API server rejects it)`);
  if (baseUrl.includes('?')) throw new InstallOptionError(`base URL "${baseUrl}" must not have a query string (the API server rejects it)`);
  if (baseUrl.includes('#')) throw new InstallOptionError(`base URL "${baseUrl}" must not have a fragment (the API server rejects it)`);
  if (!isClusterId(clusterId)) throw new InstallOptionError(`cluster id "${clusterId}": must be a DNS label (lowercase letters, digits and '-', at most 63)`);
  // Never echo the secret: error messages end up in CI logs.
  if (!/^[A-Za-z0-9_-]{32,}$/.test(secret)) {
    throw new InstallOptionError(`secret: must be at least 32 URL-safe characters (A-Z a-z 0-9 _ -), got ${secret.length} characters; generate one with \`openssl rand -hex 32\``);
  }
  return url;
}

/**
 * The desired configuration plus every namespaceSelector/objectSelector expression in the live
 * one whose key is not ours, now or at the last apply. Platforms append their own exclusions
 * (AKS's admissions enforcer, kruise#2220); matchExpressions is an atomic list, so applying ours
 * alone would delete theirs, they would add them back, and the two would rewrite it forever.
 */
export function carryForeignSelectors(desired: KubeObject, live: KubeObject | undefined): KubeObject {
  const out = structuredClone(desired);
  const liveHooks = (live?.webhooks ?? []) as WebhookEntry[];
  const before = parseSelectorKeys((live?.metadata?.annotations as Record<string, string> | undefined)?.[SELECTOR_KEYS_ANNOTATION]);
  for (const hook of (out.webhooks ?? []) as WebhookEntry[]) {
    const was = liveHooks.find((h) => h.name === hook.name);
    if (!was) continue;
    for (const field of ['namespaceSelector', 'objectSelector'] as const) {
      const ours = new Set([...selectorKeys(hook[field]), ...(before[hook.name]?.[field] ?? [])]);
      const foreign = (was[field]?.matchExpressions ?? []).filter((e) => !ours.has(e.key));
      if (foreign.length) hook[field] = { ...hook[field], matchExpressions: [...(hook[field]?.matchExpressions ?? []), ...foreign] };
    }
  }
  return out;
}

function checkEndpoints(endpoints: readonly WebhookEndpoint[], overrides: Record<string, WebhookOverride>): void {
  const seen = new Set<string>();
  for (const e of endpoints) {
    if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(e.path)) throw new InstallOptionError(`endpoint "${e.name}": path "${e.path}" is not a URL path`);
    if (e.path === CONVERSION_PATH) throw new InstallOptionError(`endpoint "${e.name}": path "${e.path}" is the CRD conversion webhook's`);
    for (const key of [`path:${e.path}`, ...entryNames(e).map((n) => `name:${n}`)]) {
      if (seen.has(key)) throw new InstallOptionError(`endpoint ${key.replace(':', ' "')}" is registered twice`);
      seen.add(key);
    }
  }
  for (const [path, o] of Object.entries(overrides)) {
    if (!endpoints.some((e) => e.path === path)) {
      throw new InstallOptionError(`override for "${path}": no such webhook endpoint (endpoints: ${endpoints.map((e) => e.path).join(', ') || 'none'})`);
    }
    if (o.failurePolicy !== undefined && o.failurePolicy !== 'Fail' && o.failurePolicy !== 'Ignore') {
      throw new InstallOptionError(`override for "${path}": failurePolicy must be Fail or Ignore, got "${String(o.failurePolicy)}"`);
    }
  }
}

/** The names of an endpoint's webhook entries: one, or one per `objectSelectorAnyOf` element. */
export function entryNames(e: WebhookEndpoint): string[] {
  return e.objectSelectorAnyOf ? e.objectSelectorAnyOf.map((a) => a.name) : [e.name];
}

function webhookEntries(e: WebhookEndpoint, opts: RenderOptions, namespace: string): WebhookEntry[] {
  if (!e.objectSelectorAnyOf) return [webhookEntry(e, opts, namespace)];
  return e.objectSelectorAnyOf.map((a) => webhookEntry({ ...e, name: a.name, objectSelector: mergeSelectors([e.objectSelector, a.objectSelector]) }, opts, namespace));
}

function webhookEntry(e: WebhookEndpoint, opts: RenderOptions, namespace: string): WebhookEntry {
  const o = opts.overrides?.[e.path] ?? {};
  const timeoutSeconds = o.timeoutSeconds ?? e.timeoutSeconds;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 30) {
    throw new InstallOptionError(`endpoint "${e.path}": timeoutSeconds must be a whole number from 1 to 30, got ${timeoutSeconds}`);
  }
  const ca = o.baseUrl === undefined ? opts.caBundle : o.caBundle;
  const caBundle = ca === undefined ? undefined : caBundleField(ca);
  const namespaceSelector = mergeSelectors([
    namespacesOf(e, namespace, opts.nameLabelKept ?? true),
    e.namespaceSelector,
    o.namespaceSelector,
  ]);
  const objectSelector = mergeSelectors([e.objectSelector, o.objectSelector]);
  return {
    name: e.name,
    clientConfig: { url: webhookUrl(o.baseUrl ?? opts.baseUrl, opts.clusterId, opts.secret, e.path), ...(caBundle ? { caBundle } : {}) },
    rules: structuredClone(e.rules),
    failurePolicy: o.failurePolicy ?? e.failurePolicy,
    sideEffects: e.sideEffects,
    timeoutSeconds,
    admissionReviewVersions: ['v1', 'v1beta1'],
    matchPolicy: 'Equivalent',
    namespaceSelector,
    ...(isEmpty(objectSelector) ? {} : { objectSelector }),
    ...(e.type === 'mutating' ? { reinvocationPolicy: e.reinvocationPolicy ?? 'Never' } : {}),
  };
}

/** The namespaces an endpoint is called for, before the endpoint's and the install's own selectors. */
function namespacesOf(e: WebhookEndpoint, namespace: string, nameLabelKept: boolean): LabelSelector {
  const ours: LabelSelector = { matchExpressions: [{ key: NAME_LABEL, operator: 'In', values: [namespace] }] };
  if (e.installNamespaceOnly || (e.withInstallNamespace && nameLabelKept)) return ours;
  // Our namespace carries the opt-out too; kube-system is given the name label by the apply step.
  if (e.withInstallNamespace) return { matchExpressions: [{ key: NAME_LABEL, operator: 'NotIn', values: ['kube-system'] }] };
  return {
    matchExpressions: [
      { key: NAME_LABEL, operator: 'NotIn', values: [...new Set(['kube-system', namespace])] },
      // Clusters before 1.21 lack the name label: the apply step labels both namespaces with this.
      { key: OPT_OUT_LABEL, operator: 'NotIn', values: [OPT_OUT_VALUE] },
    ],
  };
}

function webhookConfig(kind: string, name: string, webhooks: WebhookEntry[]): KubeObject {
  const keys: SelectorKeys = Object.fromEntries(
    webhooks.map((w) => [w.name, { namespaceSelector: selectorKeys(w.namespaceSelector), objectSelector: selectorKeys(w.objectSelector) }]),
  );
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name, labels: MANAGED_LABELS, annotations: { [SELECTOR_KEYS_ANNOTATION]: JSON.stringify(keys) } },
    webhooks,
  };
}

/** ANDs selectors: expressions concatenate; on a matchLabels key clash the later selector wins. */
function mergeSelectors(parts: (LabelSelector | undefined)[]): LabelSelector {
  const matchLabels = Object.assign({}, ...parts.map((p) => p?.matchLabels ?? {})) as Record<string, string>;
  const matchExpressions: Expression[] = parts.flatMap((p) => structuredClone(p?.matchExpressions ?? []));
  return {
    ...(Object.keys(matchLabels).length ? { matchLabels } : {}),
    ...(matchExpressions.length ? { matchExpressions } : {}),
  };
}

function isEmpty(s: LabelSelector): boolean {
  return !s.matchLabels && !s.matchExpressions;
}

function selectorKeys(s: LabelSelector | undefined): string[] {
  return [...new Set([...Object.keys(s?.matchLabels ?? {}), ...(s?.matchExpressions ?? []).map((e) => e.key)])];
}

function parseSelectorKeys(text: string | undefined): SelectorKeys {
  try {
    const v = JSON.parse(text ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as SelectorKeys) : {};
  } catch {
    return {};
  }
}

/** The caBundle field is base64 of PEM; accept either form, and refuse anything else. */
export function caBundleField(value: string): string {
  const text = value.trim();
  if (text.includes('-----BEGIN CERTIFICATE-----')) return btoa(text.endsWith('\n') ? text : `${text}\n`);
  let decoded = '';
  try {
    decoded = /^[A-Za-z0-9+/\s]+={0,2}$/.test(text) ? atob(text.replace(/\s+/g, '')) : '';
  } catch {
    decoded = '';
  }
  if (!decoded.includes('-----BEGIN CERTIFICATE-----')) throw new InstallOptionError('caBundle: expected PEM certificates (-----BEGIN CERTIFICATE-----) or their base64');
  return text.replace(/\s+/g, '');
}

const CRUD = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const READ = ['get', 'list', 'watch'];
const rule = (group: string, resources: string[], verbs: string[]) => ({ apiGroups: [group], resources, verbs });

/** What the reconcilers need, and no more (OpenKruise's manager role, minus what we don't run). */
export function reconcilerRules(crds: readonly KubeObject[]): Record<string, unknown>[] {
  const byGroup = new Map<string, { main: string[]; sub: string[] }>();
  for (const c of crds as Crd[]) {
    const group = c.spec?.group;
    const plural = c.spec?.names?.plural;
    if (!group || !plural) continue;
    const g = byGroup.get(group) ?? { main: [], sub: [] };
    g.main.push(plural);
    const versions = c.spec?.versions ?? [];
    if (versions.some((v) => v.subresources?.status)) g.sub.push(`${plural}/status`);
    if (versions.some((v) => v.subresources?.scale)) g.sub.push(`${plural}/scale`);
    byGroup.set(group, g);
  }
  const crdRules = [...byGroup].flatMap(([group, g]) => [
    rule(group, g.main, CRUD),
    ...(g.sub.length ? [rule(group, g.sub, ['get', 'update', 'patch'])] : []),
  ]);
  return [
    ...crdRules,
    // create: CloneSet, Advanced StatefulSet/DaemonSet, BroadcastJob and ImagePullJob create their pods.
    rule('', ['pods'], CRUD),
    // EphemeralJob injects its containers through pods/ephemeralcontainers.
    rule('', ['pods/status', 'pods/ephemeralcontainers'], ['get', 'update', 'patch']),
    rule('', ['events'], ['create', 'patch']),
    rule('events.k8s.io', ['events'], ['create', 'patch']),
    rule('', ['namespaces', 'nodes'], READ),
    // ResourceDistribution copies configmaps and secrets into namespaces.
    rule('', ['configmaps', 'secrets'], CRUD),
    // update: the Advanced StatefulSet sets PVC owners for persistentVolumeClaimRetentionPolicy.
    rule('', ['persistentvolumeclaims'], [...READ, 'create', 'update', 'patch', 'delete']),
    rule('apps', ['controllerrevisions', 'deployments', 'replicasets', 'statefulsets'], CRUD),
    // AdvancedCronJob creates, watches and deletes Jobs (its BroadcastJobs fall under the CRD rules above).
    rule('batch', ['jobs'], CRUD),
    rule('coordination.k8s.io', ['leases'], CRUD),
    // Deletion protection: a Cascading CRD is protected while custom resources of it exist, and
    // those can be of any group; counting them needs list on every resource (read-only).
    rule('apiextensions.k8s.io', ['customresourcedefinitions'], READ),
    { apiGroups: ['*'], resources: ['*'], verbs: ['list'] },
    // Only our own configurations: the URLs of others' webhooks may carry their secrets (PEERS.md §5).
    // `list` with resourceNames needs a metadata.name field selector.
    {
      apiGroups: ['admissionregistration.k8s.io'],
      resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'],
      resourceNames: [MUTATING_CONFIG, VALIDATING_CONFIG],
      verbs: ['get', 'list', 'patch'],
    },
  ];
}
