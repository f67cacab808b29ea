import { describe, expect, it } from 'vitest';
import { keepsNameLabel } from './server-version.js';

describe('keepsNameLabel', () => {
  it.each([
    [{ major: '1', minor: '20' }, false],
    [{ major: '1', minor: '20+' }, false],
    [{ major: '1', minor: '21' }, true],
    [{ major: '1', minor: '30+' }, true],
    [{ major: '2', minor: '0' }, true],
    // Unreadable: assume a current server, as rendering without a cluster does.
    [{}, true],
  ])('%j → %s', (v, want) => expect(keepsNameLabel(v)).toBe(want));
});
