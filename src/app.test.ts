// Change events: the app publishes one for each admitted, non-dry-run change to a reconciled kind.
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { sha256Hex } from './edge-state/auth.js';
import { allow, deny, type WebhookEndpoint } from './admission/types.js';
import { PROBE_MESSAGE } from './admission/probe.js';
import { type ChangeDebouncer, type ChangeEvent } from './edge-state/contracts.js';
import { MemoryStateStore } from './edge-state/memory-store.js';

const endpoint = (verdict: 'allow' | 'deny'): WebhookEndpoint => ({
  path: 'validate-kruise', type: 'validating', name: 'v.test', rules: [], failurePolicy: 'Fail', timeoutSeconds: 5, sideEffects: 'None',
  handlers: [{ feature: 'test', match: {}, handle: () => (verdict === 'allow' ? allow() : deny(403, 'no')) }],
});

function review(op: string, kind: string, opts: { dryRun?: boolean; group?: string; subResource?: string } = {}) {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'u', ...(opts.subResource ? { subResource: opts.subResource } : {}), kind: { group: opts.group ?? 'apps.kruise.io', version: 'v1alpha1', kind }, resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'x' },
      name: 'rd-1', namespace: '', operation: op, userInfo: {}, dryRun: opts.dryRun ?? false,
      object: op === 'DELETE' ? null : { apiVersion: 'apps.kruise.io/v1alpha1', kind, metadata: { name: 'rd-1', ...(op === 'CREATE' ? {} : { resourceVersion: '7' }) } },
      oldObject: op === 'CREATE' ? null : { apiVersion: 'apps.kruise.io/v1alpha1', kind, metadata: { name: 'rd-1', resourceVersion: '7' } },
    },
  });
}

async function send(body: string, verdict: 'allow' | 'deny' = 'allow'): Promise<ChangeEvent[]> {
  const published: ChangeEvent[] = [];
  const app = buildApp({
    endpoints: [endpoint(verdict)],
    registry: { credentials: async () => ({ clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex('s') }], syncTokens: [] }) },
    state: () => ({ collection: async () => undefined }),
    changes: { sink: { publish: async (e) => void published.push(...e) }, kinds: new Set(['apps.kruise.io/v1alpha1/ResourceDistribution']) },
  });
  const res = await app.request('/clusters/c1/s/validate-kruise', { method: 'POST', body });
  expect(res.status).toBe(200);
  await new Promise((r) => setTimeout(r, 0));
  return published;
}

describe('change events', () => {
  it.each([
    ['CREATE', 'created'],
    ['UPDATE', 'updated'],
    ['DELETE', 'deleted'],
  ])('an admitted %s of a reconciled kind is published as %s', async (op, reason) => {
    // With the write as admitted: the Lambda waits for it to commit (src/aws/commit-wait.ts).
    const admitted = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'rd-1', operation: op, ...(op === 'CREATE' ? {} : { basedOn: '7' }) };
    expect(await send(review(op, 'ResourceDistribution'))).toEqual([
      { clusterId: 'c1', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'rd-1', reason, admitted },
    ]);
  });

  it('a scale write is published (kubectl scale asks for a run)', async () => {
    expect(await send(review('UPDATE', 'ResourceDistribution', { subResource: 'scale' }))).toHaveLength(1);
  });

  it.each([
    ['a dry run', review('CREATE', 'ResourceDistribution', { dryRun: true }), 'allow'],
    ['a denied request', review('CREATE', 'ResourceDistribution'), 'deny'],
    ['a kind nobody reconciles', review('CREATE', 'SidecarSet'), 'allow'],
    ['a status write', review('UPDATE', 'ResourceDistribution', { subResource: 'status' }), 'allow'],
  ] as const)('%s is not published', async (_n, body, verdict) => {
    expect(await send(body, verdict)).toEqual([]);
  });
});

describe('explain endpoints', () => {
  async function explainApp() {
    return buildApp({
      endpoints: [],
      registry: { credentials: async (id) => (id === 'c1' ? { clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex('s') }], syncTokens: [] } : undefined) },
      state: () => ({ collection: async () => undefined }),
      explainers: { echo: async (body, _state, ctx) => ({ status: 200, body: { got: body, clusterId: ctx.clusterId } }) },
    });
  }

  it.each([
    ['the right secret', '/clusters/c1/s/explain/echo', 200],
    ['a wrong secret', '/clusters/c1/x/explain/echo', 404],
    ['an unknown explainer', '/clusters/c1/s/explain/nope', 404],
    ['an unknown cluster', '/clusters/c2/s/explain/echo', 404],
  ])('%s → %i', async (_n, path, status) => {
    const res = await (await explainApp()).request(path, { method: 'POST', body: JSON.stringify({ kind: 'Pod' }) });
    expect(res.status).toBe(status);
    if (status === 200) expect(await res.json()).toEqual({ got: { kind: 'Pod' }, clusterId: 'c1' });
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await (await explainApp()).request('/clusters/c1/s/explain/echo', { method: 'POST', body: '{' });
    expect(res.status).toBe(400);
  });
});

describe('workload pod status changes', () => {
  const observer: WebhookEndpoint = {
    path: 'observe-pod-status', type: 'validating', name: 'o.test', rules: [], failurePolicy: 'Ignore', timeoutSeconds: 2, sideEffects: 'None',
    observer: true, observesWorkloadPods: true, handlers: [],
  };
  const podReview = (ready: [string, string], dryRun = false) => {
    const pod = (status: string) => ({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'web-x', namespace: 'prod', resourceVersion: '3', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', controller: true }] },
      status: { conditions: [{ type: 'Ready', status }] },
    });
    return JSON.stringify({
      apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
      request: {
        uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'status',
        name: 'web-x', namespace: 'prod', operation: 'UPDATE', userInfo: {}, dryRun, object: pod(ready[1]), oldObject: pod(ready[0]),
      },
    });
  };

  async function observe(bodies: string[], debounce?: ChangeDebouncer): Promise<ChangeEvent[]> {
    const published: ChangeEvent[] = [];
    const app = buildApp({
      endpoints: [observer],
      registry: { credentials: async () => ({ clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex('s') }], syncTokens: [] }) },
      state: () => ({ collection: async () => undefined }),
      changes: {
        sink: { publish: async (e) => void published.push(...e) }, kinds: new Set(),
        workloadPods: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', podLabel: 'apps.kruise.io/cloneset-instance-id' }],
        ...(debounce ? { debounce } : {}),
      },
    });
    for (const body of bodies) {
      const res = await app.request('/clusters/c1/s/observe-pod-status', { method: 'POST', body });
      expect(((await res.json()) as { response: { allowed: boolean } }).response.allowed).toBe(true);
    }
    await new Promise((r) => setTimeout(r, 0));
    return published;
  }

  const web: ChangeEvent = {
    clusterId: 'c1', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'prod', name: 'web', reason: 'pod-status',
    admitted: { apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name: 'web-x', operation: 'UPDATE', basedOn: '3' },
  };

  it('a pod becoming ready is an event for its CloneSet', async () => {
    expect(await observe([podReview(['False', 'True'])])).toEqual([web]);
  });

  it('a status write a controller does not wait on, or a dry run, is none', async () => {
    expect(await observe([podReview(['True', 'True']), podReview(['False', 'True'], true)])).toEqual([]);
  });

  it('goes through the debouncer: only what it answers is published now', async () => {
    const offered: ChangeEvent[][] = [];
    let first = true;
    const debounce: ChangeDebouncer = {
      offer: async (_c, events) => {
        offered.push([...events]);
        const now = first ? [...events] : [];
        first = false;
        return now;
      },
    };
    expect(await observe([podReview(['False', 'True']), podReview(['True', 'False'])], debounce)).toEqual([web]);
    expect(offered).toEqual([[web], [web]]);
  });
});

describe('the configuration probe', () => {
  const app = async () => buildApp({
    endpoints: [],
    registry: { credentials: async (id) => (id === 'c1' ? { clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex('s') }], syncTokens: [] } : undefined) },
    state: () => ({ collection: async () => undefined }),
  });
  const probeReview = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'p1', kind: { group: '', version: 'v1', kind: 'PodTemplate' }, resource: { group: '', version: 'v1', resource: 'podtemplates' },
      name: 'kruise-serverless-probe', namespace: 'kruise-system', operation: 'CREATE', userInfo: {}, dryRun: true,
      object: { metadata: { name: 'kruise-serverless-probe' } }, oldObject: null,
    },
  });

  it('is served with no feature registered, and always denies with its message', async () => {
    const res = await (await app()).request('/clusters/c1/s/probe', { method: 'POST', body: probeReview });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ response: { uid: 'p1', allowed: false, status: { code: 403, message: PROBE_MESSAGE } } });
  });

  it('checks the path secret like any webhook', async () => {
    expect((await (await app()).request('/clusters/c1/wrong/probe', { method: 'POST', body: probeReview })).status).toBe(404);
  });
});

describe('freshness in the sync summary, and the fallbacks counted', () => {
  const injection: WebhookEndpoint = {
    path: 'mutate-pod', type: 'mutating', name: 'm.test', rules: [], failurePolicy: 'Fail', timeoutSeconds: 3, sideEffects: 'None',
    handlers: [{ feature: 'sidecarset', match: {}, needs: { collections: ['sets'], maxStalenessMs: 180_000, fallback: 'last-known' }, handle: () => allow() }],
  };
  const podReview = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'p', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      name: 'web-0', namespace: 'default', operation: 'CREATE', userInfo: {}, object: { metadata: { name: 'web-0' } },
    },
  });

  it('ageMs counts from the last write-through, pushAgeMs from the push; fallbacks by endpoint, feature and reason', async () => {
    let t = 1_000_000;
    const store = new MemoryStateStore();
    const app = buildApp({
      endpoints: [injection],
      registry: { credentials: async () => ({ clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex('s') }], syncTokens: [{ sha256: await sha256Hex('tok') }] }) },
      state: () => store,
      store: () => store,
      now: () => t,
    });
    const auth = { headers: { authorization: 'Bearer tok' } };
    const post = async () => (await (await app.request('/clusters/c1/s/mutate-pod', { method: 'POST', body: podReview })).json()) as { response: { allowed: boolean; warnings?: string[] } };

    // Never synced: admitted, counted as missing.
    expect((await post()).response).toMatchObject({ allowed: true, warnings: [expect.stringContaining('"sets" is missing')] });
    await store.sync('sets', { mode: 'replace', resourceVersion: '1', observedAt: t, items: [] });
    t += 200_000;
    // Pushes late: answered from the last known state, counted as stale.
    expect((await post()).response).toMatchObject({ allowed: true, warnings: [expect.stringContaining('"sets" is stale (200s old, limit 180s)')] });
    await store.admit([{ collection: 'sets', key: 'a', item: { metadata: { name: 'a' } }, admittedAt: t - 1_000 }]);
    expect((await post()).response.warnings ?? []).toEqual([]);

    const summary = (await (await app.request('/clusters/c1/sync', auth)).json()) as Record<string, unknown>;
    expect(summary).toEqual({
      collections: { sets: { resourceVersion: '1', observedAt: 1_000_000, count: 0, currentAt: t - 1_000, admitted: 1, ageMs: 1_000, pushAgeMs: 200_000 } },
      fallbacks: [
        { endpoint: 'mutate-pod', feature: 'sidecarset', reason: 'missing', count: 1 },
        { endpoint: 'mutate-pod', feature: 'sidecarset', reason: 'stale', count: 1 },
      ],
      fallbacksSince: 1_000_000,
    });
    expect(await (await app.request('/clusters/c1/fallbacks', auth)).json()).toEqual({ fallbacks: summary.fallbacks, fallbacksSince: 1_000_000 });
    expect((await app.request('/clusters/c1/fallbacks')).status).toBe(404);
  });
});
