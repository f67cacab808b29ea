import { describe, expect, it } from 'vitest';
import { ledgerKinds, stateCollections, webhookEndpoints } from '../registry.js';
import { deletionProtectionFeature } from '../deletion-protection/index.js';
import { pubFeature } from './index.js';

describe('pubFeature and deletionProtectionFeature', () => {
  it('register on catalog endpoints, with the pub ledger kind and PUB collections', () => {
    const endpoints = webhookEndpoints([pubFeature, deletionProtectionFeature]).filter((e) => !e.observer);
    expect(endpoints.map((e) => e.path).sort()).toEqual(['mutate-pod', 'validate-delete', 'validate-kruise', 'validate-pod']);
    expect(endpoints.find((e) => e.path === 'validate-delete')).toMatchObject({ failurePolicy: 'Fail', objectSelector: expect.anything() });
    expect(ledgerKinds([pubFeature]).map((k) => k.kind)).toEqual(['pub']);
    expect(stateCollections([pubFeature]).map((c) => c.name)).toEqual(['podunavailablebudgets', 'pub-replicasets', 'active-pods']);
  });
});
