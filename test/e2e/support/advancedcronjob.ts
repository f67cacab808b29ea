// Helpers for the AdvancedCronJob e2e files: objects, children, the minute boundary, and
// completing a child as its own controller would (the test control plane has no Job controller,
// and these files run no BroadcastJob controller).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { KubeApiError } from '../../../src/kube/errors.js';
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import { REPO_ROOT } from '../../cluster/control-plane.js';

export const ACJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob' } as const;
export const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;
export const BCJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob' } as const;
export const SCHEDULED_AT = 'apps.kruise.io/scheduled-at';

export type Meta = {
  name: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string; deletionTimestamp?: string;
  labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[];
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  managedFields?: { time?: string; operation?: string }[];
};
export type AcjObj = KubeObject & { metadata: Meta; spec: Record<string, unknown>; status?: { type?: string; active?: { name: string; uid?: string }[]; lastScheduleTime?: string } };
export type ChildObj = KubeObject & { metadata: Meta; spec?: Record<string, unknown>; status?: Record<string, unknown> };

export const POD_TEMPLATE = { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['true'] }] } };

export function seedAcj(file: string, ns: string, name?: string): AcjObj {
  const obj = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as AcjObj;
  return { ...obj, metadata: { ...obj.metadata, ...(name ? { name } : {}), namespace: ns } };
}

export function jobAcj(ns: string, name: string, spec: Record<string, unknown> = {}): AcjObj {
  return { ...ACJ, metadata: { name, namespace: ns }, spec: { schedule: '*/1 * * * *', timeZone: 'UTC', template: { jobTemplate: { metadata: { labels: { acj: name } }, spec: { template: POD_TEMPLATE } } }, ...spec } };
}

export function bcjAcj(ns: string, name: string, spec: Record<string, unknown> = {}): AcjObj {
  return { ...ACJ, metadata: { name, namespace: ns }, spec: { schedule: '*/1 * * * *', timeZone: 'UTC', template: { broadcastJobTemplate: { metadata: { labels: { acj: name } }, spec: { template: POD_TEMPLATE } } }, ...spec } };
}

export const acjOf = (kube: KubeHttp, ns: string, name: string) => kube.get<AcjObj>(ACJ.apiVersion, ACJ.kind, name, ns);

/** The children of `acj` (by controller uid), of the kind its template makes. */
export async function childrenOf(kube: KubeHttp, acj: AcjObj, kind: typeof JOB | typeof BCJ = JOB): Promise<ChildObj[]> {
  const items = (await kube.list<ChildObj>(kind.apiVersion, kind.kind, { namespace: acj.metadata.namespace })).items;
  return items.filter((c) => c.metadata.ownerReferences?.some((o) => o.controller && o.uid === acj.metadata.uid)).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/** A child made by hand (an earlier run's), owned by `acj`. */
export function handChild(acj: AcjObj, name: string, kind: typeof JOB | typeof BCJ = JOB): ChildObj {
  const spec = kind === JOB ? { template: POD_TEMPLATE } : { template: POD_TEMPLATE };
  return {
    ...kind,
    metadata: { name, namespace: acj.metadata.namespace, ownerReferences: [{ ...ACJ, name: acj.metadata.name, uid: acj.metadata.uid!, controller: true, blockOwnerDeletion: true }] },
    spec,
  };
}

/**
 * Sets a child's status as its controller would when it finishes (Complete or Failed). The test
 * control plane runs kube-controller-manager: its Job controller rewrites a running Job's status
 * from a fresh read, which can drop ours, so the patch is repeated until the condition stays (a
 * finished Job it leaves alone).
 */
export async function finish(kube: KubeHttp, child: ChildObj, how: 'Complete' | 'Failed', startTime = new Date()): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const start = startTime.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const ref = { apiVersion: child.apiVersion, kind: child.kind, metadata: { name: child.metadata.name, namespace: child.metadata.namespace } };
  const status = {
    startTime: start,
    ...(how === 'Complete' ? { completionTime: now, succeeded: 1 } : { failed: 1 }),
    conditions: [{ type: how, status: 'True', lastProbeTime: now, lastTransitionTime: now }],
  };
  for (let i = 0; i < 20; i++) {
    await kube.patch(ref, { status }, 'merge', 'status');
    await new Promise((r) => setTimeout(r, 100));
    const got = await kube.get<ChildObj>(child.apiVersion!, child.kind!, child.metadata.name, child.metadata.namespace).catch((e: unknown) => {
      // Gone already (a history limit of 0 deletes it as soon as it finished): finished, then.
      if (e instanceof KubeApiError && e.status === 404) return undefined;
      throw e;
    });
    if (!got) return;
    const conds = (got.status?.conditions ?? []) as { type?: string; status?: string }[];
    if (conds.some((c) => c.type === how && c.status === 'True')) return;
  }
  throw new Error(`${child.kind} ${child.metadata.name}: the ${how} condition does not stay`);
}

/** Sets a child's start time only (it is running). */
export async function start(kube: KubeHttp, child: ChildObj, startTime: Date): Promise<void> {
  await kube.patch({ apiVersion: child.apiVersion, kind: child.kind, metadata: { name: child.metadata.name, namespace: child.metadata.namespace } }, { status: { startTime: startTime.toISOString().replace(/\.\d{3}Z$/, 'Z') } }, 'merge', 'status');
}

/** The next minute boundary (ms since the epoch). */
export const nextMinute = (now = Date.now()) => Math.floor(now / 60_000) * 60_000 + 60_000;
export const childNameAt = (acj: string, minute: number) => `${acj}-${minute / 1000}`;

/** Events about `name` in `ns` (events.k8s.io or core), reasons only. */
export async function eventReasons(kube: KubeHttp, ns: string, name: string): Promise<string[]> {
  const items = (await kube.list<KubeObject & { involvedObject?: { name?: string }; reason?: string }>('v1', 'Event', { namespace: ns })).items;
  return items.filter((e) => e.involvedObject?.name === name).map((e) => e.reason ?? '');
}
