// AWS Lambda reconcile entry: EventBridge invokes it every minute (Scheduled Event → a full resync of
// every reconciler) and for each ObjectChanged event a webhook published on the custom bus (→ the
// reconcilers of that kind, for that object). Routing is in src/aws/route-event.ts; this file binds
// the environment and reports.
//   KS_CLUSTER_ID               the cluster this function reconciles (events for others are ignored)
//   then one of, in this order:
//   KUBECONFIG                  path to a kubeconfig file (e.g. in a layer)
//   KS_KUBECONFIG_SECRET_ARN    a Secrets Manager secret whose text is the kubeconfig YAML
//   KS_EKS_CLUSTER, KS_EKS_ENDPOINT, KS_EKS_CA_DATA   an EKS cluster; the bearer token is minted from
//                               the execution role (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
//                               AWS_SESSION_TOKEN) for AWS_REGION
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedEksToken, credentialsFromEnv } from '../../src/aws/eks-token.js';
import { eksKubeSource, kubeConfigSource, readKubeconfigSecret, type KubeSource, type SecretsClient } from '../../src/aws/kube-source.js';
import { routeEvent, type Route } from '../../src/aws/route-event.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import type { Reconciler, RunReport, Scope } from '../../src/reconcile/types.js';

export type ReconcileDeps = {
  reconcilers: readonly Reconciler[];
  run: (reconciler: Reconciler, scope: Scope) => Promise<RunReport>;
  clusterId: string;
  log?: (line: string) => void;
  /** After a scheduled (full) resync: push the state webhooks read to the edge. */
  afterResync?: () => Promise<string[]>;
};

export type RunSummary = {
  reconciler: string;
  apiVersion: string;
  /** 'all', or the objects as `namespace/name` (`name` when cluster-scoped). */
  scope: 'all' | string[];
  acted: boolean;
  applied: number;
  conflicts: number;
  failed: number;
  apiCalls: number;
  durationMs: number;
  /** The run threw (observe failed, lease unreachable …); the next run starts afresh. */
  error?: string;
};

export type ReconcileSummary = {
  /** false when the event was invalid, a run threw or a write failed. */
  ok: boolean;
  trigger: Route['trigger'];
  eventId?: string;
  /** Why an event was ignored, or what is wrong with an invalid one. */
  message?: string;
  runs: RunSummary[];
  /** After a scheduled resync: what was pushed to the edge (collection: mode changed/items). */
  pushed?: string[];
};

export type ReconcileHandler = (event: unknown, context?: unknown) => Promise<ReconcileSummary>;

export function makeReconcileHandler(deps: ReconcileDeps): ReconcileHandler {
  const log = deps.log ?? (() => undefined);
  return async (event) => {
    const route = routeEvent(event, deps.reconcilers, deps.clusterId);
    const eventId = typeof (event as { id?: unknown } | null)?.id === 'string' ? (event as { id: string }).id : undefined;
    const base = { trigger: route.trigger, ...(eventId ? { eventId } : {}) };
    let summary: ReconcileSummary;
    if (route.trigger === 'invalid') summary = { ...base, ok: false, message: route.error, runs: [] };
    else if (route.trigger === 'ignored') summary = { ...base, ok: true, message: route.reason, runs: [] };
    else {
      const runs: RunSummary[] = [];
      // One at a time, in registry order, as the CLI does: a full resync should not burst the API server.
      for (const { reconciler, scope } of route.runs) runs.push(await runOne(deps.run, reconciler, scope));
      summary = { ...base, ok: runs.every((r) => !r.error && r.failed === 0), runs };
      if (route.trigger === 'schedule' && deps.afterResync) {
        try {
          summary.pushed = await deps.afterResync();
        } catch (e) {
          summary = { ...summary, ok: false, message: `edge push failed: ${e instanceof Error ? e.message : String(e)}` };
        }
      }
      if (route.trigger === 'object-changed' && runs.length === 0) summary.message = `no reconciler for ${route.event.apiVersion} ${route.event.kind}`;
    }
    log(JSON.stringify(summary));
    return summary;
  };
}

async function runOne(run: ReconcileDeps['run'], reconciler: Reconciler, scope: Scope): Promise<RunSummary> {
  const head = { reconciler: reconciler.kind, apiVersion: reconciler.apiVersion, scope: describeScope(scope) };
  const started = Date.now();
  try {
    const r = await run(reconciler, scope);
    return { ...head, acted: r.acted, applied: r.applied, conflicts: r.conflicts, failed: r.failed.length, apiCalls: r.apiCalls, durationMs: r.durationMs };
  } catch (e) {
    return { ...head, acted: false, applied: 0, conflicts: 0, failed: 0, apiCalls: 0, durationMs: Date.now() - started, error: e instanceof Error ? e.message : String(e) };
  }
}

function describeScope(scope: Scope): RunSummary['scope'] {
  return scope.kind === 'all' ? 'all' : scope.objects.map((o) => (o.namespace ? `${o.namespace}/${o.name}` : o.name));
}

/** The API-server client this environment describes (see the header). Builds nothing until first called. */
export function kubeSourceFromEnv(env: Record<string, string | undefined>, secrets?: () => SecretsClient): KubeSource {
  if (env.KUBECONFIG) {
    const path = env.KUBECONFIG;
    return kubeConfigSource(async () => loadKubeConfig(path));
  }
  if (env.KS_KUBECONFIG_SECRET_ARN) {
    const arn = env.KS_KUBECONFIG_SECRET_ARN;
    const client = secrets ?? (() => new SecretsManagerClient({}));
    return kubeConfigSource(() => readKubeconfigSecret(client(), arn));
  }
  const missing = ['KS_EKS_CLUSTER', 'KS_EKS_ENDPOINT', 'KS_EKS_CA_DATA', 'AWS_REGION'].filter((k) => !env[k]);
  if (missing.length) {
    throw new Error(`no cluster configured: set KUBECONFIG, KS_KUBECONFIG_SECRET_ARN, or KS_EKS_CLUSTER + KS_EKS_ENDPOINT + KS_EKS_CA_DATA (missing: ${missing.join(', ')})`);
  }
  const cluster = { name: env.KS_EKS_CLUSTER!, endpoint: env.KS_EKS_ENDPOINT!, caData: env.KS_EKS_CA_DATA! };
  return eksKubeSource(cluster, cachedEksToken({ clusterName: cluster.name, region: env.AWS_REGION!, credentials: credentialsFromEnv(env) }));
}

/** Wires the real reconcilers and runner; imported lazily so a cold start only loads them when first invoked. */
async function handlerFromEnv(env: Record<string, string | undefined>): Promise<ReconcileHandler> {
  const clusterId = env.KS_CLUSTER_ID;
  if (!clusterId) throw new Error('KS_CLUSTER_ID must be set to the cluster id webhooks put in change events');
  const kube = kubeSourceFromEnv(env);
  const [{ reconcilers }, { runReconciler }] = await Promise.all([import('../../src/reconcile/all.js'), import('../../src/reconcile/runner.js')]);
  // One invocation at a time per execution environment, so its log stream names the lease holder;
  // runReconciler releases the lease when done.
  const identity = `lambda-${env.AWS_LAMBDA_LOG_STREAM_NAME ?? process.pid}`;
  const log = (m: string) => console.log(m);
  // KS_EDGE_URL + KS_SYNC_TOKEN: the edge (Worker) whose webhooks read pushed state.
  const edge = env.KS_EDGE_URL && env.KS_SYNC_TOKEN ? { baseUrl: env.KS_EDGE_URL.replace(/\/$/, ''), clusterId, syncToken: env.KS_SYNC_TOKEN } : undefined;
  const afterResync = edge
    ? async () => {
        const [{ pushCollections }, { stateCollections }] = await Promise.all([import('../../src/admission/push.js'), import('../../src/registry.js')]);
        const k = await kube();
        return (await pushCollections(edge, (v, kind, o) => k.list(v, kind, o), stateCollections())).map((p) => `${p.collection}: ${p.mode} ${p.changed}/${p.items}`);
      }
    : undefined;
  const ledgers = edge ? (await import('../../src/admission/ledger-client.js')).remoteLedgers(edge) : undefined;
  return makeReconcileHandler({
    reconcilers: reconcilers(),
    clusterId,
    log,
    run: async (reconciler, scope) => runReconciler(await kube(), reconciler, { scope, identity, log, ...(ledgers ? { ledgers } : {}) }),
    ...(afterResync ? { afterResync } : {}),
  });
}

let wired: Promise<ReconcileHandler> | undefined;
export const handler: ReconcileHandler = async (event, context) => {
  if (!wired) {
    const wiring = handlerFromEnv(process.env);
    wiring.catch(() => wired === wiring && (wired = undefined));
    wired = wiring;
  }
  return (await wired)(event, context);
};
