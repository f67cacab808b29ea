// Kubernetes' string validators (k8s.io/apimachinery/pkg/util/validation and
// apis/meta/v1/validation), returning the exact messages the API server and OpenKruise print.
// Each returns a list of problems; empty means valid.
import type { FieldError } from './field-errors.js';

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** validation.RegexError: `<msg> (e.g. 'a' or 'b', regex used for validation is '<fmt>')`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Go appends "'x', " per example and " or " between them, hence the double spaces.
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export const NEGATIVE_ERROR = 'must be greater than or equal to 0';

/** Go's len(): UTF-8 bytes. */
export function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const ENV_VAR_NAME_MSG = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY = new RegExp(`^${CONFIG_KEY_FMT}$`);
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const PERCENT_FMT = '[0-9]+%';
const PERCENT = new RegExp(`^${PERCENT_FMT}$`);
const HTTP_HEADER_FMT = '[-A-Za-z0-9]+';
const HTTP_HEADER = new RegExp(`^${HTTP_HEADER_FMT}$`);

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** `[prefix/]name`, as label keys and annotation keys (lower-cased) must be. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

function chDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME.test(value)) errs.push(regexError(ENV_VAR_NAME_MSG, ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  return [...errs, ...chDirPrefix(value)];
}

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!CONFIG_KEY.test(value)) errs.push(regexError(CONFIG_KEY_MSG, CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  return [...errs, ...chDirPrefix(value)];
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  else if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

export function isValidPercent(value: string): string[] {
  return PERCENT.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

export function isHTTPHeaderName(value: string): string[] {
  return HTTP_HEADER.test(value) ? [] : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_FMT, 'X-Header-Name')];
}

/** validation.IsValidUserID / IsValidGroupID. */
export function isValidID(id: number): string[] {
  return Number.isInteger(id) && id >= 0 && id <= 2147483647 ? [] : [inclusiveRangeError(0, 2147483647)];
}

export type Labels = Readonly<Record<string, string>>;

/** metav1validation.ValidateLabels: keys qualified names, values valid label values. */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  if (!isRecord(labels)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const detail of isQualifiedName(k)) errs.push({ field, type: 'Invalid', value: k, detail });
    for (const detail of isValidLabelValue(String(v))) errs.push({ field, type: 'Invalid', value: v, detail });
  }
  return errs;
}

/** ObjectMeta annotations: keys are qualified names compared lower-case; total size at most 256 KiB. */
export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  if (!isRecord(annotations)) return [];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const detail of isQualifiedName(k.toLowerCase())) errs.push({ field, type: 'Invalid', value: k, detail });
    size += byteLength(k) + byteLength(String(v ?? ''));
  }
  if (size > 262144) errs.push({ field, type: 'TooLong', detail: 'must have at most 262144 bytes' });
  return errs;
}

export type SelectorRequirement = { key?: string; operator?: string; values?: string[] | null };
export type LabelSelector = { matchLabels?: Record<string, string> | null; matchExpressions?: SelectorRequirement[] | null };

/**
 * The operator of a selector requirement against its values, at `at`, with Kubernetes' messages:
 * label selectors know In, NotIn, Exists and DoesNotExist; node selectors (`numeric`) also Gt and Lt.
 */
export function selectorOperatorErrors(operator: string | undefined, values: readonly string[], at: string, numeric: boolean): FieldError[] {
  switch (operator) {
    case 'In':
    case 'NotIn':
      return values.length === 0 ? [{ field: `${at}.values`, type: 'Required', detail: "must be specified when `operator` is 'In' or 'NotIn'" }] : [];
    case 'Exists':
    case 'DoesNotExist':
      return values.length > 0 ? [{ field: `${at}.values`, type: 'Forbidden', detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" }] : [];
    case 'Gt':
    case 'Lt':
      if (numeric) return values.length !== 1 ? [{ field: `${at}.values`, type: 'Required', detail: "must be specified single value when `operator` is 'Lt' or 'Gt'" }] : [];
  }
  return [{ field: `${at}.operator`, type: 'Invalid', value: operator ?? '', detail: 'not a valid selector operator' }];
}

/** metav1validation.ValidateLabelSelector (label values checked, as by default). */
export function validateLabelSelector(sel: LabelSelector | null | undefined, field: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, `${field}.matchLabels`);
  for (const [i, req] of (sel.matchExpressions ?? []).entries()) {
    const at = `${field}.matchExpressions[${i}]`;
    const values = req.values ?? [];
    errs.push(...selectorOperatorErrors(req.operator, values, at, false));
    for (const detail of isQualifiedName(req.key ?? '')) errs.push({ field: `${at}.key`, type: 'Invalid', value: req.key ?? '', detail });
    for (const [j, v] of values.entries()) {
      for (const detail of isValidLabelValue(v)) errs.push({ field: `${at}.values[${j}]`, type: 'Invalid', value: v, detail });
    }
  }
  return errs;
}

/** Go's `%#v` of a map[string]string (keys sorted, as fmt prints maps). */
export function goStringMap(m: Readonly<Record<string, string>> | null | undefined): string {
  if (!m) return 'map[string]string(nil)';
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`)
    .join(', ')}}`;
}

/** Go's `%#v` of a metav1.LabelSelector, as field.Invalid prints one. */
export function goLabelSelector(sel: LabelSelector): string {
  const ml = goStringMap(sel.matchLabels);
  const exprs = sel.matchExpressions;
  const me = exprs
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map((r) => {
          const values = r.values ? `[]string{${r.values.map((v) => JSON.stringify(v)).join(', ')}}` : '[]string(nil)';
          return `v1.LabelSelectorRequirement{Key:${JSON.stringify(r.key ?? '')}, Operator:${JSON.stringify(r.operator ?? '')}, Values:${values}}`;
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
