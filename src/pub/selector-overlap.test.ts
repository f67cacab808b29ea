import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '../kube/validation.js';
import { isSelectorLooseOverlap } from './selector-overlap.js';

const ex = (key: string, operator: string, values?: string[]): LabelSelector => ({ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] });
const ml = (labels: Record<string, string>): LabelSelector => ({ matchLabels: labels });

describe('isSelectorLooseOverlap', () => {
  it.each([
    ['same matchLabels', ml({ app: 'web' }), ml({ app: 'web' }), true],
    ['different values', ml({ app: 'web' }), ml({ app: 'api' }), false],
    ['different keys never overlap', ml({ app: 'web' }), ml({ tier: 'fe' }), false],
    ['extra key on one side', ml({ app: 'web', tier: 'fe' }), ml({ app: 'web' }), false],
    ['In shares a value', ex('a', 'In', ['b', 'c']), ex('a', 'In', ['c', 'd']), true],
    ['In vs Exists', ex('a', 'In', ['b']), ex('a', 'Exists'), true],
    ['In vs NotIn not covering', ex('a', 'In', ['b', 'c']), ex('a', 'NotIn', ['b']), true],
    ['In vs NotIn covering all', ex('a', 'In', ['b', 'c']), ex('a', 'NotIn', ['b', 'c', 'e']), false],
    ['Exists vs Exists', ex('a', 'Exists'), ex('a', 'Exists'), true],
    ['Exists vs DoesNotExist', ex('a', 'Exists'), ex('a', 'DoesNotExist'), false],
    ['NotIn vs DoesNotExist', ex('a', 'NotIn', ['x']), ex('a', 'DoesNotExist'), true],
    ['NotIn vs NotIn', ex('a', 'NotIn', ['x']), ex('a', 'NotIn', ['y']), true],
    ['DoesNotExist vs DoesNotExist', ex('a', 'DoesNotExist'), ex('a', 'DoesNotExist'), true],
    ['DoesNotExist vs In', ex('a', 'DoesNotExist'), ex('a', 'In', ['b']), false],
    ['matchLabels as In vs expression', ml({ a: 'b' }), ex('a', 'In', ['b', 'c']), true],
  ])('%s', (_name, x, y, want) => {
    expect(isSelectorLooseOverlap(x, y)).toBe(want);
    expect(isSelectorLooseOverlap(y, x)).toBe(want);
  });
});
