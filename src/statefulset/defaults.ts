// Advanced StatefulSet defaults as OpenKruise's mutating webhook sets them (SetDefaultsStatefulSet,
// apis/apps/defaults/v1beta1.go, with its default feature gates): replicas 1, revisionHistoryLimit
// 10, podManagementPolicy OrderedReady, updateStrategy RollingUpdate and, for that type,
// rollingUpdate's partition 0, maxUnavailable 1, podUpdatePolicy ReCreate and minReadySeconds 0;
// persistentVolumeClaimRetentionPolicy Retain/Retain (StatefulSetAutoDeletePVC, on by default);
// with `template`, also the pod template's defaults (src/workload/template-defaults.ts) and the
// claim templates'. volumeClaimUpdateStrategy is left alone: OpenKruise defaults it only under the
// StatefulSetAutoResizePVCGate gate, off by default. The InPlaceUpdateReady readiness gate is not
// added: OpenKruise requires it in the template (validate.ts) rather than injecting it.
//
// An admitted object is untrusted (the API server checks the schema only after mutating webhooks):
// a field of the wrong type is left as it is, for the schema check to refuse. Pure: returns a copy.
import type { RollingUpdateStatefulSetStrategy, StatefulSetSpec } from '../api/apps/statefulset.js';
import type { Loose, ObjectMeta } from '../api/kind.js';
import { defaultResourceList } from '../kube/pod-defaults.js';
import { isRecord } from '../kube/validation.js';
import { defaultedTemplateSpec } from '../workload/template-defaults.js';

export const DEFAULT_REPLICAS = 1;
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
export const DEFAULT_MAX_UNAVAILABLE = 1;

/** spec.updateStrategy.rollingUpdate as defaulting and validation read it (untrusted). */
export type RollingUpdateLike = Loose<RollingUpdateStatefulSetStrategy>;

/** The parts of an Advanced StatefulSet (v1beta1, or v1alpha1 served with the same schema) defaulting and validation read (an admitted object is untrusted). */
export type StatefulSetLike = { metadata?: ObjectMeta; spec: Loose<StatefulSetSpec> };

type Obj = Record<string, unknown>;
const unset = (v: unknown) => v === undefined || v === null;
const blank = (v: unknown) => unset(v) || v === '';

/** The object at `parent[key]`, created when absent; undefined when something else is there. */
function objectAt(parent: Obj, key: string): Obj | undefined {
  if (unset(parent[key])) parent[key] = {};
  const v = parent[key];
  return isRecord(v) ? v : undefined;
}

/** SetDefaults_PersistentVolumeClaim (the phase) and SetDefaults_ResourceList on a claim template, in place. */
function defaultClaimTemplate(claim: unknown): void {
  if (!isRecord(claim)) return;
  const spec = isRecord(claim.spec) ? claim.spec : undefined;
  if (spec && isRecord(spec.resources)) {
    defaultResourceList(spec.resources.limits);
    defaultResourceList(spec.resources.requests);
  }
  const status = objectAt(claim, 'status');
  if (!status) return;
  if (blank(status.phase)) status.phase = 'Pending';
  defaultResourceList(status.capacity);
}

function defaultRollingUpdate(ru: Obj): void {
  if (unset(ru.partition)) ru.partition = 0;
  if (unset(ru.maxUnavailable)) ru.maxUnavailable = DEFAULT_MAX_UNAVAILABLE;
  if (blank(ru.podUpdatePolicy)) ru.podUpdatePolicy = 'ReCreate';
  if (unset(ru.minReadySeconds)) ru.minReadySeconds = 0;
}

/** A defaulted copy; `template` also defaults the pod template and the claim templates. */
export function defaultedStatefulSet<T extends StatefulSetLike>(input: T, opts: { template?: boolean } = {}): T {
  const sts = structuredClone(input);
  const root = sts as unknown as Obj;
  const spec = objectAt(root, 'spec');
  if (!spec) return sts;
  if (blank(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
  const strategy = objectAt(spec, 'updateStrategy');
  if (strategy) {
    if (blank(strategy.type)) strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const ru = objectAt(strategy, 'rollingUpdate');
      if (ru) defaultRollingUpdate(ru);
    }
  }
  const retention = objectAt(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention) {
    if (blank(retention.whenDeleted)) retention.whenDeleted = 'Retain';
    if (blank(retention.whenScaled)) retention.whenScaled = 'Retain';
  }
  if (unset(spec.replicas)) spec.replicas = DEFAULT_REPLICAS;
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = DEFAULT_REVISION_HISTORY_LIMIT;
  if (opts.template) {
    const template = objectAt(spec, 'template');
    if (template && (unset(template.spec) || isRecord(template.spec))) template.spec = defaultedTemplateSpec(template.spec);
    if (Array.isArray(spec.volumeClaimTemplates)) for (const claim of spec.volumeClaimTemplates) defaultClaimTemplate(claim);
  }
  return sts;
}
