import { describe, expect, it } from 'vitest';
import { PROBE_MESSAGE } from '../admission/probe.js';
import { renderClusterSide } from './render.js';
import { probeRequest, readProbeAnswer, type ProbeAnswer } from './probe-wait.js';
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

type Case = [string, { admitted: true } | { error: string }, ProbeAnswer];

describe('readProbeAnswer', () => {
  it.each<Case>([
    ['admitted: the API server does not have the configuration yet', { admitted: true as const }, 'not-yet'],
    ['denied by our probe', { error: `admission webhook "${WEBHOOK}" denied the request: ${PROBE_MESSAGE}` }, 'in-effect'],
    ...[
      'dial tcp 127.0.0.1:1: connect: connection refused',
      'context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
      'x509: certificate signed by unknown authority',
    ].map((cause) => {
      const error = `Internal error occurred: failed calling webhook "${WEBHOOK}": Post "https://edge.example/clusters/c1/s/probe?timeout=5s": ${cause}`;
      return [`loaded, but the edge is unreachable (${cause.split(':')[0]})`, { error }, { unreachable: error }] satisfies Case;
    }),
    ...[
      'an error on the server ("Internal Server Error") has prevented the request from succeeding',
      'the server could not find the requested resource',
      'the server is currently unable to handle the request',
    ].map((cause) => {
      const error = `Internal error occurred: failed calling webhook "${WEBHOOK}": ${cause}`;
      return [`loaded, the edge answers with an error (${cause.slice(0, 20)})`, { error }, { failing: error }] satisfies Case;
    }),
    ['loaded, the edge denies with another message', { error: `admission webhook "${WEBHOOK}" denied the request: internal error: no cluster` }, { failing: `admission webhook "${WEBHOOK}" denied the request: internal error: no cluster` }],
    ['refused by something else (RBAC)', { error: 'podtemplates is forbidden: User "x" cannot create resource' }, { error: 'podtemplates is forbidden: User "x" cannot create resource' }],
  ])('%s', (_n, outcome, want) => {
    expect(readProbeAnswer(WEBHOOK, outcome)).toEqual(want);
  });
});
