import { describe, expect, it } from 'vitest';
import { PROBE_MESSAGE } from '../admission/probe.js';
import { renderClusterSide } from './render.js';
import { probeRequest, readProbeAnswer } from './probe-wait.js';
import { allow, type WebhookEndpoint } from '../admission/types.js';

const endpoint: WebhookEndpoint = {
  path: 'validate-x', type: 'validating', name: 'vx.kruise-serverless.io', rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['x'], operations: ['CREATE'] }],
  failurePolicy: 'Fail', timeoutSeconds: 3, sideEffects: 'None', handlers: [{ feature: 't', match: {}, handle: () => allow() }],
};
const rendered = renderClusterSide({ baseUrl: 'https://edge.example.com', clusterId: 'c1', secret: 'a'.repeat(32), namespace: 'ks', endpoints: [endpoint], crds: [] });
const config = rendered.find((o) => o.kind === 'ValidatingWebhookConfiguration')!;
const WEBHOOK = 'vprobe.kruise-serverless.io';

describe('probeRequest', () => {
  it('is a PodTemplate in our namespace with the configuration’s probe label', () => {
    const probe = probeRequest(config)!;
    const label = (config.webhooks as { objectSelector?: { matchLabels?: Record<string, string> } }[]).at(-1)!.objectSelector!.matchLabels!;
    expect(probe.webhook).toBe(WEBHOOK);
    expect(probe.podTemplate).toMatchObject({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { namespace: 'ks', labels: label } });
  });

  it('is none for a configuration without a probe (rendered by an older version, or foreign)', () => {
    expect(probeRequest({ ...config, webhooks: (config.webhooks as unknown[]).slice(0, -1) })).toBeUndefined();
  });
});

describe('readProbeAnswer', () => {
  it.each([
    ['admitted: the API server does not have the configuration yet', { admitted: true as const }, 'not-yet'],
    ['denied by our probe', { error: `admission webhook "${WEBHOOK}" denied the request: ${PROBE_MESSAGE}` }, 'in-effect'],
    ['the probe could not be called: loaded, but the edge is unreachable', { error: `Internal error occurred: failed calling webhook "${WEBHOOK}": connection refused` }, { unreachable: `Internal error occurred: failed calling webhook "${WEBHOOK}": connection refused` }],
    ['refused by something else (RBAC)', { error: 'podtemplates is forbidden: User "x" cannot create resource' }, { error: 'podtemplates is forbidden: User "x" cannot create resource' }],
  ])('%s', (_n, outcome, want) => {
    expect(readProbeAnswer(WEBHOOK, outcome)).toEqual(want);
  });
});
