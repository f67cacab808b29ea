// Helpers the BroadcastJob e2e files share: the job as a user writes it (on a pool of fake nodes
// that carry the pool's label and a NoSchedule taint only the pool's jobs tolerate, so jobs without
// a nodeSelector — the seeds — never land there), its pods, its status, and playing the pods'
// containers as they run to their end (the fake kubelet's completePod).
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import type { FakeKubelet } from '../../cluster/fake-kubelet.js';
import type { Pod } from './edge-env.js';

export const BCJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob' } as const;
export const POOL = 'e2e.kruise-serverless.io/bcj-pool';

export type BcjStatus = {
  active?: number; succeeded?: number; failed?: number; desired?: number; phase?: string; startTime?: string; completionTime?: string;
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
};
export type BcjObj = KubeObject & { metadata: { name: string; namespace: string; uid?: string }; spec: Record<string, unknown>; status?: BcjStatus };

/** A pool's fake nodes: its label and its taint. */
export const poolNodes = (pool: string, names: readonly string[], extra: { allocatable?: Record<string, string> } = {}) =>
  names.map((name) => ({ name, labels: { [POOL]: pool }, taints: [{ key: POOL, value: pool, effect: 'NoSchedule' }], ...extra }));

/** A job of one container `main` on the nodes of `pool`. */
export function bcjOf(ns: string, name: string, opts: { pool: string; spec?: Record<string, unknown>; podSpec?: Record<string, unknown> }): BcjObj {
  return {
    ...BCJ,
    metadata: { name, namespace: ns },
    spec: {
      template: {
        spec: {
          restartPolicy: 'Never', automountServiceAccountToken: false, terminationGracePeriodSeconds: 1,
          nodeSelector: { [POOL]: opts.pool }, tolerations: [{ key: POOL, operator: 'Exists', effect: 'NoSchedule' }],
          containers: [{ name: 'main', image: 'busybox' }],
          ...opts.podSpec,
        },
      },
      ...opts.spec,
    },
  };
}

export async function jobOf(kube: KubeHttp, ns: string, name: string): Promise<BcjObj | undefined> {
  return kube.get<BcjObj>(BCJ.apiVersion, BCJ.kind, name, ns).catch(() => undefined);
}

/** The pods labelled for the job (OpenKruise's broadcastjob-name label), whether or not it still exists. */
export async function podsOf(kube: KubeHttp, ns: string, name: string): Promise<Pod[]> {
  return (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: `broadcastjob-name=${name}` })).items;
}

export const live = (pods: Pod[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
export const nodeOf = (p: Pod) => p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0] ?? p.spec?.nodeName ?? '';
export const isRunning = (p: Pod) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running';

/** Its containers exit with `exitCode` as soon as each pod of the job runs, until stopped. */
export function runToEnd(kube: KubeHttp, kubelet: FakeKubelet, ns: string, name: string, exitCode = 0): { stop(): Promise<void> } {
  let on = true;
  const done = new Set<string>();
  const loop = (async () => {
    while (on) {
      for (const p of await podsOf(kube, ns, name).catch(() => [])) {
        if (isRunning(p) && !done.has(p.metadata.name)) {
          done.add(p.metadata.name);
          kubelet.completePod(ns, p.metadata.name, exitCode);
        }
      }
      await new Promise((r) => setTimeout(r, 30));
    }
  })();
  return { async stop() { on = false; await loop; } };
}

export function podLine(p: Pod): string {
  return `${p.metadata.name} ${nodeOf(p)} ${p.status?.phase ?? ''}${p.metadata.deletionTimestamp ? ' terminating' : ''}`;
}

export const eventsOf = async (kube: KubeHttp, ns: string, name: string) =>
  (await kube.list<KubeObject & { reason?: string; message?: string; type?: string; involvedObject?: { name?: string; kind?: string } }>('v1', 'Event', { namespace: ns })).items
    .filter((e) => e.involvedObject?.name === name && e.involvedObject.kind === 'BroadcastJob')
    .map((e) => `${e.type} ${e.reason}: ${e.message}`);
