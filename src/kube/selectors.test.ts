import { describe, expect, it } from 'vitest';
import { labelKeyError, labelValueError, matchesLabelSelector, selectorProblems, type LabelSelector } from './selectors.js';

const labels = { env: 'prod', team: 'a', 'example.com/tier': 'web' };

describe('matchesLabelSelector', () => {
  it.each<[string, LabelSelector | undefined | null, Record<string, string>, boolean]>([
    ['missing selector matches nothing', undefined, labels, false],
    ['null selector matches nothing', null, labels, false],
    ['empty selector matches everything', {}, labels, true],
    ['empty selector matches no labels too', { matchLabels: {}, matchExpressions: [] }, {}, true],
    ['matchLabels equal', { matchLabels: { env: 'prod' } }, labels, true],
    ['matchLabels with prefix key', { matchLabels: { 'example.com/tier': 'web' } }, labels, true],
    ['matchLabels other value', { matchLabels: { env: 'dev' } }, labels, false],
    ['matchLabels absent key', { matchLabels: { zone: 'x' } }, labels, false],
    ['matchLabels all must hold', { matchLabels: { env: 'prod', team: 'b' } }, labels, false],
    ['In: value listed', { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev', 'prod'] }] }, labels, true],
    ['In: value not listed', { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, labels, false],
    ['In: key absent', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] }, labels, false],
    ['NotIn: value not listed', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, labels, true],
    ['NotIn: value listed', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, labels, false],
    ['NotIn: key absent matches', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['x'] }] }, labels, true],
    ['Exists: present', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }, labels, true],
    ['Exists: absent', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels, false],
    ['Exists: empty value counts as present', { matchExpressions: [{ key: 'flag', operator: 'Exists' }] }, { flag: '' }, true],
    ['DoesNotExist: absent', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels, true],
    ['DoesNotExist: present', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, labels, false],
    ['matchLabels AND expressions', { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'team', operator: 'In', values: ['b'] }] }, labels, false],
    ['several expressions all hold', { matchExpressions: [{ key: 'env', operator: 'Exists' }, { key: 'zone', operator: 'DoesNotExist' }] }, labels, true],
    ['unknown operator matches nothing', { matchExpressions: [{ key: 'env', operator: 'Equals', values: ['prod'] }] }, labels, false],
    ['In without values is invalid: nothing', { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] }, labels, false],
  ])('%s', (_name, sel, l, want) => {
    expect(matchesLabelSelector(sel, l)).toBe(want);
  });
});

describe('selectorProblems', () => {
  it.each<[string, LabelSelector, string[]]>([
    ['valid', { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'x', operator: 'In', values: ['y'] }] }, []],
    ['In needs values', { matchExpressions: [{ key: 'x', operator: 'In' }] }, ['matchExpressions[0].values']],
    ['NotIn needs values', { matchExpressions: [{ key: 'x', operator: 'NotIn', values: [] }] }, ['matchExpressions[0].values']],
    ['Exists takes none', { matchExpressions: [{ key: 'x', operator: 'Exists', values: ['y'] }] }, ['matchExpressions[0].values']],
    ['DoesNotExist takes none', { matchExpressions: [{ key: 'x', operator: 'DoesNotExist', values: ['y'] }] }, ['matchExpressions[0].values']],
    ['unknown operator', { matchExpressions: [{ key: 'x', operator: 'in', values: ['y'] }] }, ['matchExpressions[0].operator']],
    ['bad key', { matchExpressions: [{ key: '-x', operator: 'Exists' }] }, ['matchExpressions[0].key']],
    ['bad value', { matchExpressions: [{ key: 'x', operator: 'In', values: ['a b'] }] }, ['matchExpressions[0].values[0]']],
    ['bad matchLabels key and value', { matchLabels: { 'a/b/c': 'x y' } }, ['matchLabels', 'matchLabels[a/b/c]']],
  ])('%s', (_name, sel, fields) => {
    expect(selectorProblems(sel).map((p) => p.field)).toEqual(fields);
  });
});

describe('label syntax', () => {
  it.each<[string, string, boolean]>([
    ['simple', 'app', true],
    ['with prefix', 'apps.kruise.io/resourcedistribution', true],
    ['dots, dashes, underscores inside', 'a.b-c_d', true],
    ['empty', '', false],
    ['starts with dash', '-a', false],
    ['uppercase prefix', 'Example.com/a', false],
    ['empty prefix', '/a', false],
    ['name too long', 'a'.repeat(64), false],
    ['two slashes', 'a/b/c', false],
  ])('key %s', (_name, key, ok) => {
    expect(labelKeyError(key) === undefined).toBe(ok);
  });

  it.each<[string, string, boolean]>([
    ['empty', '', true],
    ['plain', 'prod', true],
    ['63 chars', 'a'.repeat(63), true],
    ['64 chars', 'a'.repeat(64), false],
    ['space', 'a b', false],
    ['ends with dot', 'a.', false],
  ])('value %s', (_name, value, ok) => {
    expect(labelValueError(value) === undefined).toBe(ok);
  });
});
