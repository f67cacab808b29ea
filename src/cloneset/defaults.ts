// CloneSet defaults as OpenKruise's mutating webhook sets them (SetDefaultsCloneSet): replicas 1,
// revisionHistoryLimit 10, updateStrategy type ReCreate, partition 0, maxUnavailable 20%,
// maxSurge 0, and an empty inPlaceUpdateStrategy for the in-place types. The pod template's own
// defaults are the pod's (src/kube/pod-defaults.ts). Pure: returns a copy.
import type { IntOrString } from '../kube/intstr.js';
import { isRecord } from '../kube/validation.js';

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
    scaleStrategy?: { podsToDelete?: string[]; maxUnavailable?: IntOrString; disablePVCReuse?: boolean };
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

export function defaultedCloneSet(input: CloneSetLike): CloneSetLike {
  const cs = structuredClone(input);
  const spec = isRecord(cs.spec) ? cs.spec : (cs.spec = {});
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
