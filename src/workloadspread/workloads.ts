// Which workloads WorkloadSpread understands (../shared/SEMANTICS.md §3.2, §3.3): the built-in kinds, the
// custom kinds whitelisted in kruise-configuration, how many replicas a target asks for, and the
// version key a pod's subset statuses are kept under.
import { isRecord } from '../kube/validation.js';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  CUSTOM_WORKLOAD_WHITELIST_KEY,
  POD_TEMPLATE_HASH_LABEL,
  VERSION_IGNORED,
  groupOf,
  type WorkloadSpreadTargetFilter,
} from './types.js';

export type GroupVersionKind = { group: string; version: string; kind: string };
export type CustomWorkload = GroupVersionKind & { subResources: GroupVersionKind[]; replicasPath: string };
export type CustomWorkloadWhitelist = { workloads: CustomWorkload[] };

/** Built-in kinds and the groups each may come from. */
export const BUILTIN_WORKLOADS: readonly { kind: string; groups: readonly string[] }[] = [
  { kind: 'Deployment', groups: ['apps'] },
  { kind: 'CloneSet', groups: ['apps.kruise.io'] },
  { kind: 'ReplicaSet', groups: ['apps'] },
  { kind: 'Job', groups: ['batch'] },
  { kind: 'StatefulSet', groups: ['apps', 'apps.kruise.io'] },
];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

// Go decodes the inline schema.GroupVersionKind case-insensitively ("group" or "Group").
function gvkOf(v: unknown): GroupVersionKind {
  const o = isRecord(v) ? v : {};
  return { group: str(o.group ?? o.Group), version: str(o.version ?? o.Version), kind: str(o.kind ?? o.Kind) };
}

export type WhitelistParse = { whitelist: CustomWorkloadWhitelist } | { error: string };

/** The custom workload whitelist from kruise-configuration's data; absent key ⇒ empty list. */
export function parseCustomWorkloadWhitelist(data: Readonly<Record<string, string>> | undefined): WhitelistParse {
  const raw = data?.[CUSTOM_WORKLOAD_WHITELIST_KEY];
  if (!raw) return { whitelist: { workloads: [] } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return { error: `${CUSTOM_WORKLOAD_WHITELIST_KEY}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const list = isRecord(parsed) && Array.isArray(parsed.workloads) ? parsed.workloads : [];
  return {
    whitelist: {
      workloads: list.map((w) => ({
        ...gvkOf(w),
        subResources: isRecord(w) && Array.isArray(w.subResources) ? w.subResources.map(gvkOf) : [],
        replicasPath: isRecord(w) ? str(w.replicasPath) : '',
      })),
    },
  };
}

/** Whether pods owned by this kind are handled at all (§3.3 step 1): built-ins, whitelisted kinds and their subresources. */
export function isHandledKind(apiVersion: string | undefined, kind: string | undefined, whitelist: CustomWorkloadWhitelist): boolean {
  const group = groupOf(apiVersion);
  if (BUILTIN_WORKLOADS.some((w) => w.kind === kind && w.groups.includes(group))) return true;
  return whitelist.workloads.some(
    (w) => (w.kind === kind && w.group === group) || w.subResources.some((s) => s.kind === kind && s.group === group),
  );
}

/** Integer at a dot-separated path; array indexes are numbers (`spec.groups.1.replicas`). Missing ⇒ 0. */
export function integerAtPath(obj: unknown, path: string): number {
  if (!path) return 0;
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (Array.isArray(cur)) cur = cur[Number(part)];
    else if (isRecord(cur)) cur = cur[part];
    else return 0;
  }
  return typeof cur === 'number' && Number.isInteger(cur) ? cur : 0;
}

type Workload = { apiVersion?: string; kind?: string; spec?: Record<string, unknown> };

/**
 * The replicas percentages of maxReplicas refer to: targetFilter.replicasPathList summed when
 * given; else spec.replicas (spec.parallelism for Jobs, the whitelist's replicasPath for custom
 * kinds). A missing target counts as 0 (§3.3).
 */
export function workloadReplicas(target: Workload | undefined, filter: WorkloadSpreadTargetFilter | undefined, whitelist: CustomWorkloadWhitelist): number {
  if (!target) return 0;
  if (filter?.replicasPathList?.length) return filter.replicasPathList.reduce((sum, p) => sum + integerAtPath(target, p), 0);
  const group = groupOf(target.apiVersion);
  if (target.kind === 'Job' && group === 'batch') return integerAtPath(target, 'spec.parallelism');
  if (BUILTIN_WORKLOADS.some((w) => w.kind === target.kind && w.groups.includes(group))) return integerAtPath(target, 'spec.replicas');
  const custom = whitelist.workloads.find((w) => w.kind === target.kind && w.group === group);
  return custom ? integerAtPath(target, custom.replicasPath) : 0;
}

/** Kinds whose pods keep per-version subset statuses (OpenKruise flag default "deployment,replicaset"). */
export const VERSIONED_KINDS: ReadonlySet<string> = new Set(['deployment', 'replicaset']);

type PodLike = { metadata?: { labels?: Record<string, string>; ownerReferences?: { kind?: string; controller?: boolean }[] } };

/** The short form of a controller-revision-hash: the part after its last '-'. */
export function shortHash(hash: string): string {
  return hash.slice(hash.lastIndexOf('-') + 1);
}

/** The key of the pod's versioned subset statuses (§3.3): pod-template-hash, short revision hash, or versionIgnored. */
export function podVersion(pod: PodLike, versionedKinds: ReadonlySet<string> = VERSIONED_KINDS): string {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller);
  // A pod is never itself one of those kinds, so only its controller decides.
  if (!owner || !versionedKinds.has((owner.kind ?? '').toLowerCase())) return VERSION_IGNORED;
  const labels = pod.metadata?.labels ?? {};
  const templateHash = labels[POD_TEMPLATE_HASH_LABEL];
  if (templateHash !== undefined) return templateHash;
  const revision = labels[CONTROLLER_REVISION_HASH_LABEL];
  return revision !== undefined ? shortHash(revision) : VERSION_IGNORED;
}
