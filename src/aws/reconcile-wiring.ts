// The reconcile Lambda's production ports: the reconcilers this build runs (src/reconcilers.ts, as
// $KS_FEATURE_GATES and $KS_IMAGE_PULL_HELPER configure them), the runtime that runs them, pushes
// to the edge and its ledgers. They are imported lazily, so a cold start loads them only when the
// first invocation wires the handler.
import type { EdgeTarget } from '../edge-state/push.js';
import { isNotFound } from '../kube/errors.js';
import type { KubeSource } from './kube-source.js';
import { makeReconcileHandler, type ReconcileHandler } from './reconcile-handler.js';
import type { RequeueQueue } from './requeue.js';

export type ReconcileWiring = {
  clusterId: string;
  kube: KubeSource;
  identity: string;
  log: (line: string) => void;
  resyncEveryMs: number;
  /** The edge to push webhook state to and whose ledgers runs use. */
  edge?: EdgeTarget;
  queue?: RequeueQueue;
};

/** The production handler over the real reconcilers, runner, pushes and ledgers (the e2e drives it too). */
export async function wireReconcileHandler(w: ReconcileWiring): Promise<ReconcileHandler> {
  const [{ reconcilersFromEnv }, { runReconciler }] = await Promise.all([import('../reconcilers.js'), import('../reconcile/runner.js')]);
  const { edge, kube, log } = w;
  const pushEdge = edge
    ? async () => {
        const [{ pushCollections }, { stateCollections }] = await Promise.all([import('../edge-state/push.js'), import('../registry.js')]);
        const k = await kube();
        return (await pushCollections(edge, (v, kind, o) => k.list(v, kind, o), stateCollections())).map((p) => `${p.collection}: ${p.mode} ${p.changed}/${p.items}`);
      }
    : undefined;
  const ledgers = edge ? (await import('../edge-state/ledger-client.js')).remoteLedgers(edge) : undefined;
  if (!w.queue) log('KS_REQUEUE_QUEUE_URL is not set: wake-ups that runs ask for are not scheduled; the schedule alone converges');
  return makeReconcileHandler({
    reconcilers: reconcilersFromEnv(process.env),
    clusterId: w.clusterId,
    log,
    run: async (reconciler, scope) => runReconciler(await kube(), reconciler, { scope, identity: w.identity, log, ...(ledgers ? { ledgers } : {}) }),
    resyncEveryMs: w.resyncEveryMs,
    readVersion: async (ref) => {
      const k = await kube();
      try {
        const { resourceVersion, deletionTimestamp } = (await k.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)).metadata ?? {};
        return { ...(resourceVersion ? { resourceVersion } : {}), ...(typeof deletionTimestamp === 'string' ? { deletionTimestamp } : {}) };
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    ...(pushEdge ? { pushEdge } : {}),
    ...(w.queue ? { queue: w.queue } : {}),
  });
}
