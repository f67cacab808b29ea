// The /convert route of the shared app (src/app.ts): behind the cluster's path secret, stateless.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { sha256Hex } from '../edge-state/auth.js';

const app = async () => buildApp({
  endpoints: [],
  registry: { credentials: async (id) => (id === 'c1' ? { clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex('s') }], syncTokens: [] } : undefined) },
  state: () => { throw new Error('conversion reads no state'); },
});

const review = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
  request: {
    uid: 'c1', desiredAPIVersion: 'apps.kruise.io/v1alpha1',
    objects: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'log' }, spec: { customVersion: 'v2' } }],
  },
});

describe('POST /clusters/:id/:secret/convert', () => {
  it('answers a ConversionReview', async () => {
    const res = await (await app()).request('/clusters/c1/s/convert', { method: 'POST', body: review });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
      response: {
        uid: 'c1', result: { status: 'Success' },
        convertedObjects: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'log', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v2' } }, spec: {} }],
      },
    });
  });

  it('answers bad input with a Failure review', async () => {
    const res = await (await app()).request('/clusters/c1/s/convert', { method: 'POST', body: 'nope' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ response: { result: { status: 'Failure', message: expect.stringMatching(/not JSON/) } } });
  });

  it.each([['a wrong secret', '/clusters/c1/wrong/convert'], ['an unknown cluster', '/clusters/c2/s/convert']])('is a 404 for %s', async (_n, path) => {
    expect((await (await app()).request(path, { method: 'POST', body: review })).status).toBe(404);
  });
});
