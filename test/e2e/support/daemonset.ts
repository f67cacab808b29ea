// Helpers the Advanced DaemonSet e2e files share: the object as a user writes it, its pods, its
// status, its nodes (fake nodes with a pool label the DaemonSet's nodeSelector picks), and one
// line per pod for failure messages.
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import { formatLabelSelector, type LabelSelector } from '../../../src/kube/selectors.js';
import type { Pod } from './edge-env.js';

export const ADS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet' } as const;
export const POOL = 'e2e.kruise-serverless.io/ads-pool';

export type DsStatus = {
  observedGeneration?: number; desiredNumberScheduled?: number; currentNumberScheduled?: number; numberMisscheduled?: number; numberReady?: number;
  updatedNumberScheduled?: number; numberAvailable?: number; numberUnavailable?: number; daemonSetHash?: string;
};
export type DsObj = KubeObject & { metadata: { name: string; namespace: string; uid?: string; generation?: number; annotations?: Record<string, string> }; spec: Record<string, unknown>; status?: DsStatus };

/** A DaemonSet of one container `main`, on the nodes of `pool` (every node without one). */
export function daemonSetOf(ns: string, name: string, opts: { pool?: string; image?: string; rollingUpdate?: Record<string, unknown>; extra?: Record<string, unknown>; annotations?: Record<string, string> } = {}): DsObj {
  return {
    ...ADS,
    metadata: { name, namespace: ns, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: opts.rollingUpdate ?? {} },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          automountServiceAccountToken: false, terminationGracePeriodSeconds: 1,
          ...(opts.pool ? { nodeSelector: { [POOL]: opts.pool } } : {}),
          containers: [{ name: 'main', image: opts.image ?? 'app:1' }],
        },
      },
      ...opts.extra,
    },
  };
}

export const live = (pods: Pod[]) => pods.filter((p) => !p.metadata.deletionTimestamp);

/** The pods the DaemonSet controls (by its selector and controller reference); none once it is gone. */
export async function podsOf(kube: KubeHttp, ns: string, name: string): Promise<Pod[]> {
  const ds = await kube.get<DsObj>(ADS.apiVersion, ADS.kind, name, ns).catch(() => undefined);
  if (!ds) return [];
  const pods = (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: formatLabelSelector(ds.spec.selector as LabelSelector) })).items;
  return pods.filter((p) => (p.metadata as { ownerReferences?: { uid?: string }[] }).ownerReferences?.some((o) => o.uid === ds.metadata.uid));
}

export async function dsOf(kube: KubeHttp, ns: string, name: string): Promise<DsObj> {
  return kube.get<DsObj>(ADS.apiVersion, ADS.kind, name, ns);
}

const cond = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type)?.status;
/** Available as the DaemonSet counts it (minReadySeconds 0): Ready, and not mid in-place update. */
export const podAvailable = (p: Pod) => !p.metadata.deletionTimestamp && cond(p, 'Ready') === 'True' && cond(p, 'InPlaceUpdateReady') !== 'False';
export const nodeOf = (p: Pod) => p.spec?.nodeName ?? p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0] ?? '';

/** Every node has exactly one live pod, at `image`, available, and status says all are updated. */
export async function rolledOut(kube: KubeHttp, ns: string, name: string, nodes: readonly string[], image: string): Promise<DsObj | undefined> {
  // Pods on other nodes (a node deleted earlier, its pod left to the pod GC) are not looked at.
  const pods = (await podsOf(kube, ns, name)).filter((p) => nodes.includes(nodeOf(p)));
  const ds = await dsOf(kube, ns, name);
  const s = ds.status;
  if (pods.length !== nodes.length || !nodes.every((n) => live(pods).filter((p) => nodeOf(p) === n).length === 1)) return undefined;
  if (!pods.every((p) => podAvailable(p) && p.spec?.containers[0]!.image === image && p.metadata.labels?.['controller-revision-hash'] === s?.daemonSetHash)) return undefined;
  return s?.observedGeneration === ds.metadata.generation && s?.updatedNumberScheduled === nodes.length && s.numberAvailable === nodes.length && s.desiredNumberScheduled === nodes.length ? ds : undefined;
}

export function podLine(p: Pod): string {
  const conds = (p.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',');
  return `${p.metadata.name} ${p.metadata.labels?.['controller-revision-hash'] ?? ''} ${p.spec?.containers[0]?.image ?? ''} ${nodeOf(p)}${p.metadata.deletionTimestamp ? ' terminating' : ''} ${conds}`;
}

/** Per node: live pods of one revision more than once, more live pods than `maxPerNode`. */
export function placementViolations(pods: Pod[], maxPerNode: number): string[] {
  const out: string[] = [];
  const byNode = new Map<string, Pod[]>();
  for (const p of live(pods)) byNode.set(nodeOf(p), [...(byNode.get(nodeOf(p)) ?? []), p]);
  for (const [node, ps] of byNode) {
    if (ps.length > maxPerNode) out.push(`node ${node}: ${ps.length} live pods (max ${maxPerNode}): ${ps.map((p) => p.metadata.name).join(' ')}`);
    const revs = ps.map((p) => p.metadata.labels?.['controller-revision-hash']);
    const twice = revs.filter((r, i) => revs.indexOf(r) !== i);
    if (twice.length) out.push(`node ${node}: two live pods of revision ${twice[0]}`);
  }
  return out;
}
