import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCrd, type CoreDefinitions } from '../api/crd.js';
import { ALL_KINDS } from '../api/index.js';
import type { KubeObject } from '../kube/http.js';
import type { WebhookEndpoint } from '../admission/types.js';
import { checkStoredVersions, conversionWebhookRemoval, droppedStoredVersions, withConversionWebhook } from './conversion.js';
import { renderClusterSide } from './render.js';

const snapshot = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'api', 'core-openapi.json'), 'utf8')) as CoreDefinitions;
const crdOf = (kind: string) => renderCrd(ALL_KINDS.find((k) => k.kind === kind)!, snapshot) as unknown as KubeObject;
type Spec = { versions: { name: string; storage: boolean; served: boolean }[]; conversion: unknown };
const SECRET = 'x'.repeat(40);

describe('withConversionWebhook', () => {
  it('points a Webhook kind at the edge and stores v1beta1, as OpenKruise', () => {
    const out = withConversionWebhook(crdOf('SidecarSet'), 'https://edge.example/clusters/c1/s/convert', 'Q0E=');
    const spec = out.spec as Spec;
    expect(spec.conversion).toEqual({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://edge.example/clusters/c1/s/convert', caBundle: 'Q0E=' } } });
    expect(spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, false], ['v1beta1', true, true]]);
  });

  it('leaves a kind with conversion None as it is', () => {
    const crd = crdOf('BroadcastJob');
    expect(withConversionWebhook(crd, 'https://edge.example/convert')).toBe(crd);
  });
});

describe('renderClusterSide', () => {
  it('gives every Webhook kind the edge URL under the cluster path secret', () => {
    const crds = ['StatefulSet', 'DaemonSet', 'SidecarSet', 'CloneSet'].map(crdOf);
    const out = renderClusterSide({ baseUrl: 'https://edge.example/base', clusterId: 'c1', secret: SECRET, endpoints: [], crds });
    const conversions = out.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => [o.metadata?.name, ((o.spec as Spec).conversion as { strategy: string; webhook?: { clientConfig: { url: string } } })]);
    expect(conversions).toEqual([
      ['statefulsets.apps.kruise.io', { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `https://edge.example/base/clusters/c1/${SECRET}/convert` } } }],
      ['daemonsets.apps.kruise.io', { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `https://edge.example/base/clusters/c1/${SECRET}/convert` } } }],
      ['sidecarsets.apps.kruise.io', { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `https://edge.example/base/clusters/c1/${SECRET}/convert` } } }],
      ['clonesets.apps.kruise.io', { strategy: 'None' }],
    ]);
  });

  it('refuses an admission endpoint on the conversion path', () => {
    const endpoint: WebhookEndpoint = { path: 'convert', type: 'validating', name: 'v.test', rules: [], failurePolicy: 'Fail', timeoutSeconds: 2, sideEffects: 'None', handlers: [] };
    expect(() => renderClusterSide({ baseUrl: 'https://edge.example', clusterId: 'c1', secret: SECRET, endpoints: [endpoint], crds: [] })).toThrow(/path "convert" is the CRD conversion webhook's/);
  });
});

describe('stored versions', () => {
  const live = (stored: string[]) => ({ ...crdOf('SidecarSet'), status: { storedVersions: stored } }) as KubeObject;
  it('are all kept by our CRDs over an OpenKruise 1.9 cluster', () => {
    for (const kind of ['StatefulSet', 'DaemonSet', 'SidecarSet', 'BroadcastJob', 'AdvancedCronJob', 'ImagePullJob']) {
      expect(droppedStoredVersions(crdOf(kind), live(['v1alpha1', 'v1beta1']))).toEqual([]);
    }
  });

  it('refuses a CRD that drops one, naming it and the migration', () => {
    const desired = crdOf('CloneSet');
    expect(droppedStoredVersions(desired, live(['v1alpha1', 'v1beta1']))).toEqual(['v1beta1']);
    expect(() => checkStoredVersions([{ desired, live: live(['v1beta1']) }])).toThrow(/clonesets.apps.kruise.io: stores objects as v1beta1 .*\n.*Storage migration/s);
    expect(() => checkStoredVersions([{ desired, live: undefined }])).not.toThrow();
  });
});

describe('conversionWebhookRemoval', () => {
  it('puts a CRD the installer pointed at the edge back to None, storing the version features read', () => {
    const installed = withConversionWebhook(crdOf('DaemonSet'), 'https://edge.example/convert');
    const patch = conversionWebhookRemoval(installed) as { spec: Spec };
    expect(patch.spec.conversion).toEqual({ strategy: 'None', webhook: null });
    expect(patch.spec.versions.map((v) => [v.name, v.storage])).toEqual([['v1alpha1', true], ['v1beta1', false]]);
  });
  it('leaves CRDs that are not on the webhook', () => {
    expect(conversionWebhookRemoval(crdOf('DaemonSet'))).toBeUndefined();
    expect(conversionWebhookRemoval(crdOf('CloneSet'))).toBeUndefined();
  });
});
