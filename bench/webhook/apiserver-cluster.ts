// The apiserver scenario's cluster: the sidecarset scenario's 1,000 SidecarSets (10 of them match
// the bench pod), their ControllerRevisions and the kruise-configuration ConfigMap, created in a
// real kube-apiserver, plus what the bench pod needs to be admitted there (its namespace, service
// account and priority class); and pod CREATEs through that API server, persisted or dry-run.
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { INJECTED_LIST_ANNOTATION } from '../../src/workload/sidecar-update-state.js';
import type { ControlPlane } from '../../test/cluster/control-plane.js';
import type { Send } from '../harness/load.js';
import { BENCH_NAMESPACE } from '../harness/pod-review.js';
import { matchedPodReviews, type BenchCluster, type MatchCount } from './sidecarset/cluster.js';

/** How many of the 1,000 sets match the pods this scenario creates. */
export const MATCHED: MatchCount = 10;
/** No scheduler serves it, so the created pods stay Pending untouched (no status writes) and are deleted at once. */
const SCHEDULER = 'bench-unscheduled';
const CREATE_CONCURRENCY = 16;

type Meta = { name?: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string; ownerReferences?: unknown; labels?: Record<string, string>; annotations?: Record<string, string> };
type Obj = KubeObject & { metadata?: Meta };

/** Without the fields the API server sets itself (a create must not carry a resourceVersion). */
function fresh(obj: object): Obj {
  const { metadata, ...rest } = obj as Obj;
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...meta } = metadata ?? {};
  return { ...rest, metadata: meta };
}

async function inParallel<T>(items: readonly T[], limit: number, each: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await check().catch((e: unknown) => void (last = e));
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The bench pod (bench/harness/pod-review.ts) labelled for MATCHED sets, as a client would create it. */
export function benchPod(): Obj {
  const review = JSON.parse(matchedPodReviews(MATCHED, 1).bodies[0]!) as { request: { object: Obj & { spec: Record<string, unknown> } } };
  const pod = review.request.object;
  // Its ReplicaSet does not exist here: the garbage collector would delete the pods meanwhile.
  delete pod.metadata?.ownerReferences;
  pod.spec.schedulerName = SCHEDULER;
  return pod;
}

/**
 * Creates the bench cluster's objects (before any webhook is registered, as if they predated the
 * install) and what the bench pod refers to. Returns how many objects it created.
 */
export async function seedCluster(kube: KubeHttp, cluster: BenchCluster): Promise<number> {
  const ns = cluster.namespaces.find((n) => (n.metadata as Meta).name === BENCH_NAMESPACE)!;
  const pod = benchPod() as Obj & { spec: { serviceAccountName: string; priorityClassName: string } };
  const prelude: Obj[] = [
    fresh(ns),
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: pod.spec.priorityClassName }, value: 1_000_000 } as Obj,
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: pod.spec.serviceAccountName, namespace: BENCH_NAMESPACE } },
  ];
  for (const o of prelude) await kube.create(o);
  const objects = [...cluster.sets, ...cluster.revisions, ...cluster.configMaps].map(fresh);
  await inParallel(objects, CREATE_CONCURRENCY, (o) => kube.create(o));
  // Kubernetes 1.20 mounts the service account's token secret: the token controller makes it.
  await until('the service account token', async () => {
    const sa = await kube.get<Obj & { secrets?: unknown[] }>('v1', 'ServiceAccount', pod.spec.serviceAccountName, BENCH_NAMESPACE);
    return sa.secrets?.length ? true : undefined;
  });
  return prelude.length + objects.length;
}

export type CreateMode = 'persisted' | 'dry-run';
export type PodLike = { metadata?: Meta; spec?: Record<string, unknown> };

/** Pod CREATEs in the bench namespace over keep-alive HTTPS as the cluster admin, the body serialised once. */
export class PodCreator {
  private readonly agent: Agent;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly body = JSON.stringify(benchPod());

  constructor(cp: ControlPlane, connections: number) {
    this.agent = new Agent({ connect: { ca: readFileSync(cp.pki.caCert, 'utf8') }, connections, keepAliveTimeout: 30_000 });
    this.url = `${cp.server}/api/v1/namespaces/${BENCH_NAMESPACE}/pods`;
    this.headers = { authorization: `Bearer ${cp.token}`, 'content-type': 'application/json', accept: 'application/json' };
  }

  private async post(mode: CreateMode): Promise<{ status: number; text: string }> {
    const url = mode === 'dry-run' ? `${this.url}?dryRun=All` : this.url;
    const res = await undiciFetch(url, { method: 'POST', body: this.body, headers: this.headers, dispatcher: this.agent });
    return { status: res.status, text: await res.text() };
  }

  /** A cheap per-request check: 201, and injected by the webhook exactly when `injected`. */
  send(mode: CreateMode, injected: boolean): Send {
    return async () => {
      const { status, text } = await this.post(mode);
      if (status !== 201) throw new Error(`${status} ${text.slice(0, 300)}`);
      return text.includes(INJECTED_LIST_ANNOTATION) === injected;
    };
  }

  /** One dry-run create, answered in full. */
  async dryRun(): Promise<PodLike> {
    const { status, text } = await this.post('dry-run');
    if (status !== 201) throw new Error(`dry-run pod create: ${status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as PodLike;
  }

  /** Waits until the API server applies (or no longer applies) our mutating webhook to pod creates. */
  async untilInjected(injected: boolean): Promise<PodLike> {
    return until(injected ? 'the webhooks to be called' : 'the webhooks to be gone', async () => {
      const pod = await this.dryRun();
      return (pod.metadata?.annotations?.[INJECTED_LIST_ANNOTATION] !== undefined) === injected ? pod : undefined;
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Deletes every pod of the bench namespace (unscheduled pods go at once). Returns how many. */
export async function deletePods(kube: KubeHttp): Promise<number> {
  const path = `/api/v1/namespaces/${BENCH_NAMESPACE}/pods`;
  const gone = await kube.request<{ items?: unknown[] }>('DELETE', path, { body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 } });
  await until('the bench pods to be deleted', async () => {
    const left = await kube.request<{ items: unknown[] }>('GET', path, { query: { limit: 1 } });
    return left.items.length === 0 ? true : undefined;
  });
  return gone.items?.length ?? 0;
}
