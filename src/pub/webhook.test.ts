import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../admission/types.js';
import { PUBS_COLLECTION, REPLICASETS_COLLECTION } from './collections.js';
import { pub, readyPod } from './test-builders.js';
import type { PodUnavailableBudget } from './types.js';
import { stampRelatedPubHandler, validatePubHandler } from './webhook.js';
import { fakeState, input, NOW } from './webhook-fixtures.js';

const ctx = { now: NOW };
const create = (pod: object) => input({ operation: 'CREATE', object: pod });
const byRef = pub('by-ref', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 });
const rs = { metadata: { name: 'web-abc', namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', controller: true }] } };

describe('stampRelatedPubHandler', () => {
  it('stamps the PUB whose targetRef names the pod’s Deployment', async () => {
    const state = fakeState({ [PUBS_COLLECTION]: [byRef], [REPLICASETS_COLLECTION]: [rs] });
    const pod = readyPod('p', { owner: { kind: 'ReplicaSet', name: 'web-abc' } });
    const v = (await stampRelatedPubHandler(create(pod) as never, state, ctx)) as Verdict<V1Pod>;
    expect(v.allowed && v.object?.metadata?.annotations?.['kruise.io/related-pub']).toBe('by-ref');
  });

  it('leaves a pod no PUB covers unchanged', async () => {
    const state = fakeState({ [PUBS_COLLECTION]: [byRef], [REPLICASETS_COLLECTION]: [rs] });
    const v = await stampRelatedPubHandler(create(readyPod('p', { labels: { app: 'other' } })) as never, state, ctx);
    expect(v).toEqual({ allowed: true });
  });

  it('fills the namespace from the request', async () => {
    const state = fakeState({ [PUBS_COLLECTION]: [pub('sel')] });
    const pod = readyPod('p');
    delete (pod.metadata as { namespace?: string }).namespace;
    const v = (await stampRelatedPubHandler(create(pod) as never, state, ctx)) as Verdict<V1Pod>;
    expect(v.allowed && v.object?.metadata?.annotations?.['kruise.io/related-pub']).toBe('sel');
  });
});

describe('validatePubHandler', () => {
  const run = (p: PodUnavailableBudget, others: PodUnavailableBudget[]) =>
    validatePubHandler(input({ kind: { group: 'policy.kruise.io', version: 'v1alpha1', kind: 'PodUnavailableBudget' }, operation: 'CREATE', object: p }) as never, fakeState({ [PUBS_COLLECTION]: others }), ctx);

  it('admits a valid PUB', async () => {
    expect(await run(pub('a'), [])).toEqual({ allowed: true });
  });

  it('refuses a conflict with 400', async () => {
    expect(await run(pub('a'), [pub('b')])).toMatchObject({ allowed: false, code: 400, message: expect.stringMatching(/in conflict with other PodUnavailableBudget b$/) });
  });
});
