import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { admit } from '../admission/dispatch.js';
import type { AdmissionReviewResponse } from '../admission/respond.js';
import type { WebhookEndpoint } from '../admission/types.js';
import { webhookEndpoints } from '../registry.js';
import { statefulSetFeature } from './index.js';

const endpoints = webhookEndpoints([statefulSetFeature]);
const endpoint = (path: string): WebhookEndpoint => endpoints.find((e) => e.path === path)!;
const state = { collection: async () => undefined };

type Sts = { apiVersion?: string; kind?: string; metadata: Record<string, unknown>; spec: Record<string, unknown> };
const sts = (image = 'nginx:1', spec: Record<string, unknown> = {}, version = 'v1beta1'): Sts => ({
  apiVersion: `apps.kruise.io/${version}`, kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] } }, ...spec },
});

async function review(path: string, operation: 'CREATE' | 'UPDATE', object: unknown, oldObject?: unknown, version = 'v1beta1') {
  const body = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'u', kind: { group: 'apps.kruise.io', version, kind: 'StatefulSet' }, resource: { group: 'apps.kruise.io', version, resource: 'statefulsets' },
      namespace: 'default', operation, userInfo: {}, object, ...(oldObject ? { oldObject } : {}),
    },
  });
  const res = await admit(endpoint(path), body, { clusterId: 'c', state, now: 0, budgetMs: 1000 });
  expect(res.status).toBe(200);
  return (res.body as AdmissionReviewResponse).response;
}

/** The object as the API server would store it after the defaulting webhook's patch. */
async function defaulted(operation: 'CREATE' | 'UPDATE', object: Sts, oldObject?: Sts, version = 'v1beta1'): Promise<Sts> {
  const response = await review('mutate-statefulset', operation, object, oldObject, version);
  expect(response.allowed).toBe(true);
  if (!response.patch) return object;
  const ops = JSON.parse(atob(response.patch)) as Operation[];
  return jsonpatch.applyPatch(structuredClone(object), ops).newDocument;
}

describe('the StatefulSet endpoints', () => {
  it('mutate-statefulset and validate-kruise take apps.kruise.io statefulsets in v1alpha1 and v1beta1', () => {
    expect(endpoint('mutate-statefulset').rules).toEqual([{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['statefulsets'], operations: ['CREATE', 'UPDATE'] }]);
    expect(endpoint('validate-kruise').rules).toContainEqual({ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['statefulsets'], operations: ['CREATE', 'UPDATE'] });
  });
});

describe('defaulting', () => {
  it.each(['v1beta1', 'v1alpha1'])('%s on create: the spec defaults and the template defaults', async (version) => {
    const got = await defaulted('CREATE', sts('nginx:1', {}, version), undefined, version);
    expect(got.apiVersion).toBe(`apps.kruise.io/${version}`);
    expect(got.spec).toMatchObject({
      replicas: 1, revisionHistoryLimit: 10, podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      template: { spec: { dnsPolicy: 'ClusterFirst', containers: [{ imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }] } },
    });
  });

  it('on update: the template is defaulted only when it changed', async () => {
    const same = await defaulted('UPDATE', sts('nginx:1', { replicas: 3 }), sts('nginx:1'));
    expect(same.spec.template).toEqual(sts().spec.template);
    expect(same.spec.replicas).toBe(3);
    const changed = await defaulted('UPDATE', sts('nginx:2'), sts('nginx:1'));
    expect(changed.spec.template).toMatchObject({ spec: { containers: [{ image: 'nginx:2', imagePullPolicy: 'Always' }] } });
  });

  it('a request without an object is refused with 400; a spec of the wrong type is left to the schema check', async () => {
    expect(await review('mutate-statefulset', 'CREATE', null)).toMatchObject({ allowed: false, status: { code: 400, message: 'the admission request carries no StatefulSet' } });
    const odd = { ...sts(), spec: 'fast' };
    expect(await review('mutate-statefulset', 'CREATE', odd)).toMatchObject({ allowed: true });
    expect((await review('mutate-statefulset', 'CREATE', odd)).patch).toBeUndefined();
  });
});

describe('validation', () => {
  it.each(['v1beta1', 'v1alpha1'])('%s: a defaulted StatefulSet is admitted, an invalid one refused with 422 and OpenKruise’s message', async (version) => {
    const good = await defaulted('CREATE', sts('nginx:1', {}, version), undefined, version);
    expect(await review('validate-kruise', 'CREATE', good, undefined, version)).toMatchObject({ allowed: true });
    const bad = await defaulted('CREATE', sts('nginx:1', { updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } }, version), undefined, version);
    expect(await review('validate-kruise', 'CREATE', bad, undefined, version)).toMatchObject({
      allowed: false,
      status: { code: 422, message: 'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:2, StrVal:""}: can only work with Parallel PodManagementPolicyType' },
    });
  });

  it('a CREATE without metadata.namespace takes the request’s', async () => {
    const { namespace: _ns, ...metadata } = sts().metadata;
    expect(await review('validate-kruise', 'CREATE', { ...sts(), metadata })).toMatchObject({ allowed: true });
  });

  it('an update that breaks InPlaceOnly gets its own message, once the fields are valid', async () => {
    const inPlaceOnly = (image: string, extra: Record<string, unknown> = {}) => {
      const s = sts(image, { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } } });
      const t = s.spec.template as { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } };
      t.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
      Object.assign(t.spec.containers[0]!, extra);
      return s;
    };
    expect(await review('validate-kruise', 'UPDATE', inPlaceOnly('nginx:2'), inPlaceOnly('nginx:1'))).toMatchObject({ allowed: true });
    expect(await review('validate-kruise', 'UPDATE', inPlaceOnly('nginx:2', { args: ['-v'] }), inPlaceOnly('nginx:1'))).toMatchObject({
      allowed: false,
      status: { code: 422, message: 'invalid template modified with InPlaceOnly strategy: add /containers/0/args, currently only image update is allowed for InPlaceOnly' },
    });
    const moved = { ...inPlaceOnly('nginx:2', { args: ['-v'] }) };
    moved.spec = { ...moved.spec, serviceName: 'other' };
    expect((await review('validate-kruise', 'UPDATE', moved, inPlaceOnly('nginx:1'))).status?.message).toMatch(/^spec: Forbidden: updates to statefulset spec/);
  });

  it('the apps group’s StatefulSet is not ours', async () => {
    const body = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
      request: { uid: 'u', kind: { group: 'apps', version: 'v1', kind: 'StatefulSet' }, resource: { group: 'apps', version: 'v1', resource: 'statefulsets' }, namespace: 'default', operation: 'CREATE', userInfo: {}, object: sts('x', { podManagementPolicy: 'bogus' }) },
    });
    const res = await admit(endpoint('validate-kruise'), body, { clusterId: 'c', state, now: 0, budgetMs: 1000 });
    expect((res.body as AdmissionReviewResponse).response).toMatchObject({ allowed: true });
  });
});
