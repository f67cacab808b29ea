import { describe, expect, it } from 'vitest';
import { allow, type WebhookEndpoint } from '../admission/types.js';
import { renderClusterSide } from '../install/render.js';
import { parseServiceRef, routeToService, serviceBaseUrl } from './webhook-service.js';

const ENDPOINTS: WebhookEndpoint[] = [
  { path: 'mutate-pod', type: 'mutating', name: 'mpod.test.kruise-serverless.io', failurePolicy: 'Ignore', sideEffects: 'None', timeoutSeconds: 10,
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }], handlers: [{ feature: 'x', match: {}, handle: () => allow() }] },
  { path: 'validate-pod', type: 'validating', name: 'vpod.test.kruise-serverless.io', failurePolicy: 'Ignore', sideEffects: 'None', timeoutSeconds: 10,
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['pods'] }], handlers: [{ feature: 'x', match: {}, handle: () => allow() }] },
] as unknown as WebhookEndpoint[];

describe('--webhook-service', () => {
  it('parses NS/NAME and NS/NAME:PORT', () => {
    expect(parseServiceRef('kruise-system/ks-webhook')).toEqual({ namespace: 'kruise-system', name: 'ks-webhook', port: 443 });
    expect(parseServiceRef('ns/svc:8443')).toEqual({ namespace: 'ns', name: 'svc', port: 8443 });
    for (const bad of ['svc', 'ns/svc:0', 'ns/svc:99999', 'NS/svc', 'ns/svc/x', 'ns/svc:abc']) expect(parseServiceRef(bad)).toHaveProperty('error');
  });

  it('points every entry that calls the Service URL at the Service, path (cluster id and secret) kept', () => {
    const ref = { namespace: 'kruise-system', name: 'ks-webhook', port: 443 };
    const objects = renderClusterSide({
      baseUrl: serviceBaseUrl(ref), clusterId: 'c1', secret: '0123456789abcdef0123456789abcdef', endpoints: ENDPOINTS, crds: [], nameLabelKept: true,
      overrides: { 'validate-pod': { baseUrl: 'https://edge.example.com' } },
    });
    const routed = routeToService(objects, ref);
    const configs = routed.filter((o) => String(o.kind).endsWith('WebhookConfiguration'));
    const clientConfigs = configs.flatMap((c) => (c.webhooks as { name: string; clientConfig: Record<string, unknown> }[]).map((w) => [w.name, w.clientConfig] as const));
    expect(Object.fromEntries(clientConfigs)).toMatchObject({
      'mpod.test.kruise-serverless.io': { service: { namespace: 'kruise-system', name: 'ks-webhook', port: 443, path: '/clusters/c1/0123456789abcdef0123456789abcdef/mutate-pod' } },
      'vpod.test.kruise-serverless.io': { url: 'https://edge.example.com/clusters/c1/0123456789abcdef0123456789abcdef/validate-pod' },
    });
    for (const [, cc] of clientConfigs) if (cc.service) expect(cc).not.toHaveProperty('url');
    expect(routed.filter((o) => !String(o.kind).endsWith('WebhookConfiguration'))).toEqual(objects.filter((o) => !String(o.kind).endsWith('WebhookConfiguration')));
  });
});
