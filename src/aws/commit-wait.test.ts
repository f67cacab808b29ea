import { describe, expect, it } from 'vitest';
import { hasCommitted } from './commit-wait.js';
import type { AdmittedRef } from '../edge-state/contracts.js';

const ref = (operation: AdmittedRef['operation'], basedOn?: string): AdmittedRef => ({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p', operation, ...(basedOn ? { basedOn } : {}) });

describe('hasCommitted', () => {
  it.each<[string, AdmittedRef, Parameters<typeof hasCommitted>[1], boolean]>([
    ['a creation: not until the object is there', ref('CREATE'), undefined, false],
    ['a creation, there', ref('CREATE'), { resourceVersion: '9' }, true],
    ['an update: still at the version it was admitted against', ref('UPDATE', '8'), { resourceVersion: '8' }, false],
    ['an update, moved on', ref('UPDATE', '8'), { resourceVersion: '9' }, true],
    ['an update of an object since deleted', ref('UPDATE', '8'), undefined, true],
    ['an update admitted without a version: cannot tell', ref('UPDATE'), { resourceVersion: '8' }, true],
    ['a deletion: still there, untouched', ref('DELETE', '8'), { resourceVersion: '8' }, false],
    ['a deletion, gone', ref('DELETE', '8'), undefined, true],
    ['a deletion held by finalizers', ref('DELETE', '8'), { resourceVersion: '9', deletionTimestamp: '2026-11-29T10:00:00Z' }, true],
  ])('%s', (_name, r, current, want) => {
    expect(hasCommitted(r, current)).toBe(want);
  });
});
