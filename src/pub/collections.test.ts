import { describe, expect, it } from 'vitest';
import { STATUS_WRITER_FIELD } from '../kube/managed-fields.js';
import { pubsCollection } from './collections.js';

const managedFields = [
  { manager: 'kubectl', time: '2026-11-28T10:00:00Z', fieldsV1: { 'f:spec': {} } },
  { manager: 'kruise-manager', time: '2026-11-28T10:00:05Z', fieldsV1: { 'f:status': { 'f:unavailableAllowed': {} } } },
];

describe('pubsCollection', () => {
  it('is LISTed with managedFields, and notes who last wrote the status', () => {
    expect(pubsCollection.select?.managedFields).toBe('keep');
    const projected = pubsCollection.project!({
      metadata: { name: 'web', namespace: 'ns', uid: 'u', generation: 1, managedFields },
      spec: { maxUnavailable: 1 },
      status: { unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 },
    });
    expect(projected[STATUS_WRITER_FIELD]).toBe('kruise-manager');
    expect((projected.metadata as Record<string, unknown>).managedFields).toBeUndefined();
  });

  it('notes no writer when there is no status', () => {
    const projected = pubsCollection.project!({ metadata: { name: 'web', namespace: 'ns', managedFields }, spec: {} });
    expect(projected[STATUS_WRITER_FIELD]).toBeUndefined();
  });
});
