// The template generation (`deprecated.daemonset.template.generation`), as the apps/v1 API server
// keeps it for native DaemonSets: 1 on create, one more each time the template changes. Pods
// carry it as `pod-template-generation`, and a pod whose label equals the DaemonSet's counts as
// updated (util.IsPodUpdated). OpenKruise's webhook leaves the annotation alone, so an Advanced
// DaemonSet migrated from apps/v1 with it never rolls its pods again (the label keeps matching the
// stale annotation); here the webhook moves it as the native API server does. Pure.
import { TEMPLATE_GENERATION_ANNOTATION, type DaemonSetLike } from './types.js';

const generationOf = (ds: DaemonSetLike | undefined): bigint | undefined => {
  const v = ds?.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return v !== undefined && /^-?\d+$/.test(v) ? BigInt(v) : undefined;
};

/** `ds` (a copy) with the annotation set for a CREATE (`old` undefined) or an UPDATE from `old`. */
export function withTemplateGeneration<T extends DaemonSetLike>(ds: T, old?: DaemonSetLike): T {
  let next: bigint | undefined;
  if (!old) next = generationOf(ds) ?? 1n;
  else {
    const before = generationOf(old);
    const changed = JSON.stringify(ds.spec.template ?? null) !== JSON.stringify(old.spec.template ?? null);
    next = before === undefined ? generationOf(ds) : changed ? before + 1n : before;
  }
  if (next === undefined || generationOf(ds) === next) return ds;
  return { ...ds, metadata: { ...(ds.metadata ?? {}), annotations: { ...(ds.metadata?.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(next) } } };
}
