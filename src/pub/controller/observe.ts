// What the PUB reconciler reads: the PUBs in scope, then, per namespace that has one, its Pods and
// ReplicaSets, the scale of each workload involved (GET, reading spec.replicas), and — through the
// edge's ledgers the runtime lends — each PUB's budget as the edge holds it. No writes: decide plans
// the ledger resync.
import type { LedgerRef, Ledgers } from '../../edge-state/ledger.js';
import { isNotFound } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import { pubLedgerRef } from '../ledger.js';
import { podWorkload, replicaSetsIn, type Owned, type WorkloadRef } from '../related.js';
import type { PubBudgetState } from '../budget-state.js';
import type { PubResyncRequest } from '../resync.js';
import { PUB_API_VERSION, PUB_KIND, type PodUnavailableBudget } from '../types.js';
import { assessPub, scaleOfWorkload, targetWorkload, workloadKey, type PubAssessment, type Scale } from './assess.js';

/** The edge's budget for a PUB (null: never synced), or why it could not be read. */
export type LedgerAnswer = { state: PubBudgetState | null } | { error: string };

export type PubObserved = {
  pubs: PodUnavailableBudget[];
  assessments: Map<string, PubAssessment>;
  /** Per PUB key (`ns/name`): the ledger as read; empty when the run has no edge. */
  ledger: Map<string, LedgerAnswer>;
  /** Active pods of the namespaces with PUBs, and the namespace's PUBs in list order (back-fill). */
  pods: Pod[];
  replicaSets: Owned[];
  observedAt: number;
};

export type PubObserveOptions = { ledgers?: Ledgers; now?: () => number };
export type { PubResyncRequest };

export const pubKey = (pub: PodUnavailableBudget): string => `${pub.metadata?.namespace ?? ''}/${pub.metadata?.name ?? ''}`;

async function listPubs(kube: KubeReader): Promise<PodUnavailableBudget[]> {
  try {
    return (await kube.list<KubeObject>(PUB_API_VERSION, PUB_KIND)).items as unknown as PodUnavailableBudget[];
  } catch (e) {
    if (isNotFound(e) || (e instanceof Error && /does not serve/.test(e.message))) return [];
    throw e;
  }
}

const apiVersionOf = (w: WorkloadRef, pubRef?: string): string => pubRef ?? (w.group === '' ? 'v1' : w.group === 'apps' ? 'apps/v1' : `${w.group}/v1alpha1`);

async function readScale(kube: KubeReader, namespace: string, w: WorkloadRef, apiVersion: string): Promise<Scale> {
  try {
    return scaleOfWorkload(w, await kube.get<KubeObject & { spec?: { replicas?: unknown } }>(apiVersion, w.kind, w.name, namespace));
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

async function readLedger(ledgers: Ledgers, ref: LedgerRef): Promise<LedgerAnswer> {
  try {
    return { state: await ledgers.apply<PubBudgetState | null>(ref, 'read', undefined) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export async function observePubs(kube: KubeReader, scope: Scope, opts: PubObserveOptions = {}): Promise<PubObserved> {
  const now = opts.now ?? Date.now;
  const all = await listPubs(kube);
  const pubs = scope.kind === 'all' ? all : all.filter((p) => scope.objects.some((o) => o.name === p.metadata?.name && (!o.namespace || o.namespace === p.metadata?.namespace)));
  const namespaces = [...new Set(pubs.map((p) => p.metadata?.namespace ?? ''))].sort();
  const perNs = await Promise.all(
    namespaces.map(async (namespace) => {
      const [pods, rs] = await Promise.all([kube.list<KubeObject>('v1', 'Pod', { namespace }), kube.list<KubeObject>('apps/v1', 'ReplicaSet', { namespace })]);
      return { namespace, pods: pods.items as unknown as Pod[], replicaSets: rs.items as unknown as Owned[] };
    }),
  );
  const observedAt = now();

  // Every workload whose scale some PUB needs: targetRefs, and the workloads of selector PUBs' pods.
  const wanted = new Map<string, { namespace: string; w: WorkloadRef; apiVersion: string }>();
  for (const p of pubs) {
    const t = targetWorkload(p);
    const ns = p.metadata?.namespace ?? '';
    if (t) wanted.set(workloadKey(ns, t), { namespace: ns, w: t, apiVersion: p.spec?.targetRef?.apiVersion ?? apiVersionOf(t) });
  }
  for (const { namespace, pods, replicaSets } of perNs) {
    const rsMap = replicaSetsIn(namespace, replicaSets);
    for (const pod of pods) {
      const w = podWorkload(pod, rsMap);
      const owner = w && (pod.metadata.ownerReferences as { apiVersion?: string; kind?: string }[] | undefined)?.find((o) => o.kind === w.kind);
      if (w && !wanted.has(workloadKey(namespace, w))) wanted.set(workloadKey(namespace, w), { namespace, w, apiVersion: owner?.apiVersion ?? apiVersionOf(w) });
    }
  }
  const scales = new Map<string, Scale>(
    await Promise.all([...wanted].map(async ([k, { namespace, w, apiVersion }]) => [k, await readScale(kube, namespace, w, apiVersion)] as const)),
  );

  const assessments = new Map<string, PubAssessment>();
  for (const p of pubs) {
    const ns = perNs.find((x) => x.namespace === p.metadata?.namespace)!;
    assessments.set(pubKey(p), assessPub(p, ns.pods, replicaSetsIn(ns.namespace, ns.replicaSets), scales, observedAt));
  }
  const ledger = new Map<string, LedgerAnswer>();
  if (opts.ledgers) {
    const ledgers = opts.ledgers;
    await Promise.all(pubs.map(async (p) => ledger.set(pubKey(p), await readLedger(ledgers, pubLedgerRef(p.metadata?.namespace ?? '', p.metadata?.name ?? '')))));
  }
  return { pubs, assessments, ledger, pods: perNs.flatMap((n) => n.pods), replicaSets: perNs.flatMap((n) => n.replicaSets), observedAt };
}
