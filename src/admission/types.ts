// The admission framework's contracts. Features register handlers against webhook endpoints;
// a handler is a pure function of the request and a read-only view of cluster state
// (src/edge-state/contracts.ts), and returns a Verdict. The framework owns HTTP, AdmissionReview
// parsing, JSON Patch and fallbacks.
import type { ClusterState } from '../edge-state/contracts.js';
import type { Operation } from '../kube/admission-operation.js';

export type { Operation };

export type GroupVersionKind = { group: string; version: string; kind: string };
export type GroupVersionResource = { group: string; version: string; resource: string };

/** A validated AdmissionReview request, as handlers see it. */
export type AdmissionInput<T = unknown> = {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  name?: string;
  /** The request namespace ('' for cluster-scoped objects). */
  namespace: string;
  operation: Operation;
  userInfo: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  /** The object being admitted (CREATE/UPDATE; for DELETE usually absent). */
  object?: T;
  /** The existing object (UPDATE/DELETE). */
  oldObject?: T;
  dryRun: boolean;
  options?: unknown;
  /** The cluster this request came from, as authenticated by the route. */
  clusterId: string;
};

/**
 * A handler's answer. Mutating handlers return a changed copy in `object` (the request they get is
 * deep-frozen and shared with the other handlers: writing to it throws, which fails the handler);
 * the framework turns the difference into an RFC 6902 patch. Denials carry an HTTP-style code (403 Forbidden for a
 * policy denial, 429 for an exhausted budget, 400 for invalid input, 500/503 for errors).
 */
export type Verdict<T = unknown> =
  | { allowed: true; object?: T; warnings?: string[] }
  | { allowed: false; code: number; message: string; reason?: string; warnings?: string[] };

export function allow<T>(object?: T, warnings?: string[]): Verdict<T> {
  return { allowed: true, ...(object === undefined ? {} : { object }), ...(warnings?.length ? { warnings } : {}) };
}

export function deny<T = never>(code: number, message: string, reason?: string): Verdict<T> {
  return { allowed: false, code, message, ...(reason ? { reason } : {}) };
}

/**
 * What a handler needs from state, and what to do when that is missing or too old. A collection's
 * age is the time since the edge last knew it current (`Snapshot.currentAt`: a push, or a later
 * write-through or observer write to it). Every fallback taken is counted (src/app.ts).
 */
export type StateNeeds = {
  collections: string[];
  /** Older than this (ms) counts as stale. */
  maxStalenessMs: number;
  /**
   * What a stale state, a missing one, a read that fails or times out, or a handler that fails
   * leads to. allow: the handler is skipped, the request admitted unchanged with a warning;
   * deny: refused with a clear message (503; 500 or 504 for a failed or slow handler);
   * last-known: stale state is still answered from, with a warning naming the collections and
   * their age, and the rest follows `withoutState`.
   */
  fallback: 'allow' | 'deny' | 'last-known';
  /**
   * With fallback last-known, when there is no state to answer from (never synced, unreadable in
   * time) or the handler fails: allow (the default) or deny, as above.
   */
  withoutState?: 'allow' | 'deny';
};

export type HandlerContext = {
  /** The time the request arrived (ms since epoch); handlers must not read the clock themselves. */
  now: number;
  /**
   * When the request's time budget runs out (ms since epoch, wall clock): a handler that waits for
   * state (an event, a bounded poll) must have answered by then, or its fallback answers instead.
   */
  deadline?: number;
};

export type AdmissionHandler<T = unknown> = (
  req: AdmissionInput<T>,
  state: ClusterState,
  ctx: HandlerContext,
) => Verdict<T> | Promise<Verdict<T>>;

/** Which requests a handler sees, within its endpoint. Empty/absent fields match anything. */
export type HandlerMatch = {
  group?: string;
  version?: string;
  kind?: string;
  resource?: string;
  /** '' matches only the main resource; undefined matches any. */
  subResource?: string;
  operations?: Operation[];
};

export type RegisteredHandler = {
  /** Feature name, for logs and messages (e.g. 'sidecarset'). */
  feature: string;
  match: HandlerMatch;
  handle: AdmissionHandler;
  needs?: StateNeeds;
  /**
   * Collections the handler reads by itself when it gets that far, beyond its gated `needs`: asked
   * for together with every handler's needs, so a holder answering per call answers them at once.
   */
  reads?: string[];
};

/** One registration in a Mutating/ValidatingWebhookConfiguration (admissionregistration/v1 rule). */
export type WebhookRule = {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  operations: Operation[];
  scope?: 'Cluster' | 'Namespaced' | '*';
};

export type LabelSelector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
};

/**
 * A webhook endpoint: served at /clusters/<clusterId>/<secret>/<path>, and registered in the
 * cluster as one webhook entry. Handlers run in list order; for mutating endpoints each sees the
 * previous handler's result, and the first denial wins.
 */
export type WebhookEndpoint = {
  /** URL path segment and webhook name stem, e.g. 'mutate-pod'. */
  path: string;
  type: 'mutating' | 'validating';
  /** The webhook's name in the configuration, e.g. 'mpod.kruise-serverless.io'. */
  name: string;
  rules: WebhookRule[];
  failurePolicy: 'Fail' | 'Ignore';
  timeoutSeconds: number;
  sideEffects: 'None' | 'NoneOnDryRun';
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /**
   * Called only for objects in the namespace the cluster side is installed in (where the
   * kruise-configuration ConfigMap lives), instead of for every namespace but that one.
   */
  installNamespaceOnly?: boolean;
  /**
   * Called in every namespace but kube-system, the install namespace included (it carries the
   * opt-out label, so the opt-out does not apply here). Before Kubernetes 1.21 nothing keeps
   * `kubernetes.io/metadata.name` on a namespace: a `kubectl replace` of the install namespace
   * drops it, and a selector naming the namespace by it would match nothing from then on. The
   * edge keeps only the objects its collections select.
   */
  withInstallNamespace?: boolean;
  /**
   * An observer: it decides nothing (no handlers, failurePolicy Ignore) and exists so that what
   * the API server accepts reaches the edge's state at once (src/edge-state/admitted.ts).
   */
  observer?: boolean;
  /** An observer that only collections naming it in their `writeThrough` need. */
  dedicatedObserver?: boolean;
  /**
   * Observes the pods of the workloads features declare (`Feature.workloadPods`): registered only
   * when some feature declares one, with `objectSelectorAnyOf` built from their pod labels; what
   * it admits becomes a change event for the pod's workload (src/edge-state/workload-pods.ts).
   */
  observesWorkloadPods?: boolean;
  /**
   * Registered as one webhook entry per element, each with its own name and objectSelector (ANDed
   * with `objectSelector` and the install's overrides), all calling this endpoint: a selector ANDs
   * its terms, so "objects with any of these labels" takes several entries.
   */
  objectSelectorAnyOf?: { name: string; objectSelector: LabelSelector }[];
  handlers: RegisteredHandler[];
};

/**
 * Answers "what would this feature do with this object, and why" without admitting anything
 * (e.g. which SidecarSets would be injected into a pod). Served next to the webhooks, with the
 * same path-secret authentication.
 */
export type Explainer = (body: unknown, state: ClusterState, ctx: { clusterId: string; now: number }) => Promise<{ status: number; body: unknown }>;
