import { describe, expect, it } from 'vitest';
import { copyLabelSelector, copyLabelValue } from './copy-label.js';
import { labelValueError } from '../kube/selectors.js';

describe('copyLabelValue', () => {
  const long = `${'a'.repeat(50)}.b-${'c'.repeat(200)}`;
  it.each<[string, string]>([
    ['short name verbatim', 'sample'],
    ['63 characters verbatim', 'a'.repeat(63)],
    ['long name shortened', long],
    ['long name cut at a dot', `${'a'.repeat(53)}.${'b'.repeat(40)}`],
  ])('%s is a valid label value', (_name, rdName) => {
    const v = copyLabelValue(rdName);
    expect(labelValueError(v)).toBeUndefined();
    if (rdName.length <= 63) expect(v).toBe(rdName);
  });

  it('keeps long names with the same start apart, and is stable', () => {
    const a = `${'x'.repeat(60)}-one`;
    const b = `${'x'.repeat(60)}-two`;
    expect(copyLabelValue(a)).not.toBe(copyLabelValue(b));
    expect(copyLabelValue(a)).toBe(copyLabelValue(a));
  });
});

describe('copyLabelSelector', () => {
  it.each<[string, string[] | undefined, string]>([
    ['every copy', undefined, 'apps.kruise.io/resourcedistribution'],
    ['named distributions, sorted and unique', ['b', 'a', 'b'], 'apps.kruise.io/resourcedistribution in (a,b)'],
  ])('%s', (_name, names, want) => {
    expect(copyLabelSelector(names)).toBe(want);
  });
});
