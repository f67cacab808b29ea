// A subset's workload as OpenKruise's adapters write it (ApplySubsetTemplate): the template's
// metadata and spec; labels = template labels + selector matchLabels + subset name + revision;
// the selector gains the subset label; replicas and (StatefulSet kinds, CloneSet) the partition
// set; the pod template labelled with the subset and revision, the subset's nodeSelectorTerm
// merged into every required node term, its tolerations appended, then its patch strategic-merged;
// the patch kept in an annotation; a controller reference to the UnitedDeployment. Pure.
//
// Naming: OpenKruise creates it with generateName `<ud>-<subset>-`. A create with generateName
// cannot be made idempotent (a killed run that created one, re-run, creates a second), so the
// name is chosen here, deterministically: the same prefix and five characters from the generateName
// alphabet hashed from the UnitedDeployment's uid and the subset. generateName is still set, so the
// stored object reads as OpenKruise's would. A doubled or repeated create then fails AlreadyExists;
// duplicates made by anyone else (an OpenKruise manager before us) are deleted by decide.
import { strategicMergePodTemplate } from '../kube/strategic-merge.js';
import { isDNS1123Subdomain, isRecord } from '../kube/validation.js';
import { fnv1_32 } from '../workload/revisions.js';
import {
  SUBSET_NAME_LABEL,
  SUBSET_PATCH_ANNOTATION,
  TEMPLATE_KINDS,
  UD_API_VERSION,
  UD_KIND,
  UD_REVISION_LABEL,
  type Subset,
  type TemplateField,
  type UnitedDeploymentLike,
  type Workload,
} from './types.js';
import { controllerReference } from '../kube/owner-reference.js';

export type SubsetUpdate = { replicas: number; partition: number; patch: string };

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** getSubsetPrefix: `<ud>-<subset>-`, or `<ud>-` when that is no valid name prefix. */
export function subsetPrefix(udName: string, subset: string): string {
  const prefix = `${udName}-${subset}-`;
  // NameIsDNSSubdomain(prefix, true): the prefix plus a generated suffix must make a valid name.
  return isDNS1123Subdomain(`${prefix}a`).length === 0 && prefix.length <= 253 - 5 ? prefix : `${udName}-`;
}

/** The deterministic name of a subset's workload (see the header). */
export function subsetWorkloadName(ud: UnitedDeploymentLike, subset: string): string {
  let h = fnv1_32(new TextEncoder().encode(`${ud.metadata.uid ?? ud.metadata.name ?? ''}/${subset}`));
  let suffix = '';
  for (let i = 0; i < 5; i++) {
    suffix += SAFE_ALPHABET[h % SAFE_ALPHABET.length];
    h = Math.floor(h / SAFE_ALPHABET.length);
  }
  return `${subsetPrefix(ud.metadata.name ?? '', subset)}${suffix}`;
}

/** The subset's patch as the annotation holds it ("" without one). */
export const patchString = (subset: Subset): string => (subset.patch == null ? '' : JSON.stringify(subset.patch));

const hasPartition = (field: TemplateField) => field !== 'deploymentTemplate';

/** The partition a workload has now (undefined for kinds without one). */
export function partitionOf(field: TemplateField, w: Workload): number | undefined {
  const strategy = isRecord(w.spec.updateStrategy) ? w.spec.updateStrategy : {};
  if (field === 'cloneSetTemplate') return typeof strategy.partition === 'number' ? strategy.partition : 0;
  if (!hasPartition(field)) return undefined;
  const rolling = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
  return typeof rolling.partition === 'number' ? rolling.partition : 0;
}

function withPartition(field: TemplateField, spec: Record<string, unknown>, partition: number): void {
  if (!hasPartition(field)) return;
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (field === 'cloneSetTemplate') {
    strategy.partition = partition;
    return;
  }
  // A StatefulSet's partition is a RollingUpdate field: an OnDelete template keeps none.
  if (strategy.type !== undefined && strategy.type !== '' && strategy.type !== 'RollingUpdate') return;
  strategy.type = 'RollingUpdate';
  const rolling = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
  rolling.partition = partition;
}

type PodSpecLike = Record<string, unknown> & { affinity?: Record<string, unknown>; tolerations?: unknown[] };

/** attachNodeAffinity: the subset's matchExpressions added to every required term (one empty term made if none). */
function attachNodeAffinity(podSpec: PodSpecLike, subset: Subset): void {
  const expressions = subset.nodeSelectorTerm?.matchExpressions ?? [];
  if (!expressions.length) return;
  const affinity = isRecord(podSpec.affinity) ? podSpec.affinity : (podSpec.affinity = {});
  const nodeAffinity = isRecord(affinity.nodeAffinity) ? affinity.nodeAffinity : (affinity.nodeAffinity = {});
  const required = isRecord(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution)
    ? nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
    : (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {});
  const terms = Array.isArray(required.nodeSelectorTerms) && required.nodeSelectorTerms.length ? (required.nodeSelectorTerms as Record<string, unknown>[]) : [{}];
  required.nodeSelectorTerms = terms.map((t) => ({ ...t, matchExpressions: [...((t.matchExpressions as unknown[] | undefined) ?? []), ...structuredClone(expressions)] }));
}

/** The workload a subset should have, at `revision`, with `update`'s replicas, partition and patch. */
export function desiredWorkload(ud: UnitedDeploymentLike, field: TemplateField, subset: Subset, revision: string, update: SubsetUpdate): Workload {
  const template = ud.spec.template?.[field] ?? {};
  const name = subset.name ?? '';
  const spec = structuredClone(template.spec ?? {}) as Workload['spec'];
  const selector = structuredClone(ud.spec.selector ?? {});
  spec.selector = { ...selector, matchLabels: { ...(selector.matchLabels ?? {}), [SUBSET_NAME_LABEL]: name } };
  spec.replicas = update.replicas;
  withPartition(field, spec, update.partition);
  const pod = isRecord(spec.template) ? spec.template : {};
  const podMeta = isRecord(pod.metadata) ? pod.metadata : {};
  const podSpec = (isRecord(pod.spec) ? pod.spec : {}) as PodSpecLike;
  const podLabels = { ...((podMeta.labels as Record<string, string> | undefined) ?? {}), [SUBSET_NAME_LABEL]: name, [UD_REVISION_LABEL]: revision };
  attachNodeAffinity(podSpec, subset);
  if (subset.tolerations) podSpec.tolerations = [...(podSpec.tolerations ?? []), ...structuredClone(subset.tolerations)];
  let podTemplate: Record<string, unknown> = { ...pod, metadata: { ...podMeta, labels: podLabels }, spec: podSpec };
  if (subset.patch != null) podTemplate = strategicMergePodTemplate(podTemplate, subset.patch);
  spec.template = podTemplate;
  const udName = ud.metadata.name ?? '';
  return {
    apiVersion: TEMPLATE_KINDS[field].apiVersion,
    kind: TEMPLATE_KINDS[field].kind,
    metadata: {
      name: subsetWorkloadName(ud, name),
      generateName: subsetPrefix(udName, name),
      namespace: ud.metadata.namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...(ud.spec.selector?.matchLabels ?? {}), [UD_REVISION_LABEL]: revision, [SUBSET_NAME_LABEL]: name },
      annotations: { ...(template.metadata?.annotations ?? {}), [SUBSET_PATCH_ANNOTATION]: update.patch },
      ownerReferences: [controllerReference(UD_API_VERSION, UD_KIND, { name: udName, uid: ud.metadata.uid })],
    },
    spec,
  };
}

/** Why a workload must be updated (OpenKruise's order of checks), or undefined. */
export function updateReason(field: TemplateField, w: Workload, revision: string, update: SubsetUpdate): string | undefined {
  const current = w.metadata.labels?.[UD_REVISION_LABEL];
  if (current !== revision) return `revision ${current ?? '(none)'} → ${revision}`;
  if ((w.spec.replicas ?? 1) !== update.replicas) return `replicas ${w.spec.replicas ?? 1} → ${update.replicas}`;
  const partition = partitionOf(field, w);
  if (partition !== undefined && partition !== update.partition) return `partition ${partition} → ${update.partition}`;
  if ((w.metadata.annotations?.[SUBSET_PATCH_ANNOTATION] ?? '') !== update.patch) return 'patch changed';
  return undefined;
}

/**
 * UpdateSubset: the stored workload with the desired labels, annotations and spec laid over it.
 * The selector and a StatefulSet's volumeClaimTemplates stay as stored (immutable); fields the API server defaulted and the template does
 * not name are kept, so the PUT changes only what the UnitedDeployment decides.
 */
export function updatedWorkload(stored: Workload, desired: Workload): Workload {
  return {
    ...stored,
    metadata: {
      ...stored.metadata,
      labels: { ...(stored.metadata.labels ?? {}), ...(desired.metadata.labels ?? {}) },
      annotations: { ...(stored.metadata.annotations ?? {}), ...(desired.metadata.annotations ?? {}) },
    },
    spec: {
      ...stored.spec,
      ...desired.spec,
      selector: stored.spec.selector,
      // Immutable, and stored with the API server's defaults (which the template lacks).
      ...(stored.spec.volumeClaimTemplates !== undefined ? { volumeClaimTemplates: stored.spec.volumeClaimTemplates } : {}),
    },
  };
}
