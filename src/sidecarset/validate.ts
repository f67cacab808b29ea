// SidecarSet validation on CREATE and UPDATE (../shared/SEMANTICS.md §2.3; OpenKruise
// pkg/webhook/sidecarset/validating). Pure: the cluster state the check needs (other SidecarSets,
// Namespace labels, the patch whitelist, revisions) comes in `ctx`. Field paths and messages are
// OpenKruise's, including its odd paths (`spec.container.podInjectPolicy`, `revision`,
// `spec[0].transferEnv.fieldRef`). Where an OpenKruise gap would let a SidecarSet break every pod
// it matches, we reject it instead (§8); each such place says so.
import type { V1ControllerRevision } from '@kubernetes/client-node';
import type { FieldError } from '../kube/field-errors.js';
import { goRegExp } from './go-regexp.js';
import { initResourcesPolicyErrors, resourcesPolicyErrors } from './resources-policy-validation.js';
import { validatePodParts, splitSubscriptedPath } from '../kube/pod-validation.js';
import {
  NEGATIVE_ERROR,
  goLabelSelector,
  isQualifiedName,
  isRecord,
  isValidPercent,
  maxLenError,
  regexError,
  validateAnnotations,
  validateLabels,
  validateLabelSelector,
  type LabelSelector,
  type Labels,
} from '../kube/validation.js';
import * as labelSelectors from '../kube/selectors.js';
import { isNativeSidecar } from './hash.js';
import { restoreSidecarSet } from './revision.js';
import { CUSTOM_VERSION_LABEL, PATCH_POD_METADATA_WHITELIST_KEY, SIDECARSET_NAME_LABEL, type SidecarSet } from './types.js';

type Obj = Record<string, unknown>;
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((e) => (isRecord(e) ? e : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const set = (v: unknown) => v !== undefined && v !== null;
const specOf = (s: SidecarSet | undefined): Obj => (isRecord((s as Obj | undefined)?.spec) ? ((s as Obj).spec as Obj) : {});
const nameOf = (s: SidecarSet): string => str(s.metadata?.name);
const selectorOf = (v: unknown): LabelSelector | undefined => (isRecord(v) ? (v as LabelSelector) : undefined);
type MatcherSelector = Parameters<typeof labelSelectors.matchesLabelSelector>[0] & object;
const isEmptySelector = (sel: LabelSelector) => labelSelectors.isEmptySelector(sel as MatcherSelector);
const matchesLabelSelector = (sel: LabelSelector, labels: Labels) => labelSelectors.matchesLabelSelector(sel as MatcherSelector, labels);

/** The `SidecarSet_PatchPodMetadata_WhiteList` value of the kruise-configuration ConfigMap. */
export type PatchMetadataWhitelist = { rules?: { selector?: LabelSelector | null; allowedAnnotationKeyExprs?: string[] | null }[] | null };

/** The whitelist as read: missing (ConfigMap or key absent), present, or unreadable. */
export type WhitelistLookup = { found: false } | { found: true; whitelist: PatchMetadataWhitelist } | { error: string };

export type SidecarSetValidationContext = {
  /** The stored object, on UPDATE. */
  oldSet?: SidecarSet;
  /** Every SidecarSet in the cluster (this one, if listed, is skipped by name). */
  otherSets: readonly SidecarSet[];
  /** A Namespace's labels, or undefined when there is no such Namespace. */
  namespaceLabels: (name: string) => Labels | undefined;
  patchMetadataWhitelist: WhitelistLookup;
  /** ControllerRevisions in the Kruise namespace. */
  revisions: readonly V1ControllerRevision[];
  /** Feature gate SidecarSetPatchPodMetadataDefaultsAllowed (off by default). */
  patchPodMetadataDefaultsAllowed?: boolean;
};

// ---- metadata -------------------------------------------------------------------------------

const NAME_FMT = '^[a-zA-Z0-9\\-]+$';

function sidecarSetNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (!/^[a-zA-Z0-9-]+$/.test(name)) errs.push(regexError("sidecarset name must consist of alphanumeric characters or '-'", NAME_FMT, 'example-com'));
  if (new TextEncoder().encode(name).length > 63) errs.push(maxLenError(63));
  return errs;
}

/** genericvalidation.ValidateObjectMeta for a cluster-scoped object named like a SidecarSet. */
function validateMeta(meta: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = str(meta.generateName);
  if (generateName) for (const detail of sidecarSetNameErrors(generateName)) errs.push({ field: `${field}.generateName`, type: 'Invalid', value: generateName, detail });
  const name = str(meta.name);
  if (!name) errs.push({ field: `${field}.name`, type: 'Required', detail: 'name or generateName is required' });
  else for (const detail of sidecarSetNameErrors(name)) errs.push({ field: `${field}.name`, type: 'Invalid', value: name, detail });
  if (str(meta.namespace)) errs.push({ field: `${field}.namespace`, type: 'Forbidden', detail: 'not allowed on this type' });
  errs.push(...validateLabels(meta.labels, `${field}.labels`), ...validateAnnotations(meta.annotations, `${field}.annotations`));
  return errs;
}

// ---- selectors and strategies ---------------------------------------------------------------

/** validateSelector: a valid, non-empty label selector. */
function validateSelector(sel: LabelSelector, field: string): FieldError[] {
  const problems = validateLabelSelector(sel, field);
  const errs = [...problems];
  if (isEmptySelector(sel)) errs.push({ field, type: 'Invalid', goValue: goLabelSelector(sel), detail: 'empty selector is not valid for sidecarset.' });
  // LabelSelectorAsSelector fails on exactly what ValidateLabelSelector reports; OpenKruise adds
  // one more, detail-less error for it.
  if (problems.length > 0) errs.push({ field: `${field}.selector`, type: 'Invalid', goValue: goLabelSelector(sel), detail: '' });
  return errs;
}

/** Go's `%#v` of an intstr.IntOrString. */
function goIntOrString(v: unknown): string {
  return typeof v === 'string'
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`
    : `intstr.IntOrString{Type:0, IntVal:${String(v)}, StrVal:""}`;
}

/** appsvalidation.ValidatePositiveIntOrPercent. */
function validateIntOrPercent(v: unknown, field: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((detail) => ({ field, type: 'Invalid', goValue: goIntOrString(v), detail }));
  if (typeof v === 'number') return v < 0 ? [{ field, type: 'Invalid', value: v, detail: NEGATIVE_ERROR }] : [];
  return [{ field, type: 'Invalid', value: v, detail: "must be an integer or percentage (e.g '5%')" }];
}

function priorityStrategyError(p: unknown): string | undefined {
  if (!isRecord(p)) return undefined;
  const weights = objects(p.weightPriority);
  const orders = objects(p.orderPriority);
  if (weights.length > 0 && orders.length > 0) return 'only one of weightPriority and orderPriority can be used';
  for (const w of weights) {
    const weight = typeof w.weight === 'number' ? w.weight : 0;
    if (weight < 0 || weight > 100) return 'weight must be valid number in the range 1-100';
    const sel = selectorOf(w.matchSelector) ?? {};
    if (isEmptySelector(sel)) return 'selector can not be empty';
    const bad = validateLabelSelector(sel, 'matchSelector')[0];
    if (bad) return `invalid selector ${bad.detail}`;
  }
  for (const o of orders) if (!str(o.orderedKey)) return 'order key can not be empty';
  return undefined;
}

function scatterStrategyError(terms: unknown): string | undefined {
  const seen = new Set<string>();
  for (const t of objects(terms)) {
    if (!str(t.key)) return 'key should not be empty';
    const id = `${str(t.key)}:${str(t.value)}`;
    if (seen.has(id)) return `duplicated key=${str(t.key)} value=${str(t.value)}`;
    seen.add(id);
  }
  return undefined;
}

function validateUpdateStrategy(strategy: Obj): FieldError[] {
  if (strategy.type !== 'RollingUpdate') return [];
  const at = 'spec.updateStrategy';
  const errs: FieldError[] = [];
  const partitionSet = typeof strategy.partition === 'string' || (typeof strategy.partition === 'number' && strategy.partition !== 0);
  if (partitionSet && set(strategy.selector)) errs.push({ field: 'updateStrategy', type: 'Invalid', value: strategy, detail: 'Partition and Selector cannot be used together' });
  if (set(strategy.selector)) errs.push(...validateSelector(selectorOf(strategy.selector) ?? {}, `${at}.selector`));
  if (set(strategy.partition)) errs.push(...validateIntOrPercent(strategy.partition, `${at}.partition`));
  if (set(strategy.maxUnavailable)) errs.push(...validateIntOrPercent(strategy.maxUnavailable, `${at}.maxUnavailable`));
  const priority = priorityStrategyError(strategy.priorityStrategy);
  if (priority) errs.push({ field: `${at}.priorityStrategy`, type: 'Required', detail: priority });
  const scatter = scatterStrategyError(strategy.scatterStrategy);
  if (scatter) errs.push({ field: `${at}.scatterStrategy`, type: 'Required', detail: scatter });
  return errs;
}

// ---- injection revision (§2.4.3) --------------------------------------------------------------

/** The ControllerRevision `injectionStrategy.revision` names, or why there is none (OpenKruise's error text). */
export function findInjectionRevision(
  sidecarSet: SidecarSet,
  revisions: readonly V1ControllerRevision[],
): { revision: V1ControllerRevision } | { error: string } | undefined {
  const info = specOf(sidecarSet).injectionStrategy;
  const rev = isRecord(info) && isRecord(info.revision) ? info.revision : undefined;
  if (!rev) return undefined;
  if (set(rev.revisionName)) {
    const name = str(rev.revisionName);
    const found = revisions.find((r) => r.metadata?.name === name);
    return found ? { revision: found } : { error: `controllerrevisions.apps ${JSON.stringify(name)} not found` };
  }
  if (set(rev.customVersion)) {
    const matching = revisions.filter(
      (r) => r.metadata?.labels?.[SIDECARSET_NAME_LABEL] === nameOf(sidecarSet) && r.metadata?.labels?.[CUSTOM_VERSION_LABEL] === str(rev.customVersion),
    );
    if (matching.length === 0) return { error: `ControllerRevision.apps ${JSON.stringify(nameOf(sidecarSet))} not found` };
    const latest = matching.reduce((a, b) => {
      const d = (a.revision ?? 0) - (b.revision ?? 0);
      return d > 0 || (d === 0 && str(a.metadata?.name) > str(b.metadata?.name)) ? a : b;
    });
    return { revision: latest };
  }
  return undefined;
}

function validateInjectionStrategy(s: SidecarSet, revisions: readonly V1ControllerRevision[]): FieldError[] {
  const info = specOf(s).injectionStrategy;
  const rev = isRecord(info) && isRecord(info.revision) ? info.revision : undefined;
  if (!rev) return [];
  const errs: FieldError[] = [];
  if (!set(rev.revisionName) && !set(rev.customVersion)) {
    errs.push({ field: 'revision', type: 'Invalid', value: rev, detail: 'revisionName and customVersion cannot be empty simultaneously' });
  } else {
    // GetHistorySidecarSet: the revision must exist and its data must restore the SidecarSet.
    const found = findInjectionRevision(s, revisions);
    const restored = found && 'revision' in found ? restoreSidecarSet(s, found.revision, () => ({ hash: '-', withoutImage: '-' })) : undefined;
    const error = found && 'error' in found ? found.error : restored && 'error' in restored ? restored.error : undefined;
    if (error) errs.push({ field: 'revision', type: 'Invalid', goValue: '"null"', detail: `Cannot find specific ControllerRevision, err: ${error}` });
  }
  const policy = str(rev.policy);
  if (!['', 'Always', 'Partial'].includes(policy)) {
    errs.push({ field: 'revision.policy', type: 'Invalid', value: rev, detail: `Invalid policy ${policy}, supported: [Always, Partial]` });
  }
  return errs;
}

// ---- containers -------------------------------------------------------------------------------

/** validateDownwardAPI: transferEnv[].sourceContainerNameFrom.fieldRef names a pod label or annotation. */
function validateTransferEnv(transferEnv: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const t of objects(transferEnv)) {
    const ref = isRecord(t.sourceContainerNameFrom) && isRecord(t.sourceContainerNameFrom.fieldRef) ? t.sourceContainerNameFrom.fieldRef : undefined;
    if (!ref) continue;
    if (!str(ref.apiVersion)) {
      errs.push({ field: `${field}.apiVersion`, type: 'Required', detail: '' });
      continue;
    }
    const path = str(ref.fieldPath);
    if (!path) {
      errs.push({ field: `${field}.fieldPath`, type: 'Required', detail: '' });
      continue;
    }
    const sub = splitSubscriptedPath(path);
    let why: string | undefined;
    if (ref.apiVersion !== 'v1') why = `unsupported pod version: ${str(ref.apiVersion)}`;
    else if (!sub) why = `field label not supported: ${path}`;
    else if (sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') why = `field path not supported: ${sub[0]}`;
    if (why || !sub) {
      errs.push({ field: `${field}.fieldPath`, type: 'Invalid', value: path, detail: `error converting fieldPath: ${why}` });
      continue;
    }
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    for (const detail of isQualifiedName(key)) errs.push({ field, type: 'Invalid', value: sub[1], detail });
  }
  return errs;
}

/** The dummy container OpenKruise adds to its synthetic pod when the set has no containers. */
const PLACEHOLDER_CONTAINER = { name: 'test', image: 'busybox', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' };

function validateContainers(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, c] of objects(spec.initContainers).entries()) errs.push(...initResourcesPolicyErrors(c, `spec[${i}].resourcesPolicy`));
  const containers = objects(spec.containers);
  for (const [i, c] of containers.entries()) {
    const policy = str(c.podInjectPolicy);
    if (policy !== 'BeforeAppContainer' && policy !== 'AfterAppContainer') {
      errs.push({ field: 'spec.container.podInjectPolicy', type: 'Invalid', value: policy, detail: 'unsupported pod inject policy' });
    }
    const share = isRecord(c.shareVolumePolicy) ? str(c.shareVolumePolicy.type) : '';
    if (share !== 'enabled' && share !== 'disabled') {
      errs.push({ field: 'spec.container.shareVolumePolicy', type: 'Invalid', goValue: `v1alpha1.ShareVolumePolicy{Type:${JSON.stringify(share)}}`, detail: 'unsupported share volume policy' });
    }
    errs.push(...validateTransferEnv(c.transferEnv, `spec[${i}].transferEnv.fieldRef`), ...resourcesPolicyErrors(c, `spec[${i}].resourcesPolicy`));
  }
  errs.push(
    ...validatePodParts({
      initContainers: spec.initContainers,
      containers: containers.length > 0 ? containers : [PLACEHOLDER_CONTAINER],
      volumes: spec.volumes,
    }),
  );
  // §2.4.7/§8: OpenKruise accepts a HotUpgrade sidecar without hotUpgradeEmptyImage, and then
  // injects a container without image into every matching pod, which the API server rejects.
  // A native sidecar init container with HotUpgrade is paired the same way.
  const paired = [
    ...objects(spec.initContainers).map((c, i) => ({ c, at: `spec.initContainers[${i}]` })).filter(({ c }) => isNativeSidecar(c)),
    ...containers.map((c, i) => ({ c, at: `spec.containers[${i}]` })),
  ];
  for (const { c, at } of paired) {
    const upgrade = isRecord(c.upgradeStrategy) ? c.upgradeStrategy : {};
    if (upgrade.upgradeType === 'HotUpgrade' && !str(upgrade.hotUpgradeEmptyImage)) {
      errs.push({
        field: `${at}.upgradeStrategy.hotUpgradeEmptyImage`,
        type: 'Required',
        detail: 'a HotUpgrade sidecar needs an empty image for its idle copy; without one every pod it is injected into is rejected',
      });
    }
  }
  return errs;
}

// ---- patchPodMetadata ---------------------------------------------------------------------------

/** Reads the whitelist from the kruise-configuration ConfigMap's data (pkg/util/configuration). */
export function parsePatchMetadataWhitelist(data: Readonly<Record<string, string>> | null | undefined): WhitelistLookup {
  const raw = data?.[PATCH_POD_METADATA_WHITELIST_KEY];
  if (raw === undefined) return { found: false };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return { error: `invalid ${PATCH_POD_METADATA_WHITELIST_KEY} in ConfigMap kruise-configuration: ${(e as Error).message}` };
  }
  if (value === null) return { found: true, whitelist: {} };
  if (!isRecord(value) || (set(value.rules) && !Array.isArray(value.rules))) {
    return { error: `invalid ${PATCH_POD_METADATA_WHITELIST_KEY} in ConfigMap kruise-configuration: expected {"rules":[…]}` };
  }
  return { found: true, whitelist: value as PatchMetadataWhitelist };
}

/** ValidateSidecarSetPatchMetadataWhitelist: the error text, or undefined when allowed. */
function whitelistError(s: SidecarSet, ctx: SidecarSetValidationContext): string | undefined {
  const patches = objects(specOf(s).patchPodMetadata);
  if (patches.length === 0) return undefined;
  const lookup = ctx.patchMetadataWhitelist;
  if ('error' in lookup) return lookup.error;
  if (!lookup.found) return ctx.patchPodMetadataDefaultsAllowed ? undefined : 'SidecarSet patch metadata whitelist not found';
  const regexps: RegExp[] = [];
  for (const rule of lookup.whitelist.rules ?? []) {
    if (rule?.selector) {
      const bad = (rule.selector.matchExpressions ?? []).find((r) => !['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(str(r.operator)));
      if (bad) return `${JSON.stringify(str(bad.operator))} is not a valid pod selector operator`;
      if (!matchesLabelSelector(rule.selector, s.metadata?.labels ?? {})) continue;
    }
    for (const expr of rule?.allowedAnnotationKeyExprs ?? []) {
      try {
        regexps.push(goRegExp(expr));
      } catch (e) {
        return `error parsing regexp: ${(e as Error).message}`;
      }
    }
  }
  if (regexps.length === 0) return ctx.patchPodMetadataDefaultsAllowed ? undefined : 'sidecarSet patch metadata annotation is not allowed';
  for (const patch of patches) {
    for (const key of Object.keys(isRecord(patch.annotations) ? patch.annotations : {}).sort()) {
      if (!regexps.some((r) => r.test(key))) return `sidecarSet patch metadata annotation(${key}) is not allowed`;
    }
  }
  return undefined;
}

function validatePatchPodMetadata(s: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  const at = 'spec.patchPodMetadata';
  const errs: FieldError[] = [];
  const whitelist = whitelistError(s, ctx);
  if (whitelist) errs.push({ field: at, type: 'Required', detail: whitelist });
  const seen = new Set<string>();
  for (const patch of objects(specOf(s).patchPodMetadata)) {
    const annotations = isRecord(patch.annotations) ? patch.annotations : {};
    if (Object.keys(annotations).length === 0) errs.push({ field: at, type: 'Required', detail: 'no annotations defined for SidecarSet' });
    else errs.push(...validateAnnotations(annotations, 'patchPodMetadata.annotations'));
    if (!str(patch.patchPolicy)) errs.push({ field: at, type: 'Required', detail: 'no patchPolicy defined for patchPodMetadata' });
    for (const key of Object.keys(annotations).sort()) {
      if (seen.has(key)) errs.push({ field: at, type: 'Required', detail: `patch annotation[${key}] already exist` });
      seen.add(key);
    }
  }
  return errs;
}

// ---- spec and update ----------------------------------------------------------------------------

function validateSpec(s: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  const spec = specOf(s);
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  const errs: FieldError[] = [];
  for (const c of objects(spec.initContainers)) {
    if (isNativeSidecar(c) && strategy.type === 'RollingUpdate') {
      errs.push({ field: 'spec.updateStrategy', type: 'Required', detail: 'The initContainer in-place upgrade is not currently supported.' });
    }
  }
  if (!set(spec.selector)) errs.push({ field: 'spec.selector', type: 'Required', detail: 'no selector defined for SidecarSet' });
  else errs.push(...validateSelector(selectorOf(spec.selector) ?? {}, 'spec.selector'));
  if (str(spec.namespace) && set(spec.namespaceSelector)) {
    errs.push({ field: 'spec.namespace, namespaceSelector', type: 'Required', detail: 'namespace and namespaceSelector are mutually exclusive' });
  } else if (set(spec.namespaceSelector)) {
    errs.push(...validateSelector(selectorOf(spec.namespaceSelector) ?? {}, 'spec.namespaceSelector'));
  }
  errs.push(...validateInjectionStrategy(s, ctx.revisions), ...validateUpdateStrategy(strategy));
  if (objects(spec.initContainers).length === 0 && objects(spec.containers).length === 0) {
    errs.push({ field: 'spec', type: 'Required', detail: 'no initContainer or container defined for SidecarSet' });
  } else {
    errs.push(...validateContainers(spec));
  }
  errs.push(...validatePatchPodMetadata(s, ctx));
  return errs;
}

/** validateSidecarContainerConflict: containers are never added on UPDATE, nor change upgradeType. */
function validateUpdate(s: SidecarSet, old: SidecarSet): FieldError[] {
  const oldTypes = new Map<string, string>();
  for (const c of objects(specOf(old).containers)) oldTypes.set(str(c.name), isRecord(c.upgradeStrategy) ? str(c.upgradeStrategy.upgradeType) : '');
  const errs: FieldError[] = [];
  for (const c of objects(specOf(s).containers)) {
    const name = str(c.name);
    const type = isRecord(c.upgradeStrategy) ? str(c.upgradeStrategy.upgradeType) : '';
    if (!oldTypes.has(name)) errs.push({ field: 'spec.containers.name', type: 'Invalid', value: name, detail: `container ${name} is not found` });
    else if (oldTypes.get(name) !== '' && oldTypes.get(name) !== type) {
      errs.push({ field: 'spec.containers.upgradeStrategy.upgradeType', type: 'Invalid', value: name, detail: `container ${name} upgradeType is immutable` });
    }
  }
  return errs;
}

// ---- conflicts with other SidecarSets -----------------------------------------------------------

/**
 * util.IsSelectorOverlapping, with one fix (§8): OpenKruise treats an `Exists` on a key the other
 * selector does not mention as making them disjoint, although a pod can match both; two such sets
 * could then inject same-named sidecars into one pod, which the API server rejects. Here such a
 * requirement does not make selectors disjoint.
 */
export function isSelectorOverlapping(a: LabelSelector | undefined, b: LabelSelector | undefined): boolean {
  return !(isDisjoint(a ?? {}, b ?? {}) || isDisjoint(b ?? {}, a ?? {}));
}

function isDisjoint(x: LabelSelector, y: LabelSelector): boolean {
  const allowed = new Map<string, string[] | 'ALL'>();
  for (const [k, v] of Object.entries(x.matchLabels ?? {})) allowed.set(k, [v]);
  for (const r of x.matchExpressions ?? []) {
    const key = str(r.key);
    if (r.operator === 'In') {
      const prev = allowed.get(key);
      allowed.set(key, prev === 'ALL' ? 'ALL' : [...(prev ?? []), ...(r.values ?? [])]);
    } else if (r.operator === 'Exists') allowed.set(key, 'ALL');
  }
  for (const [k, v] of Object.entries(y.matchLabels ?? {})) {
    const values = allowed.get(k);
    if (values && values !== 'ALL' && !values.includes(v)) return true;
  }
  for (const r of y.matchExpressions ?? []) {
    const values = allowed.get(str(r.key));
    const own = r.values ?? [];
    switch (r.operator) {
      case 'In':
        if (values && values !== 'ALL' && !own.some((v) => values.includes(v))) return true;
        break;
      case 'NotIn':
        if (values && values !== 'ALL' && values.every((v) => own.includes(v))) return true;
        break;
      case 'DoesNotExist':
        if (values) return true;
        break;
    }
  }
  return false;
}

function namespaceMatches(ns: string, sel: LabelSelector, ctx: SidecarSetValidationContext): boolean {
  const labels = ctx.namespaceLabels(ns);
  return labels !== undefined && matchesLabelSelector(sel, labels);
}

/**
 * isSidecarSetNamespaceOverlapping. Fix (§8): when this set has a namespaceSelector and the other a
 * namespace, OpenKruise tests the other's (absent) selector and never finds an overlap; we test
 * this set's selector against the other's namespace.
 */
function namespacesOverlap(a: Obj, b: Obj, ctx: SidecarSetValidationContext): boolean {
  const [nsA, nsB] = [str(a.namespace), str(b.namespace)];
  const [selA, selB] = [selectorOf(a.namespaceSelector), selectorOf(b.namespaceSelector)];
  if (nsA && nsB && nsA !== nsB) return false;
  if (selA && selB && !isSelectorOverlapping(selA, selB)) return false;
  if (nsA && selB && !namespaceMatches(nsA, selB, ctx)) return false;
  if (nsB && selA && !namespaceMatches(nsB, selA, ctx)) return false;
  return true;
}

/** Go's reflect.DeepEqual on decoded objects: a null field is the same as a missing one. */
function sameValue(a: unknown, b: unknown): boolean {
  if (!set(a) || !set(b)) return !set(a) && !set(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return a === b;
}

function validateConflicts(s: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  const spec = specOf(s);
  const selector = selectorOf(spec.selector);
  const initIn = new Map<string, string>();
  const containerIn = new Map<string, string>();
  const volumeIn = new Map<string, { set: string; volume: Obj }>();
  const annotationIn = new Map<string, { set: string; policy: string }>();
  for (const other of ctx.otherSets) {
    const o = specOf(other);
    if (nameOf(other) === nameOf(s) || !namespacesOverlap(spec, o, ctx) || !isSelectorOverlapping(selector, selectorOf(o.selector))) continue;
    for (const c of objects(o.initContainers)) initIn.set(str(c.name), nameOf(other));
    for (const c of objects(o.containers)) containerIn.set(str(c.name), nameOf(other));
    const firstVolume = new Map<string, Obj>();
    for (const v of objects(o.volumes)) if (!firstVolume.has(str(v.name))) firstVolume.set(str(v.name), v);
    for (const [name, volume] of firstVolume) volumeIn.set(name, { set: nameOf(other), volume });
    for (const p of objects(o.patchPodMetadata)) {
      if (p.patchPolicy === 'Retain') continue;
      for (const k of Object.keys(isRecord(p.annotations) ? p.annotations : {})) annotationIn.set(k, { set: nameOf(other), policy: str(p.patchPolicy) });
    }
  }
  const errs: FieldError[] = [];
  const exists = (name: string, other: string): FieldError => ({ field: 'spec.containers', type: 'Invalid', value: name, detail: `container ${name} already exist in ${other}` });
  // OpenKruise compares init containers only with init containers and containers only with
  // containers. A pod may not hold an init container and a container of the same name either, so
  // (§8) we compare across the two lists too.
  for (const c of objects(spec.initContainers)) {
    const other = initIn.get(str(c.name)) ?? containerIn.get(str(c.name));
    if (other !== undefined) errs.push(exists(str(c.name), other));
  }
  for (const c of objects(spec.containers)) {
    const other = containerIn.get(str(c.name)) ?? initIn.get(str(c.name));
    if (other !== undefined) errs.push(exists(str(c.name), other));
  }
  for (const v of objects(spec.volumes)) {
    const other = volumeIn.get(str(v.name));
    if (other && !sameValue(v, other.volume)) {
      errs.push({ field: 'spec.volumes', type: 'Invalid', value: str(v.name), detail: `volume ${str(v.name)} is in conflict with sidecarset ${other.set}` });
    }
  }
  for (const p of objects(spec.patchPodMetadata)) {
    if (p.patchPolicy === 'Retain') continue;
    for (const k of Object.keys(isRecord(p.annotations) ? p.annotations : {}).sort()) {
      const other = annotationIn.get(k);
      if (other && (p.patchPolicy === 'Overwrite' || other.policy === 'Overwrite')) {
        errs.push({ field: 'spec.patchPodMetadata', type: 'Invalid', value: k, detail: `annotation ${k} is in conflict with sidecarset ${other.set}` });
      }
    }
  }
  return errs;
}

/** Every problem with `s` (§2.3), in OpenKruise's order; conflicts are only checked when the rest is valid. */
export function validateSidecarSet(s: SidecarSet, ctx: SidecarSetValidationContext): FieldError[] {
  const errs = [...validateMeta(isRecord(s.metadata) ? (s.metadata as Obj) : {}, 'metadata'), ...validateSpec(s, ctx)];
  if (ctx.oldSet) errs.push(...validateUpdate(s, ctx.oldSet));
  if (errs.length > 0) return errs;
  return validateConflicts(s, ctx);
}
