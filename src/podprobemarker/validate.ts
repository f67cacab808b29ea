// Validation of a PodProbeMarker with OpenKruise's rules and messages (pkg/webhook/podprobemarker/
// validating/probe_create_update_handler.go): a non-empty selector, at least one probe, each
// probe named (unique, no '#', not a Kubernetes pod condition), its container named, one valid
// handler, non-negative timings, a condition type or a marker policy, condition types unique and
// qualified names, policy states unique, Succeeded or Failed, with valid labels or annotations;
// on update, the selector is immutable. Like OpenKruise, a probe's first structural error ends
// the list. A bad value is printed as Go prints it where that is simple (strings, numbers, nil,
// selectors); a whole probe is printed as JSON (Go prints a struct with %#v). Pure.
import type { V1HTTPGetAction, V1Probe, V1TCPSocketAction } from '@kubernetes/client-node';
import type { PodContainerProbe, PodProbeMarker, ProbeMarkerPolicy } from '../api/apps/podprobemarker.js';
import { formatFieldErrors, supportedValues, type FieldError } from '../kube/field-errors.js';
import {
  NEGATIVE_ERROR, goLabelSelector, isHTTPHeaderName, isQualifiedName, isRecord, isValidPortName, isValidPortNum, validateAnnotations, validateLabelSelector, validateLabels,
  type LabelSelector,
} from '../kube/validation.js';

/** Pod condition types a probe may not be named after (Kubernetes' own and OpenKruise's). */
const NATIVE_CONDITIONS = new Set(['PodScheduled', 'Initialized', 'Ready', 'ContainersReady', 'KruisePodReady', 'InPlaceUpdateReady']);
const TIMINGS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;

const canonical = (v: unknown): string =>
  JSON.stringify(v ?? null, (_k, x: unknown) => (isRecord(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

/** field.Invalid's value for a *LabelSelector: "null" when nil, else %#v of the struct. */
const goSelector = (sel: LabelSelector | null | undefined): string => (sel ? goLabelSelector(sel) : '"null"');

function selectorErrors(sel: LabelSelector | null | undefined): FieldError[] {
  const at = 'spec.selector';
  if (!isRecord(sel)) return [{ field: at, type: 'Invalid', goValue: '"null"', detail: 'empty Selector is not valid for PodProbeMarker.' }];
  const errs = validateLabelSelector(sel, at);
  const unparsable = errs.length > 0;
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) errs.push({ field: at, type: 'Invalid', goValue: goSelector(sel), detail: 'empty selector is not valid for podProbeMarker.' });
  if (unparsable) errs.push({ field: `${at}.selector`, type: 'Invalid', goValue: goSelector(sel), detail: '' });
  return errs;
}

function portErrors(port: unknown, at: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((detail) => ({ field: at, type: 'Invalid', value: port, detail }));
  if (typeof port === 'string') return isValidPortName(port).map((detail) => ({ field: at, type: 'Invalid', value: port, detail }));
  return [{ field: at, type: 'Internal', detail: `unknown type: ${typeof port}` }];
}

/** What Go's url.Parse refuses in a path: a bad percent escape or a control character. */
const badUrlPath = (path: string): boolean => /%(?![0-9A-Fa-f]{2})/.test(path) || /[\x00-\x1f\x7f]/.test(path);

function httpGetErrors(http: V1HTTPGetAction, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const path = typeof http.path === 'string' ? http.path : '';
  if (!path) errs.push({ field: `${at}.path`, type: 'Required', detail: '' });
  if (http.host) errs.push({ field: `${at}.host`, type: 'Invalid', value: http.host, detail: 'host field in probes is not allowed' });
  if (badUrlPath(path)) errs.push({ field: `${at}.path`, type: 'Invalid', value: path, detail: 'must be a valid URL path' });
  errs.push(...portErrors(http.port, `${at}.port`));
  const scheme = http.scheme ?? '';
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push({ field: `${at}.scheme`, type: 'NotSupported', value: scheme, detail: supportedValues(['HTTP', 'HTTPS']) });
  for (const h of http.httpHeaders ?? []) for (const detail of isHTTPHeaderName(h.name ?? '')) errs.push({ field: `${at}.httpHeaders`, type: 'Invalid', value: h.name ?? '', detail });
  return errs;
}

function tcpErrors(tcp: V1TCPSocketAction, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (tcp.host) errs.push({ field: `${at}.host`, type: 'Invalid', value: tcp.host, detail: 'host field in probes is not allowed' });
  return [...errs, ...portErrors(tcp.port, `${at}.port`)];
}

/** validateHandler: exactly one of exec, httpGet, tcpSocket (checked in that order). */
function handlerErrors(probe: V1Probe, at: string): FieldError[] {
  const errs: FieldError[] = [];
  let handlers = 0;
  const one = (name: string, check: () => FieldError[]) => {
    if (handlers > 0) errs.push({ field: `${at}.${name}`, type: 'Forbidden', detail: 'may not specify more than 1 handler type' });
    else {
      handlers++;
      errs.push(...check());
    }
  };
  if (isRecord(probe.exec)) one('exec', () => ((probe.exec!.command ?? []).length === 0 ? [{ field: `${at}.exec.command`, type: 'Required', detail: '' }] : []));
  if (isRecord(probe.httpGet)) one('httpGet', () => httpGetErrors(probe.httpGet!, `${at}.httpGet`));
  if (isRecord(probe.tcpSocket)) one('tcpSocket', () => tcpErrors(probe.tcpSocket!, `${at}.tcpSocket`));
  if (handlers === 0) errs.push({ field: at, type: 'Required', detail: 'must specify a handler type' });
  return errs;
}

function probeSpecErrors(probe: V1Probe | undefined): FieldError[] {
  const at = 'spec.probe';
  if (!isRecord(probe)) return [{ field: at, type: 'Required', detail: 'must specify a handler type' }];
  const errs = handlerErrors(probe, at);
  for (const t of TIMINGS) {
    const v = Number((probe as V1Probe)[t] ?? 0);
    if (v < 0) errs.push({ field: `${at}.${t}`, type: 'Invalid', value: v, detail: NEGATIVE_ERROR });
  }
  return errs;
}

function policyErrors(policy: ProbeMarkerPolicy): FieldError[] {
  const at = 'spec.markerPolicy';
  if (policy.state !== 'Succeeded' && policy.state !== 'Failed') return [{ field: `${at}.state`, type: 'Required', detail: "marker policy state must be 'True' or 'False'" }];
  if (Object.keys(policy.labels ?? {}).length === 0 && Object.keys(policy.annotations ?? {}).length === 0) return [{ field: at, type: 'Required', detail: "marker policy annotations or labels can't be both empty" }];
  return [...validateLabels(policy.labels, `${at}.labels`), ...validateAnnotations(policy.annotations, `${at}.annotations`)];
}

function probesErrors(probes: PodContainerProbe[] | null | undefined): FieldError[] {
  const at = 'spec.probes';
  if (!Array.isArray(probes) || probes.length === 0) {
    return [{ field: at, type: 'Invalid', goValue: Array.isArray(probes) ? '[]v1alpha1.PodContainerProbe{}' : '[]v1alpha1.PodContainerProbe(nil)', detail: 'empty probes is not valid for PodProbeMarker.' }];
  }
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const conditionTypes = new Set<string>();
  const stop = (e: FieldError) => [...errs, e];
  for (const raw of probes) {
    const probe = (isRecord(raw) ? raw : {}) as Partial<PodContainerProbe>;
    const name = probe.name ?? '';
    if (name.includes('#')) return stop({ field: at, type: 'Invalid', value: name, detail: "probe name can't contains '#'." });
    if (!name) return stop({ field: at, type: 'Invalid', value: name, detail: "probe name can't be empty in PodProbeMarker." });
    if (!probe.containerName) return stop({ field: at, type: 'Invalid', value: probe.containerName ?? '', detail: "probe containerName can't be empty in PodProbeMarker." });
    if (NATIVE_CONDITIONS.has(name)) return stop({ field: at, type: 'Invalid', value: name, detail: `probe name can't be ${name}` });
    if (names.has(name)) return stop({ field: at, type: 'Invalid', value: name, detail: 'probe name must be unique in PodProbeMarker.' });
    names.add(name);
    errs.push(...probeSpecErrors(probe.probe));
    const conditionType = probe.podConditionType ?? '';
    const policies = probe.markerPolicy ?? [];
    if (!conditionType && policies.length === 0) return stop({ field: at, type: 'Invalid', value: raw, detail: 'podConditionType and markerPolicy cannot be empty at the same time' });
    if (conditionType && conditionTypes.has(conditionType)) return stop({ field: at, type: 'Invalid', value: conditionType, detail: `podConditionType ${conditionType} must be unique in podProbeMarker` });
    if (conditionType) {
      conditionTypes.add(conditionType);
      for (const detail of isQualifiedName(conditionType)) errs.push({ field: 'spec', type: 'Invalid', value: conditionType, detail });
    }
    const states = new Set<string>();
    for (const policy of policies) {
      const state = isRecord(policy) ? String(policy.state ?? '') : '';
      if (states.has(state)) return stop({ field: 'spec.markerPolicy', type: 'Invalid', value: state, detail: 'marker policy state must be unique.' });
      states.add(state);
      errs.push(...policyErrors((isRecord(policy) ? policy : {}) as ProbeMarkerPolicy));
    }
  }
  return errs;
}

/** The errors OpenKruise reports for this PodProbeMarker (and the one it replaces, on update). */
export function podProbeMarkerErrors(obj: PodProbeMarker, old?: PodProbeMarker): FieldError[] {
  const spec = (isRecord(obj.spec) ? obj.spec : {}) as Partial<PodProbeMarker['spec']>;
  const errs = [...selectorErrors(spec.selector as LabelSelector | undefined), ...probesErrors(spec.probes)];
  if (old && canonical(old.spec?.selector) !== canonical(spec.selector)) {
    errs.push({ field: 'selector', type: 'Invalid', goValue: goSelector(spec.selector as LabelSelector | undefined), detail: 'selector must be immutable' });
  }
  return errs;
}

/** The denial message, as OpenKruise's aggregate prints it, or undefined when valid. */
export function validatePodProbeMarker(obj: PodProbeMarker, old?: PodProbeMarker): string | undefined {
  const errs = podProbeMarkerErrors(obj, old);
  return errs.length ? formatFieldErrors(errs) : undefined;
}
