import { describe, expect, it } from 'vitest';
import type { AdmissionInput } from '../admission/types.js';
import { validateEphemeralJobHandler } from './webhook.js';

const job = (ephemeralContainers: unknown[]) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob', metadata: { name: 'j', namespace: 'ns' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { ephemeralContainers } } });
const review = (operation: 'CREATE' | 'UPDATE', object: unknown): AdmissionInput => ({
  uid: 'u', kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'EphemeralJob' }, resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'ephemeraljobs' },
  namespace: 'ns', operation, userInfo: {}, dryRun: false, clusterId: 'c', object,
});

describe('validateEphemeralJobHandler', () => {
  it('an invalid job gets its field error; a valid one is allowed, created or updated', async () => {
    expect(await validateEphemeralJobHandler(review('CREATE', job([{ name: 'debug' }])), { collection: async () => undefined }, { now: 0 })).toMatchObject({ allowed: false, code: 400 });
    expect(await validateEphemeralJobHandler(review('CREATE', job([{ name: 'debug', image: 'busybox' }])), { collection: async () => undefined }, { now: 0 })).toMatchObject({ allowed: true });
    expect(await validateEphemeralJobHandler(review('UPDATE', job([{ name: 'debug', image: 'busybox' }])), { collection: async () => undefined }, { now: 0 })).toMatchObject({ allowed: true });
  });
});
