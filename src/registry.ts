// The features this build serves and what they register: handlers on webhook endpoints and the
// collections of cluster state those handlers read. Order matters where several features handle
// the same endpoint: it is the order handlers run in (../shared/SEMANTICS.md §6: WorkloadSpread, then
// SidecarSet, then PUB on pod CREATE).
import { ENDPOINT_CATALOG } from './admission/endpoints.js';
import type { LedgerKind } from './edge-state/ledger.js';
import type { Feature } from './feature.js';
import type { CollectionSpec, RelatedObjects, WorkloadPods } from './edge-state/contracts.js';
import { workloadPodSelectors } from './edge-state/workload-pods.js';
import type { Explainer, WebhookEndpoint } from './admission/types.js';
import { resourceDistributionFeature } from './resourcedistribution/index.js';
import { sidecarSetFeatureFor } from './sidecarset/index.js';
import { FEATURE_GATE_DEFAULTS, parseFeatureGates, type FeatureGates } from './reconcile/feature-gates.js';
import { workloadSpreadFeature } from './workloadspread/index.js';
import { pubFeature } from './pub/index.js';
import { deletionProtectionFeature } from './deletion-protection/index.js';
import { cloneSetFeature } from './cloneset/index.js';
import { statefulSetFeature } from './statefulset/index.js';
import { daemonSetFeature } from './daemonset/index.js';
import { broadcastJobFeature } from './broadcastjob/index.js';
import { advancedCronJobFeature } from './advancedcronjob/index.js';
import { unitedDeploymentFeature } from './uniteddeployment/index.js';
import { imagePullJobFeature } from './imagepulljob/index.js';
import { imageListPullJobFeature } from './imagelistpulljob/index.js';
import { ephemeralJobFeature } from './ephemeraljob/index.js';
import { containerLaunchPriorityFeature } from './containerlaunchpriority/index.js';
import { persistentPodStateFeature } from './persistentpodstate/index.js';
import { podProbeMarkerFeature } from './podprobemarker/index.js';

/**
 * The production feature list, in handler order: on pod CREATE WorkloadSpread, then SidecarSet,
 * then container launch priority (it gives injected sidecars their barrier too), then PUB, then
 * PersistentPodState, then PodProbeMarker; on pod DELETE/eviction WorkloadSpread's bookkeeping before
 * PUB's check (§6). `gates`: the OpenKruise feature gates that change a webhook's answer.
 */
export function featuresFor(gates: Pick<FeatureGates, 'EnableSortSidecarContainerByName'>): readonly Feature[] {
  const sidecarSet = sidecarSetFeatureFor({ sortSidecarContainersByName: gates.EnableSortSidecarContainerByName });
  return [resourceDistributionFeature, workloadSpreadFeature, sidecarSet, containerLaunchPriorityFeature, pubFeature, persistentPodStateFeature, podProbeMarkerFeature, deletionProtectionFeature, cloneSetFeature, statefulSetFeature, daemonSetFeature, broadcastJobFeature, advancedCronJobFeature, unitedDeploymentFeature, imagePullJobFeature, imageListPullJobFeature, ephemeralJobFeature];
}

/** The feature list with OpenKruise's default gates. */
export const FEATURES: readonly Feature[] = featuresFor(FEATURE_GATE_DEFAULTS);

/** The feature list as the environment configures it ($KS_FEATURE_GATES); a bad gate throws FeatureGateError. */
export function featuresFromEnv(env: { readonly [name: string]: unknown; KS_FEATURE_GATES?: string | undefined }): readonly Feature[] {
  return env.KS_FEATURE_GATES ? featuresFor(parseFeatureGates(env.KS_FEATURE_GATES)) : FEATURES;
}

/** The endpoints that have at least one handler, with handlers in feature order. */
export function webhookEndpoints(features: readonly Feature[] = FEATURES): WebhookEndpoint[] {
  const paths = new Set(ENDPOINT_CATALOG.map((e) => e.path));
  for (const f of features) {
    for (const h of f.handlers) {
      if (!paths.has(h.endpoint)) throw new Error(`feature ${f.name}: unknown webhook endpoint "${h.endpoint}"`);
    }
  }
  const pods = workloadPods(features);
  return ENDPOINT_CATALOG.map((template) => ({
    ...template,
    ...(template.observesWorkloadPods ? { objectSelectorAnyOf: workloadPodSelectors(pods, template.name) } : {}),
    handlers: features.flatMap((f) => f.handlers.filter((h) => h.endpoint === template.path).map((h) => ({ ...h.handler, feature: f.name }))),
  })).filter((e) => e.handlers.length > 0 || observerNeeded(e, stateCollections(features)) || (e.observesWorkloadPods === true && pods.length > 0));
}

/**
 * The endpoints less the pods/status observer, for installs whose reconcilers run as the Node
 * loop: it watches pods itself, and the observer would only add a webhook call to every status
 * write of a workload's pods (the kubelet's included).
 */
export function withoutPodStatusObserver(endpoints: readonly WebhookEndpoint[]): WebhookEndpoint[] {
  return endpoints.filter((e) => !e.observesWorkloadPods);
}

/** Every workload whose pods some feature controls (a status change runs its reconciler). */
export function workloadPods(features: readonly Feature[] = FEATURES): WorkloadPods[] {
  return features.flatMap((f) => f.workloadPods ?? []);
}

/** An observer is registered if some collection takes writes from it. */
function observerNeeded(e: Omit<WebhookEndpoint, 'handlers'>, collections: readonly CollectionSpec[]): boolean {
  if (e.observer !== true) return false;
  if (e.dedicatedObserver) return collections.some((c) => c.writeThrough?.endpoint === e.path);
  return collections.some((c) => !c.compute);
}

/** Every explainer, by name (names must be unique across features). */
export function featureExplainers(features: readonly Feature[] = FEATURES): Record<string, Explainer> {
  const out: Record<string, Explainer> = {};
  for (const f of features) {
    for (const [name, explain] of Object.entries(f.explainers ?? {})) {
      if (out[name]) throw new Error(`explainer "${name}" is registered twice`);
      out[name] = explain;
    }
  }
  return out;
}

/** Every kind some feature wants change events for. */
export function changeKinds(features: readonly Feature[] = FEATURES): Set<string> {
  return new Set(features.flatMap((f) => f.changeKinds ?? []));
}

/** Every feature's related objects of one admitted request. */
export function relatedObjects(features: readonly Feature[] = FEATURES): RelatedObjects {
  const each = features.flatMap((f) => (f.relatedObjects ? [f.relatedObjects] : []));
  return (a) => each.flatMap((r) => r(a));
}

/** Every collection some feature reads, by name (a name declared twice must mean the same kind). */
export function stateCollections(features: readonly Feature[] = FEATURES): CollectionSpec[] {
  const byName = new Map<string, CollectionSpec>();
  for (const f of features) {
    for (const c of f.collections ?? []) {
      const seen = byName.get(c.name);
      if (seen && (seen.apiVersion !== c.apiVersion || seen.kind !== c.kind)) {
        throw new Error(`collection "${c.name}" is declared as ${seen.kind} and as ${c.kind}`);
      }
      byName.set(c.name, c);
    }
  }
  return [...byName.values()];
}

/** Every ledger kind, by name (names must be unique across features). */
export function ledgerKinds(features: readonly Feature[] = FEATURES): LedgerKind[] {
  const out = new Map<string, LedgerKind>();
  for (const f of features) {
    for (const k of f.ledgerKinds ?? []) {
      if (out.has(k.kind)) throw new Error(`ledger kind "${k.kind}" is registered twice`);
      out.set(k.kind, k);
    }
  }
  return [...out.values()];
}
