import { describe, expect, it } from 'vitest';
import { formatFieldError, supportedValues, type FieldError } from './field-errors.js';

describe('formatFieldError', () => {
  const e = (over: Partial<FieldError>): FieldError => ({ field: 'spec.x', type: 'Invalid', detail: '', ...over });
  it.each<[string, FieldError, string]>([
    ['duplicate shows the value', e({ type: 'Duplicate', value: 'a' }), 'spec.x: Duplicate value: "a"'],
    ['not found shows the value', e({ type: 'NotFound', value: 'v' }), 'spec.x: Not found: "v"'],
    ['unsupported lists the values', e({ type: 'NotSupported', value: 'HTTP', detail: supportedValues(['TCP', 'UDP']) }), 'spec.x: Unsupported value: "HTTP": supported values: "TCP", "UDP"'],
    ['too long hides the value', e({ type: 'TooLong', value: 'x', detail: 'must have at most 262144 bytes' }), 'spec.x: Too long: must have at most 262144 bytes'],
    ['internal hides the value', e({ type: 'Internal', value: 'x', detail: 'boom' }), 'spec.x: Internal error: boom'],
    ['a Go rendering wins over the value', e({ value: { a: 1 }, goValue: 'v1.X{A:1}', detail: 'bad' }), 'spec.x: Invalid value: v1.X{A:1}: bad'],
  ])('%s', (_name, err, want) => {
    expect(formatFieldError(err)).toBe(want);
  });
});
