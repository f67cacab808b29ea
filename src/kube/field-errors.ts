// Kubernetes' field.ErrorList, as features return it from pure validation and render it in
// denials: each error is `<field path>: <Type>: <detail>`, several are joined as `[e1, e2]`
// (apimachinery's util/validation/field and util/errors aggregate).

export type FieldErrorType =
  | 'Invalid'
  | 'Required'
  | 'Forbidden'
  | 'Duplicate'
  | 'NotFound'
  | 'NotSupported'
  | 'TooLong'
  | 'Internal';

export type FieldError = {
  /** Path to the field, e.g. `spec.containers[0].image`. */
  field: string;
  type: FieldErrorType;
  detail: string;
  /** The offending value, rendered as JSON (strings quoted, numbers and booleans bare). */
  value?: unknown;
  /**
   * The value exactly as Go's field.Error prints it, when that is not its JSON: Go prints structs
   * with `%#v` (e.g. `v1.LabelSelector{…}`) and a nil pointer as `"null"`.
   */
  goValue?: string;
};

const TYPE_TEXT: Record<FieldErrorType, string> = {
  Invalid: 'Invalid value',
  Required: 'Required value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  NotFound: 'Not found',
  NotSupported: 'Unsupported value',
  TooLong: 'Too long',
  Internal: 'Internal error',
};

/** Types whose rendering omits the value, as field.Error.ErrorBody does. */
const NO_VALUE: ReadonlySet<FieldErrorType> = new Set(['Required', 'Forbidden', 'TooLong', 'Internal']);

function renderValue(e: FieldError): string {
  if (e.goValue !== undefined) return e.goValue;
  const v = e.value;
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** One error as Kubernetes' field.Error renders it: `spec.resource.kind: Invalid value: "Pod": …`. */
export function formatFieldError(e: FieldError): string {
  const body = NO_VALUE.has(e.type) ? TYPE_TEXT[e.type] : `${TYPE_TEXT[e.type]}: ${renderValue(e)}`;
  return `${e.field}: ${body}${e.detail ? `: ${e.detail}` : ''}`;
}

/** A list as Kubernetes' aggregate error renders it: the one message, or `[e1, e2]` without repeats. */
export function formatFieldErrors(errs: readonly FieldError[]): string {
  const messages = [...new Set(errs.map(formatFieldError))];
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

/** field.NotSupported's detail: `supported values: "a", "b"`. */
export function supportedValues(values: readonly string[]): string {
  return `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}
