// Validation of a ResourceDistribution on CREATE and UPDATE, covering what OpenKruise's webhook
// checks (pkg/webhook/resourcedistribution/validating/resourcedistribution_create_update_handler.go):
// object metadata; spec.resource is a v1 Secret or ConfigMap whose apiVersion, kind and name never
// change; the namespace lists hold valid names and do not overlap; the label selector parses.
// OpenKruise also dry-runs a create of the resource; we cannot from the edge, so the checks a
// dry run would fail on for these two kinds are made here (name, keys, base64, resourceVersion).
// Pure and Web-only: the Worker runs this.
import type { FieldError } from '../kube/field-errors.js';
import { selectorProblems, type LabelSelector } from '../kube/selectors.js';
import { isDistributedKind, type ResourceDistribution } from './types.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function subdomainError(name: string): string | undefined {
  if (name.length > 253) return 'must be at most 253 characters';
  if (!DNS_SUBDOMAIN.test(name)) return "must be a lowercase RFC 1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (e.g. 'app-config')";
  return undefined;
}

function namespaceNameError(name: string): string | undefined {
  if (name.length > 63) return 'a namespace name must be at most 63 characters';
  if (!DNS_LABEL.test(name)) return "a namespace name must be a lowercase RFC 1123 label: lowercase letters, digits and '-', starting and ending with a letter or digit (e.g. 'team-a')";
  return undefined;
}

function configKeyError(key: string): string | undefined {
  if (key.length > 253) return 'a key must be at most 253 characters';
  if (!CONFIG_KEY.test(key)) return "a key must consist of letters, digits, '-', '_' or '.'";
  if (key === '.' || key === '..' || key.startsWith('..')) return "a key must not be '.' or '..', nor start with '..'";
  return undefined;
}

function validateName(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null || value === '') return [{ field, type: 'Required', detail: 'a name is required' }];
  if (typeof value !== 'string') return [{ field, type: 'Invalid', value, detail: 'must be a string' }];
  const err = subdomainError(value);
  return err ? [{ field, type: 'Invalid', value, detail: err }] : [];
}

/** Checks of a map of keys to values: keys valid, values strings or (base64) base64 strings. */
function validateDataMap(map: unknown, field: string, base64: boolean): FieldError[] {
  if (map === undefined || map === null) return [];
  if (!isObj(map)) return [{ field, type: 'Invalid', value: map, detail: 'must be a map of keys to strings' }];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(map)) {
    const keyErr = configKeyError(k);
    if (keyErr) errs.push({ field, type: 'Invalid', value: k, detail: keyErr });
    if (typeof v !== 'string') errs.push({ field: `${field}[${k}]`, type: 'Invalid', value: v, detail: 'must be a string' });
    else if (base64 && !BASE64.test(v)) errs.push({ field: `${field}[${k}]`, type: 'Invalid', value: v, detail: 'must be base64-encoded (use stringData for plain text)' });
  }
  return errs;
}

function validateContent(resource: Obj, kind: string): FieldError[] {
  const at = 'spec.resource';
  if (kind === 'Secret') {
    const errs = [...validateDataMap(resource.data, `${at}.data`, true), ...validateDataMap(resource.stringData, `${at}.stringData`, false)];
    if (resource.type !== undefined && typeof resource.type !== 'string') errs.push({ field: `${at}.type`, type: 'Invalid', value: resource.type, detail: 'must be a string' });
    return errs;
  }
  const errs = [...validateDataMap(resource.data, `${at}.data`, false), ...validateDataMap(resource.binaryData, `${at}.binaryData`, true)];
  if (isObj(resource.data) && isObj(resource.binaryData)) {
    for (const k of Object.keys(resource.data)) {
      if (k in resource.binaryData) errs.push({ field: `${at}.binaryData`, type: 'Invalid', value: k, detail: 'this key is also in data; a key may appear in only one of data and binaryData' });
    }
  }
  return errs;
}

function identity(resource: unknown): { apiVersion: unknown; kind: unknown; name: unknown } | undefined {
  if (!isObj(resource)) return undefined;
  return { apiVersion: resource.apiVersion, kind: resource.kind, name: isObj(resource.metadata) ? resource.metadata.name : undefined };
}

function validateResource(resource: unknown, oldResource: unknown): FieldError[] {
  const at = 'spec.resource';
  if (resource === undefined || resource === null || (isObj(resource) && Object.keys(resource).length === 0)) {
    return [{ field: at, type: 'Required', detail: 'the complete Secret or ConfigMap to distribute is required' }];
  }
  if (!isObj(resource)) return [{ field: at, type: 'Invalid', value: resource, detail: 'must be a Secret or ConfigMap object' }];

  const errs: FieldError[] = [];
  if (!resource.apiVersion) errs.push({ field: `${at}.apiVersion`, type: 'Required', detail: 'set apiVersion: v1' });
  else if (resource.apiVersion !== 'v1') errs.push({ field: `${at}.apiVersion`, type: 'Invalid', value: resource.apiVersion, detail: 'only v1 Secrets and ConfigMaps can be distributed; set apiVersion: v1' });
  if (!resource.kind) errs.push({ field: `${at}.kind`, type: 'Required', detail: 'set kind: Secret or kind: ConfigMap' });
  else if (!isDistributedKind(resource.kind)) errs.push({ field: `${at}.kind`, type: 'Invalid', value: resource.kind, detail: 'only Secret and ConfigMap can be distributed' });
  // Like OpenKruise, nothing more is checked about a resource of an unsupported kind.
  if (errs.length > 0) return errs;

  const before = identity(oldResource);
  const now = identity(resource)!;
  if (before) {
    for (const f of ['apiVersion', 'kind', 'name'] as const) {
      if (before[f] !== now[f]) {
        errs.push({
          field: f === 'name' ? `${at}.metadata.name` : `${at}.${f}`,
          type: 'Invalid',
          value: now[f],
          detail: `is immutable (was ${JSON.stringify(before[f] ?? null)}); create another ResourceDistribution to distribute a different resource`,
        });
      }
    }
  }

  const meta = resource.metadata;
  if (meta !== undefined && !isObj(meta)) return [...errs, { field: `${at}.metadata`, type: 'Invalid', value: meta, detail: 'must be an object' }];
  errs.push(...validateName(meta?.name, `${at}.metadata.name`));
  if (meta?.resourceVersion !== undefined && meta.resourceVersion !== '') {
    errs.push({ field: `${at}.metadata.resourceVersion`, type: 'Forbidden', detail: 'must not be set: every copy is created anew' });
  }
  errs.push(...validateContent(resource, resource.kind as string));
  return errs;
}

function listNames(list: unknown, field: string, errs: FieldError[]): string[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    errs.push({ field, type: 'Invalid', value: list, detail: 'must be a list of {name: <namespace>}' });
    return [];
  }
  const names: string[] = [];
  for (const [i, item] of list.entries()) {
    const at = `${field}[${i}].name`;
    const name = isObj(item) ? item.name : undefined;
    if (name === undefined || name === '') {
      errs.push({ field: at, type: 'Required', detail: 'a namespace name is required' });
      continue;
    }
    if (typeof name !== 'string') {
      errs.push({ field: at, type: 'Invalid', value: name, detail: 'must be a string' });
      continue;
    }
    const err = namespaceNameError(name);
    if (err) errs.push({ field: at, type: 'Invalid', value: name, detail: err });
    names.push(name);
  }
  return names;
}

function validateTargets(targets: unknown): FieldError[] {
  const at = 'spec.targets';
  if (targets === undefined || targets === null) return [];
  if (!isObj(targets)) return [{ field: at, type: 'Invalid', value: targets, detail: 'must be an object' }];
  const errs: FieldError[] = [];
  const listOf = (v: unknown) => (isObj(v) ? v.list : v === undefined || v === null ? undefined : v);
  const included = listNames(listOf(targets.includedNamespaces), `${at}.includedNamespaces.list`, errs);
  const excluded = listNames(listOf(targets.excludedNamespaces), `${at}.excludedNamespaces.list`, errs);
  const both = [...new Set(excluded.filter((n) => included.includes(n)))];
  if (both.length > 0) {
    errs.push({ field: at, type: 'Invalid', value: both, detail: `namespaces ${both.join(', ')} are both included and excluded; remove them from one of the two lists` });
  }
  const selector = targets.namespaceLabelSelector;
  if (selector !== undefined && selector !== null) {
    if (!isObj(selector)) errs.push({ field: `${at}.namespaceLabelSelector`, type: 'Invalid', value: selector, detail: 'must be a label selector' });
    else {
      for (const p of selectorProblems(selector as LabelSelector)) {
        errs.push({ field: `${at}.namespaceLabelSelector.${p.field}`, type: 'Invalid', value: p.value, detail: p.detail });
      }
    }
  }
  return errs;
}

/** Every problem with `rd`; `old` is the stored object on UPDATE. */
export function validateResourceDistribution(rd: ResourceDistribution, old?: ResourceDistribution): FieldError[] {
  const spec = (rd as { spec?: Obj }).spec;
  return [
    ...validateName(rd.metadata?.name, 'metadata.name'),
    ...validateResource(spec?.resource, old ? (old as { spec?: Obj }).spec?.resource : undefined),
    ...validateTargets(spec?.targets),
  ];
}

/** Allowed but probably not what the author meant. */
export function resourceDistributionWarnings(rd: ResourceDistribution): string[] {
  const resource = (rd as { spec?: Obj }).spec?.resource;
  const meta = isObj(resource) && isObj(resource.metadata) ? resource.metadata : undefined;
  if (typeof meta?.namespace === 'string' && meta.namespace !== '') {
    return [`spec.resource.metadata.namespace ${JSON.stringify(meta.namespace)} is ignored: each copy goes into its target namespace`];
  }
  return [];
}
