import { describe, expect, it } from 'vitest';
import { canonicalQuantity, compareQuantities, parseQuantity } from './quantity.js';

describe('canonicalQuantity', () => {
  it.each<[string, boolean, string]>([
    ['100m', false, '100m'],
    ['0.5', false, '500m'],
    ['1000m', false, '1'],
    ['1.5', false, '1500m'],
    ['2', false, '2'],
    ['1Gi', false, '1Gi'],
    ['1024Mi', false, '1Gi'],
    ['1.5Gi', false, '1536Mi'],
    ['0.5Gi', false, '512Mi'],
    ['512', false, '512'],
    ['128974848', false, '128974848'],
    ['129e6', false, '129e6'],
    ['129M', false, '129M'],
    ['1e3', false, '1e3'],
    ['0', false, '0'],
    ['0.0', false, '0'],
    ['1u', false, '1u'],
    ['1u', true, '1m'],
    ['0.0001', true, '1m'],
    ['1.0001', true, '1001m'],
    ['001', false, '001'], // Go keeps already-canonical text as parsed
    ['not-a-quantity', false, 'not-a-quantity'],
  ])('%s (milli %s) → %s', (text, milli, want) => {
    expect(canonicalQuantity(text, milli)).toBe(want);
  });

  it.each([
    ['1', '1000m', 0],
    ['500m', '1', -1],
    ['1Gi', '1G', 1],
  ])('compare %s and %s', (a, b, want) => {
    expect(compareQuantities(parseQuantity(a)!, parseQuantity(b)!)).toBe(want);
  });
});
