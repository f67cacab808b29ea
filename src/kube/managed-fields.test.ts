import { describe, expect, it } from 'vitest';
import { lastStatusWriter } from './managed-fields.js';

const entry = (manager: string, time: string, fields: Record<string, unknown>) => ({ manager, operation: 'Update', apiVersion: 'policy.kruise.io/v1alpha1', time, fieldsType: 'FieldsV1', fieldsV1: fields });

describe('lastStatusWriter', () => {
  it('names the newest manager owning a status field', () => {
    const managedFields = [
      entry('kubectl-client-side-apply', '2026-11-28T10:00:00Z', { 'f:spec': {} }),
      entry('kruise-manager', '2026-11-28T10:00:05Z', { 'f:status': { 'f:unavailableAllowed': {} } }),
      entry('kruise-serverless', '2026-11-28T10:01:00Z', { 'f:status': { 'f:disruptedPods': {} } }),
    ];
    expect(lastStatusWriter({ managedFields })).toBe('kruise-serverless');
    expect(lastStatusWriter({ managedFields: managedFields.slice(0, 2) })).toBe('kruise-manager');
  });

  it('says nothing when no entry owns status, or the metadata has none', () => {
    expect(lastStatusWriter({ managedFields: [entry('kubectl', '2026-11-28T10:00:00Z', { 'f:spec': {} })] })).toBeUndefined();
    expect(lastStatusWriter({})).toBeUndefined();
    expect(lastStatusWriter(undefined)).toBeUndefined();
    expect(lastStatusWriter({ managedFields: 'bad' })).toBeUndefined();
  });
});
