import { describe, expect, it } from 'vitest';
import { FEATURE_GATE_DEFAULTS, parseFeatureGates } from './feature-gates.js';

describe('parseFeatureGates', () => {
  it('defaults to OpenKruise defaults', () => expect(parseFeatureGates(undefined)).toEqual(FEATURE_GATE_DEFAULTS));
  it('sets gates from the flag syntax', () => {
    expect(parseFeatureGates('CloneSetPartitionRollback=true, CloneSetShortHash=true')).toMatchObject({ CloneSetPartitionRollback: true, CloneSetShortHash: true, PreparingUpdateAsUpdate: false });
  });
  it('refuses unknown gates and bad values with a clear message', () => {
    expect(() => parseFeatureGates('Nope=true')).toThrow(/unknown feature gate "Nope"/);
    expect(() => parseFeatureGates('CloneSetShortHash=yes')).toThrow(/expected Name=true or Name=false/);
  });
});
