import { describe, expect, it } from 'vitest';
import { ledgerKinds, stateCollections, webhookEndpoints } from '../registry.js';
import { workloadSpreadFeature } from './index.js';

describe('workloadSpreadFeature', () => {
  it('registers on the pod and kruise endpoints', () => {
    const endpoints = webhookEndpoints([workloadSpreadFeature]).filter((e) => !e.observer);
    expect(endpoints.map((e) => e.path).sort()).toEqual(['mutate-pod', 'validate-kruise', 'validate-pod']);
  });

  it('declares its collections and ledger kind', () => {
    expect(stateCollections([workloadSpreadFeature]).map((c) => c.name)).toContain('workloadspreads');
    expect(ledgerKinds([workloadSpreadFeature]).map((k) => k.kind)).toEqual(['workloadspread']);
  });
});
