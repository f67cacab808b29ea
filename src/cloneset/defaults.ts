// CloneSet defaults as OpenKruise's mutating webhook sets them (SetDefaultsCloneSet): replicas 1,
// revisionHistoryLimit 10, updateStrategy type ReCreate, partition 0, maxUnavailable 20%,
// maxSurge 0, and an empty inPlaceUpdateStrategy for the in-place types; with `template`, also the
// pod template's defaults (src/workload/template-defaults.ts) and the claim templates'. Pure:
// returns a copy.
import type { IntOrString } from '../kube/intstr.js';
import { defaultResourceList } from '../kube/pod-defaults.js';
import { isRecord } from '../kube/validation.js';
import { defaultedTemplateSpec } from '../workload/template-defaults.js';

export const DEFAULT_MAX_UNAVAILABLE = '20%';

/** The parts of a CloneSet validation and defaulting read, loosely typed (an admitted object is untrusted). */
export type CloneSetLike = {
  metadata?: { name?: string; namespace?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    replicas?: number;
    selector?: unknown;
    template?: Record<string, unknown>;
    volumeClaimTemplates?: unknown[];
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    scaleStrategy?: { podsToDelete?: string[]; maxUnavailable?: IntOrString; disablePVCReuse?: boolean; excludePreparingDelete?: boolean };
    updateStrategy?: {
      type?: string;
      partition?: IntOrString;
      maxUnavailable?: IntOrString;
      maxSurge?: IntOrString;
      paused?: boolean;
      priorityStrategy?: unknown;
      scatterStrategy?: unknown;
      inPlaceUpdateStrategy?: { gracePeriodSeconds?: number };
    };
    lifecycle?: unknown;
    [k: string]: unknown;
  };
};

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
