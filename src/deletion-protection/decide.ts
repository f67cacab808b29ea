// May this object be deleted? (../shared/SEMANTICS.md §5): `Always` refuses; `Cascading` refuses while the
// object still has live dependents — pods, then Bound PVCs, for a Namespace; custom resources for
// a CRD; `spec.replicas > 0` for a workload; Services and Ingresses ignore it. Namespace and CRD
// counts come from the pushed counts (counts.ts); missing or stale counts refuse. Pure.
import { allow, deny, type Verdict } from '../admission/types.js';
import { COUNTS_MAX_AGE_MS, crdCountsKey, namespaceCountsKey, type ProtectionCounts } from './counts.js';
import {
  ALWAYS_MESSAGE,
  DELETE_PROTECTION_LABEL,
  activeCrsMessage,
  activePodsMessage,
  boundPvcMessage,
  listCrsErrorMessage,
  listPodsErrorMessage,
  listPvcErrorMessage,
  protectionOf,
  replicasMessage,
  type CascadeRule,
} from './types.js';

export type ProtectedObject = {
  metadata?: { name?: string; labels?: Record<string, string>; deletionTimestamp?: string | null };
  spec?: { replicas?: number | null };
};

/** The pushed counts as a handler sees them. */
export type CountsView =
  | { kind: 'fresh'; byKey: ReadonlyMap<string, ProtectionCounts> }
  | { kind: 'missing' }
  | { kind: 'stale'; ageMs: number };

export function countsView(snapshot: { items: ProtectionCounts[]; observedAt: number } | undefined, now: number): CountsView {
  if (!snapshot) return { kind: 'missing' };
  const age = now - snapshot.observedAt;
  if (age > COUNTS_MAX_AGE_MS) return { kind: 'stale', ageMs: age };
  return { kind: 'fresh', byKey: new Map(snapshot.items.map((c) => [c.metadata.name, c])) };
}

function unknownCounts(what: string, view: CountsView): Verdict {
  const why =
    view.kind === 'stale'
      ? `are ${Math.round(view.ageMs / 1000)}s old (limit ${COUNTS_MAX_AGE_MS / 1000}s)`
      : view.kind === 'missing'
        ? 'were never synced'
        : 'are not known yet (labelled after the last sync)';
  return deny(503, `forbidden by ResourcesProtectionDeletion for ${DELETE_PROTECTION_LABEL}=Cascading: the live objects of ${what} ${why}; retry shortly`);
}

function decideNamespace(name: string, view: CountsView): Verdict {
  const counts = view.kind === 'fresh' ? view.byKey.get(namespaceCountsKey(name)) : undefined;
  if (!counts) return unknownCounts(`namespace "${name}"`, view);
  if (counts.listError?.what === 'pods') return deny(403, listPodsErrorMessage(counts.listError.message));
  if (counts.listError?.what === 'pvc') return deny(403, listPvcErrorMessage(counts.listError.message));
  if ((counts.activePods ?? 0) > 0) return deny(403, activePodsMessage(counts.activePods!));
  if ((counts.boundPVCs ?? 0) > 0) return deny(403, boundPvcMessage(counts.boundPVCs!));
  return allow();
}

function decideCrd(name: string, view: CountsView): Verdict {
  const counts = view.kind === 'fresh' ? view.byKey.get(crdCountsKey(name)) : undefined;
  if (!counts) return unknownCounts(`customresourcedefinition "${name}"`, view);
  if (counts.listError) return deny(403, listCrsErrorMessage(counts.listError.gvk ?? name, counts.listError.message));
  if ((counts.activeCRs ?? 0) > 0) return deny(403, activeCrsMessage(counts.activeCRs!));
  return allow();
}

/** The verdict on deleting `old`, whose kind cascades by `rule`. */
export function decideDeletion(rule: CascadeRule, old: ProtectedObject | undefined, view: CountsView): Verdict {
  if (!old || old.metadata?.deletionTimestamp) return allow();
  const protection = protectionOf(old.metadata?.labels);
  if (!protection) return allow();
  if (protection === 'Always') return deny(403, ALWAYS_MESSAGE);
  const name = old.metadata?.name ?? '';
  switch (rule) {
    case 'namespace':
      return decideNamespace(name, view);
    case 'crd':
      return decideCrd(name, view);
    case 'replicas': {
      const replicas = old.spec?.replicas ?? 0;
      return replicas > 0 ? deny(403, replicasMessage(replicas)) : allow();
    }
    case 'none':
      return allow();
  }
}
