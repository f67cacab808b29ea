// CloneSet defaults as OpenKruise's mutating webhook sets them (SetDefaultsCloneSet): replicas 1,
// revisionHistoryLimit 10, updateStrategy type ReCreate, partition 0, maxUnavailable 20%,
// maxSurge 0, and an empty inPlaceUpdateStrategy for the in-place types; with `template`, also the
// pod template's defaults (src/workload/template-defaults.ts) and the claim templates'. Pure:
// returns a copy.
import type { CloneSet } from '../api/apps/cloneset.js';
import type { Loose } from '../api/kind.js';
import { defaultResourceList } from '../kube/pod-defaults.js';
import { isRecord } from '../kube/validation.js';
import { defaultedTemplateSpec } from '../workload/template-defaults.js';

export const DEFAULT_MAX_UNAVAILABLE = '20%';

/** A CloneSet as validation and defaulting read it (an admitted object is untrusted). */
export type CloneSetLike = { metadata?: CloneSet['metadata']; spec: Loose<CloneSet['spec']> };

/** SetDefaults_PersistentVolumeClaim on a claim template, in place. */
function defaultClaimTemplate(claim: unknown): void {
  if (!isRecord(claim)) return;
  const spec = isRecord(claim.spec) ? claim.spec : (claim.spec = {});
  spec.volumeMode ??= 'Filesystem';
  if (isRecord(spec.resources)) {
    defaultResourceList(spec.resources.limits);
    defaultResourceList(spec.resources.requests);
  }
  const status = isRecord(claim.status) ? claim.status : (claim.status = {});
  if (!status.phase) status.phase = 'Pending';
}

export function defaultedCloneSet(input: CloneSetLike, opts: { template?: boolean } = {}): CloneSetLike {
  const cs = structuredClone(input);
  const spec = isRecord(cs.spec) ? cs.spec : (cs.spec = {});
  if (opts.template) {
    const template = isRecord(spec.template) ? spec.template : (spec.template = {});
    template.spec = defaultedTemplateSpec(template.spec);
    for (const claim of spec.volumeClaimTemplates ?? []) defaultClaimTemplate(claim);
  }
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'ReCreate';
  else if (strategy.type === 'InPlaceIfPossible' || strategy.type === 'InPlaceOnly') strategy.inPlaceUpdateStrategy ??= {};
  strategy.partition ??= 0;
  strategy.maxUnavailable ??= DEFAULT_MAX_UNAVAILABLE;
  strategy.maxSurge ??= 0;
  return cs;
}
