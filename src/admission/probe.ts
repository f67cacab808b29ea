// The configuration probe. The API server loads webhook configurations through an informer, so
// for a moment after an install (or a change) it still admits with the old set, or none: a
// SidecarSet applied right after `install` could miss its first pods. Each webhook configuration
// we render therefore carries one more entry, matching only a PodTemplate labelled with a digest
// of that configuration, and always denying. The installer dry-run creates such a PodTemplate
// until our denial comes back (src/install/probe-wait.ts): then that configuration is in effect.
import { deny, type WebhookEndpoint } from './types.js';

export const PROBE_PATH = 'probe';
export const PROBE_MESSAGE = 'kruise-serverless: webhook configuration probe (in effect)';
/** One label key per configuration: the mutating probe must not answer the validating one's request. */
export const PROBE_LABEL = { mutating: 'kruise-serverless.io/probe-mutating', validating: 'kruise-serverless.io/probe-validating' } as const;
export const PROBE_WEBHOOK_NAME = { mutating: 'mprobe.kruise-serverless.io', validating: 'vprobe.kruise-serverless.io' } as const;

/** Served on every edge at PROBE_PATH, with the same path-secret check as the webhooks. */
export const PROBE_ENDPOINT: WebhookEndpoint = {
  path: PROBE_PATH,
  type: 'validating',
  name: PROBE_WEBHOOK_NAME.validating,
  rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['podtemplates'], operations: ['CREATE'] }],
  failurePolicy: 'Fail',
  timeoutSeconds: 5,
  sideEffects: 'None',
  handlers: [{ feature: 'install', match: {}, handle: () => deny(403, PROBE_MESSAGE) }],
};
