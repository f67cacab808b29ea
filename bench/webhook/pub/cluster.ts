// The pub scenario's cluster: one namespace with a hot PodUnavailableBudget over 100 pods and 100
// more PUBs of 10 pods each, every pod stamped `kruise.io/related-pub` and Ready; a Lister over it
// for pushes, the ledger resyncs the controller would apply, and eviction AdmissionReviews
// (pods/eviction CREATE, as the API server sends them to `validate-pod`).
import type { Lister } from '../../../src/edge-state/live-state.js';
import type { PubResyncRequest } from '../../../src/pub/index.js';

export const PUB_NAMESPACE = 'payments';
export const HOT_PUB = 'hot';
export const HOT_PODS = 100;
export const SPREAD_PUBS = 100;
export const SPREAD_PODS = 10;
/** Each budget lets this many pods go per round; every further eviction is refused (a drain retrying). */
export const ALLOWANCE = 5;

export const spreadPub = (i: number): string => `spread-${String(i).padStart(3, '0')}`;
const podsOf = (pub: string, n: number) => Array.from({ length: n }, (_, i) => `${pub}-${i}`);
const PUBS = [{ name: HOT_PUB, pods: HOT_PODS }, ...Array.from({ length: SPREAD_PUBS }, (_, i) => ({ name: spreadPub(i), pods: SPREAD_PODS }))];

/** Lists the cluster as the pushing reconciler would (kinds the features read but the bench has none of: empty). */
export const benchList: Lister = async (apiVersion, kind) => {
  const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: PUB_NAMESPACE, uid: `uid-${name}`, resourceVersion: '1', ...extra });
  if (kind === 'PodUnavailableBudget') {
    return { resourceVersion: '1', items: PUBS.map((p) => ({ apiVersion, kind, metadata: meta(p.name, { generation: 1 }), spec: { selector: { matchLabels: { pub: p.name } }, maxUnavailable: ALLOWANCE } })) };
  }
  if (kind === 'Pod') {
    const items = PUBS.flatMap((p) => podsOf(p.name, p.pods).map((name) => ({ apiVersion, kind, metadata: meta(name, { labels: { pub: p.name }, annotations: { 'kruise.io/related-pub': p.name } }) })));
    return { resourceVersion: '1', items };
  }
  return { resourceVersion: '1', items: [] };
};

/** The controller's resync of every budget: all pods available, ALLOWANCE of them may go. */
export function resyncRequests(round: string): { pub: string; req: PubResyncRequest }[] {
  return PUBS.map((p) => ({
    pub: p.name,
    req: {
      // A new uid per round: the budget starts afresh, as for a recreated PUB.
      pub: p.name, uid: `uid-${p.name}-${round}`, generation: 1, desiredAvailable: p.pods - ALLOWANCE, totalReplicas: p.pods,
      protectOperations: ['UPDATE', 'DELETE', 'EVICT'], pods: Object.fromEntries(podsOf(p.name, p.pods).map((n) => [n, 'available' as const])), observedAt: Date.now(),
    },
  }));
}

export type Reviews = { uids: string[]; bodies: string[] };

function evictionReview(uid: string, pod: string): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid, kind: { group: 'policy', version: 'v1beta1', kind: 'Eviction' }, resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'eviction',
      requestKind: { group: 'policy', version: 'v1beta1', kind: 'Eviction' }, requestResource: { group: '', version: 'v1', resource: 'pods' }, requestSubResource: 'eviction',
      name: pod, namespace: PUB_NAMESPACE, operation: 'CREATE', userInfo: { username: 'system:serviceaccount:kube-system:drain' }, dryRun: false,
      object: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: pod, namespace: PUB_NAMESPACE } },
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
  });
}

/** Evictions cycling over the hot PUB's pods, or over the 100 PUBs (one pod of each in turn). */
export function evictionReviews(target: 'hot' | 'spread', count: number): Reviews {
  const uids: string[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const pod = target === 'hot' ? `${HOT_PUB}-${i % HOT_PODS}` : `${spreadPub(i % SPREAD_PUBS)}-${Math.floor(i / SPREAD_PUBS) % SPREAD_PODS}`;
    const uid = `evict-${target}-${i}`;
    uids.push(uid);
    bodies.push(evictionReview(uid, pod));
  }
  return { uids, bodies };
}

/** An answer is a decision: allowed, or the budget's 429 with the spec's message. */
export function isDecision(text: string): boolean {
  return text.includes('"allowed":true') || (text.includes('"code":429') && text.includes('pub unavailable allowed is negative'));
}
