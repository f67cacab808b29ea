// Every reconciler this build runs (Node and Lambda only): the reconcilers' composition root, as
// src/registry.ts is the webhooks'. Kept apart from the registry, which the Worker imports:
// reconcilers read the API server and never run at the edge. The edge's ledgers (PUB and
// WorkloadSpread budgets) reach them through the runtime (RunOptions.ledgers).
import type { Reconciler } from './reconcile/types.js';
import { resourceDistributionReconciler } from './resourcedistribution/reconciler.js';
import { sidecarSetReconcilerFor } from './sidecarset/controller/reconciler.js';
import { workloadSpreadReconciler } from './workloadspread/controller/reconciler.js';
import { pubReconciler } from './pub/controller/reconciler.js';
import { pubDisruptionBudgets } from './pub/budget-source.js';
import { cloneSetReconcilerFor } from './cloneset/controller/reconciler.js';
import { statefulSetReconcilerFor } from './statefulset/controller/reconciler.js';
import { daemonSetReconciler } from './daemonset/controller/reconciler.js';
import { broadcastJobReconciler } from './broadcastjob/controller/reconciler.js';
import { advancedCronJobReconciler } from './advancedcronjob/controller/reconciler.js';
import { unitedDeploymentReconciler } from './uniteddeployment/controller/reconciler.js';
import { imagePullJobReconcilerFor, parsePullHelper } from './imagepulljob/controller/reconciler.js';
import type { PullHelper } from './imagepulljob/controller/pull-pod.js';
import { imageListPullJobReconciler } from './imagelistpulljob/controller/reconciler.js';
import { launchPriorityReconciler } from './containerlaunchpriority/controller/reconciler.js';
import { persistentPodStateReconciler } from './persistentpodstate/controller/reconciler.js';
import { podProbeMarkerReconcilerFor } from './podprobemarker/controller/reconciler.js';
import { ephemeralJobReconciler } from './ephemeraljob/controller/reconciler.js';
import type { Prober } from './podprobemarker/controller/results.js';
import { proberFromEnv } from './podprobemarker/controller/prober-env.js';
import { FEATURE_GATE_DEFAULTS, parseFeatureGates, type FeatureGates } from './reconcile/feature-gates.js';

/**
 * `gates`: OpenKruise's feature gates, parsed from $KS_FEATURE_GATES by the entry points;
 * `pullHelper`: the ImagePullJob pods' helper image, from $KS_IMAGE_PULL_HELPER;
 * `prober`: PodProbeMarker's own tcp/http probes, where pods are reachable ($KS_POD_PROBES).
 */
export function reconcilers(gates: FeatureGates = FEATURE_GATE_DEFAULTS, opts: { pullHelper?: PullHelper; prober?: Prober } = {}): Reconciler[] {
  return [
    resourceDistributionReconciler as Reconciler,
    // PUB first: a one-shot resync (--once, a scheduled Lambda run) refreshes budgets before the
    // SidecarSet controller asks them; the Node loop runs kinds side by side (the PUB webhook stays the authority).
    pubReconciler as Reconciler,
    workloadSpreadReconciler as Reconciler,
    // In-place sidecar updates ask the PUBs first (the PUB webhook stays the authority).
    sidecarSetReconcilerFor({ budgets: pubDisruptionBudgets }) as Reconciler,
    // In-place updates and deletions ask the PUBs first.
    cloneSetReconcilerFor({ gates, budgets: pubDisruptionBudgets }) as Reconciler,
    statefulSetReconcilerFor({ gates, budgets: pubDisruptionBudgets }) as Reconciler,
    daemonSetReconciler as Reconciler,
    broadcastJobReconciler as Reconciler,
    advancedCronJobReconciler as Reconciler,
    unitedDeploymentReconciler as Reconciler,
    imagePullJobReconcilerFor(opts.pullHelper ? { helper: opts.pullHelper } : {}) as Reconciler,
    imageListPullJobReconciler as Reconciler,
    launchPriorityReconciler as Reconciler,
    persistentPodStateReconciler as Reconciler,
    podProbeMarkerReconcilerFor(opts.prober ? { prober: opts.prober } : {}) as Reconciler,
    ephemeralJobReconciler as Reconciler,
  ];
}

/** The reconcilers as the environment configures them: $KS_FEATURE_GATES, $KS_IMAGE_PULL_HELPER and $KS_POD_PROBES (the CLI and the Lambda). */
export function reconcilersFromEnv(env: Record<string, string | undefined>): Reconciler[] {
  const prober = proberFromEnv(env);
  return reconcilers(parseFeatureGates(env.KS_FEATURE_GATES), { pullHelper: parsePullHelper(env.KS_IMAGE_PULL_HELPER), ...(prober ? { prober } : {}) });
}
