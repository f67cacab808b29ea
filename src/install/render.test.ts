import { describe, expect, it } from 'vitest';
import { allow, type LabelSelector, type WebhookEndpoint } from '../admission/types.js';
import type { KubeObject } from '../kube/http.js';
import { POD_STATUS_OBSERVER } from '../admission/endpoints.js';
import { FEATURES, webhookEndpoints } from '../registry.js';
import {
  carryForeignSelectors,
  checkWebhookTarget,
  InstallOptionError,
  MUTATING_CONFIG,
  renderClusterSide,
  SELECTOR_KEYS_ANNOTATION,
  VALIDATING_CONFIG,
  webhookUrl,
  type RenderOptions,
  type WebhookEntry,
} from './render.js';

const SECRET = 'a'.repeat(64);
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

function endpoint(path: string, type: WebhookEndpoint['type'], extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    path,
    type,
    name: `${path}.kruise-serverless.io`,
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
    failurePolicy: 'Fail',
    timeoutSeconds: 3,
    sideEffects: 'NoneOnDryRun',
    handlers: [{ feature: 'noop', match: {}, handle: () => allow() }],
    ...extra,
  };
}

const crd = (group: string, plural: string, subresources: object = {}): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: { group, names: { plural, kind: plural }, versions: [{ name: 'v1alpha1', subresources }] },
});

function render(extra: Partial<RenderOptions> = {}): KubeObject[] {
  return renderClusterSide({
    baseUrl: 'https://edge.example.com',
    clusterId: 'prod-1',
    secret: SECRET,
    endpoints: [endpoint('mutate-pod', 'mutating'), endpoint('validate-pod', 'validating')],
    crds: [crd('apps.kruise.io', 'clonesets', { status: {}, scale: {} })],
    ...extra,
  });
}

const config = (objs: KubeObject[], kind: string) => objs.find((o) => o.kind === kind);
const hooks = (objs: KubeObject[], kind = 'MutatingWebhookConfiguration') => (config(objs, kind)?.webhooks ?? []) as WebhookEntry[];
const hook = (objs: KubeObject[], kind = 'MutatingWebhookConfiguration') => hooks(objs, kind)[0]!;

describe('webhookUrl', () => {
  it.each([
    ['plain host', 'https://edge.example.com', 'https://edge.example.com/clusters/c1/S/mutate-pod'],
    ['trailing slash', 'https://edge.example.com/', 'https://edge.example.com/clusters/c1/S/mutate-pod'],
    ['path prefix', 'https://edge.example.com/ks/', 'https://edge.example.com/ks/clusters/c1/S/mutate-pod'],
    ['port', 'https://127.0.0.1:8443', 'https://127.0.0.1:8443/clusters/c1/S/mutate-pod'],
  ])('%s', (_n, base, want) => {
    expect(webhookUrl(base, 'c1', SECRET, 'mutate-pod')).toBe(want.replace('/S/', `/${SECRET}/`));
  });

  it.each([
    ['http', 'http://edge.example.com', /must use https/],
    ['other scheme', 'ftp://edge.example.com', /must use https/],
    ['not a URL', 'edge.example.com', /is not a URL/],
    ['query', 'https://edge.example.com/?a=b', /query string/],
    ['empty query', 'https://edge.example.com/?', /query string/],
    ['fragment', 'https://edge.example.com/#x', /fragment/],
    ['user info', 'https://u:p@edge.example.com', /user info/],
  ])('rejects a base URL: %s', (_n, base, message) => {
    expect(() => webhookUrl(base, 'c1', SECRET, 'p')).toThrow(InstallOptionError);
    expect(() => webhookUrl(base, 'c1', SECRET, 'p')).toThrow(message);
  });

  it.each([
    ['short secret', 'c1', 'abc', /at least 32/],
    ['secret with a slash', 'c1', `${'a'.repeat(40)}/x`, /URL-safe/],
    ['cluster id with capitals', 'Prod', SECRET, /cluster id "Prod"/],
    ['cluster id with a slash', 'a/b', SECRET, /cluster id/],
  ])('rejects %s', (_n, id, secret, message) => {
    expect(() => webhookUrl('https://e.example.com', id, secret, 'p')).toThrow(message);
  });

  it('checkWebhookTarget checks the same without an endpoint', () => {
    expect(() => checkWebhookTarget('http://e.example.com', 'c1', SECRET)).toThrow(/https/);
    expect(() => checkWebhookTarget('https://e.example.com', 'c1', 'x')).toThrow(/at least 32/);
    expect(checkWebhookTarget('https://e.example.com', 'c1', SECRET).host).toBe('e.example.com');
  });

  it('never puts the secret in an error', () => {
    const bad = `${'s'.repeat(40)}?`;
    expect(() => webhookUrl('https://e.example.com', 'c1', bad, 'p')).toThrow(/40|41 characters/);
    try {
      webhookUrl('https://e.example.com', 'c1', bad, 'p');
    } catch (e) {
      expect((e as Error).message).not.toContain(bad);
    }
  });
});

describe('renderClusterSide', () => {
  it('orders CRDs, Namespace, RBAC, then webhook configurations', () => {
    expect(render().map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'CustomResourceDefinition/clonesets.apps.kruise.io',
      'Namespace/kruise-system',
      'ServiceAccount/kruise-serverless-reconciler',
      'ClusterRole/kruise-serverless-reconciler',
      'ClusterRoleBinding/kruise-serverless-reconciler',
      `MutatingWebhookConfiguration/${MUTATING_CONFIG}`,
      `ValidatingWebhookConfiguration/${VALIDATING_CONFIG}`,
    ]);
  });

  it.each<[string, WebhookEndpoint[], string[]]>([
    ['both types', [endpoint('m', 'mutating'), endpoint('v', 'validating')], ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']],
    ['only mutating', [endpoint('m', 'mutating'), endpoint('m2', 'mutating')], ['MutatingWebhookConfiguration']],
    ['only validating', [endpoint('v', 'validating')], ['ValidatingWebhookConfiguration']],
    ['no endpoints', [], []],
  ])('splits endpoints by type: %s', (_n, endpoints, kinds) => {
    const objs = render({ endpoints });
    expect(objs.filter((o) => o.kind?.endsWith('WebhookConfiguration')).map((o) => o.kind)).toEqual(kinds);
    for (const e of endpoints) {
      const kind = e.type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
      expect(hooks(objs, kind).map((h) => h.name)).toContain(e.name);
    }
  });

  it('fills the webhook defaults', () => {
    const objs = render();
    expect(hook(objs)).toEqual({
      name: 'mutate-pod.kruise-serverless.io',
      clientConfig: { url: `https://edge.example.com/clusters/prod-1/${SECRET}/mutate-pod` },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      failurePolicy: 'Fail',
      sideEffects: 'NoneOnDryRun',
      timeoutSeconds: 3,
      admissionReviewVersions: ['v1', 'v1beta1'],
      matchPolicy: 'Equivalent',
      namespaceSelector: {
        matchExpressions: [
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'kruise-system'] },
          { key: 'kruise-serverless.io/webhooks', operator: 'NotIn', values: ['disabled'] },
        ],
      },
      reinvocationPolicy: 'Never',
    });
    const v = hook(objs, 'ValidatingWebhookConfiguration');
    expect(v).not.toHaveProperty('reinvocationPolicy');
    expect(v).not.toHaveProperty('objectSelector');
  });

  it('sends the observers of what lives in the install namespace only that namespace where the API server keeps its name label (1.21+)', () => {
    const objs = render({ endpoints: webhookEndpoints(FEATURES) });
    for (const name of ['observe-config.kruise-serverless.io', 'observe-revisions.kruise-serverless.io']) {
      expect(hooks(objs, 'ValidatingWebhookConfiguration').find((h) => h.name === name)?.namespaceSelector).toEqual({
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['kruise-system'] }],
      });
    }
  });

  it('before 1.21 sends them every namespace but kube-system, by a selector that holds when the install namespace loses its labels', () => {
    const objs = render({ endpoints: webhookEndpoints(FEATURES), nameLabelKept: false });
    for (const name of ['observe-config.kruise-serverless.io', 'observe-revisions.kruise-serverless.io']) {
      expect(hooks(objs, 'ValidatingWebhookConfiguration').find((h) => h.name === name)?.namespaceSelector).toEqual({
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
      });
    }
  });

  it.each<[string, Partial<RenderOptions>, (h: WebhookEntry) => unknown, unknown]>([
    ['no caBundle unless given', {}, (h) => h.clientConfig, { url: expect.any(String) }],
    ['caBundle from PEM is base64', { caBundle: PEM }, (h) => (h.clientConfig as { caBundle?: string }).caBundle, btoa(PEM)],
    ['caBundle already base64 is kept', { caBundle: btoa(PEM) }, (h) => (h.clientConfig as { caBundle?: string }).caBundle, btoa(PEM)],
    ['our namespace is excluded', { namespace: 'ks' }, (h) => h.namespaceSelector?.matchExpressions?.[0]?.values, ['kube-system', 'ks']],
    ['reinvocationPolicy from the endpoint', { endpoints: [endpoint('m', 'mutating', { reinvocationPolicy: 'IfNeeded' })] }, (h) => h.reinvocationPolicy, 'IfNeeded'],
    ['timeout from the endpoint', { endpoints: [endpoint('m', 'mutating', { timeoutSeconds: 5 })] }, (h) => h.timeoutSeconds, 5],
    ['failurePolicy override', { overrides: { 'mutate-pod': { failurePolicy: 'Ignore' } } }, (h) => h.failurePolicy, 'Ignore'],
    ['timeout override', { overrides: { 'mutate-pod': { timeoutSeconds: 10 } } }, (h) => h.timeoutSeconds, 10],
    ['override of another endpoint leaves this one', { overrides: { 'validate-pod': { failurePolicy: 'Ignore' } } }, (h) => h.failurePolicy, 'Fail'],
    ['sideEffects from the endpoint', { endpoints: [endpoint('m', 'mutating', { sideEffects: 'None' })] }, (h) => h.sideEffects, 'None'],
    ['served elsewhere: its URL, same cluster and secret, without the edge\'s CA', { caBundle: PEM, overrides: { 'mutate-pod': { baseUrl: 'https://abc.lambda-url.us-east-1.on.aws' } } },
      (h) => h.clientConfig, { url: expect.stringMatching(/^https:\/\/abc\.lambda-url\.us-east-1\.on\.aws\/clusters\/[^/]+\/[^/]+\/mutate-pod$/) }],
    ['served elsewhere with its own CA', { overrides: { 'mutate-pod': { baseUrl: 'https://hooks.internal', caBundle: PEM } } },
      (h) => (h.clientConfig as { caBundle?: string }).caBundle, btoa(PEM)],
  ])('%s', (_n, extra, pick, want) => {
    expect(pick(hook(render(extra)))).toEqual(want);
  });

  it.each<[string, Partial<RenderOptions>, { ns: LabelSelector; obj?: LabelSelector }]>([
    [
      "endpoint's own selectors are ANDed with ours",
      { endpoints: [endpoint('m', 'mutating', { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }, objectSelector: { matchLabels: { a: 'b' } } })] },
      {
        ns: { matchExpressions: [expect.objectContaining({ key: 'kubernetes.io/metadata.name' }), expect.objectContaining({ key: 'kruise-serverless.io/webhooks' }), { key: 'env', operator: 'In', values: ['prod'] }] },
        obj: { matchLabels: { a: 'b' } },
      },
    ],
    [
      'user opt-in selectors are merged in',
      {
        endpoints: [endpoint('m', 'mutating', { objectSelector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'x', operator: 'Exists' }] } })],
        overrides: { m: { namespaceSelector: { matchLabels: { team: 'web' } }, objectSelector: { matchLabels: { a: 'c', inject: 'yes' }, matchExpressions: [{ key: 'y', operator: 'DoesNotExist' }] } } },
      },
      {
        ns: { matchLabels: { team: 'web' }, matchExpressions: [expect.anything(), expect.anything()] },
        obj: { matchLabels: { a: 'c', inject: 'yes' }, matchExpressions: [{ key: 'x', operator: 'Exists' }, { key: 'y', operator: 'DoesNotExist' }] },
      },
    ],
  ])('selectors: %s', (_n, extra, want) => {
    const h = hook(render(extra));
    expect(h.namespaceSelector).toEqual(want.ns);
    expect(h.objectSelector).toEqual(want.obj);
  });

  it('needs no webhook target for a CRDs-only install (npm start --detach)', () => {
    expect(render({ baseUrl: 'https://127.0.0.1', secret: 'unused', endpoints: [] }).map((o) => o.kind)).not.toContain('MutatingWebhookConfiguration');
  });

  it('does not alias the endpoint definitions', () => {
    const e = endpoint('m', 'mutating', { objectSelector: { matchExpressions: [{ key: 'x', operator: 'Exists' }] } });
    const h = hook(render({ endpoints: [e] }));
    h.objectSelector!.matchExpressions!.push({ key: 'z', operator: 'Exists' });
    (h.rules as { resources: string[] }[])[0]!.resources.push('nodes');
    expect(e.objectSelector?.matchExpressions).toHaveLength(1);
    expect(e.rules[0]!.resources).toEqual(['pods']);
  });

  it.each<[string, Partial<RenderOptions>, RegExp]>([
    ['bad base URL', { baseUrl: 'http://edge.example.com' }, /https/],
    ['override for an unknown path', { overrides: { 'mutate-pods': { failurePolicy: 'Ignore' } } }, /"mutate-pods": no such webhook endpoint \(endpoints: mutate-pod, validate-pod\)/],
    ['bad failurePolicy', { overrides: { 'mutate-pod': { failurePolicy: 'Never' as 'Fail' } } }, /Fail or Ignore/],
    ['timeout above 30', { overrides: { 'mutate-pod': { timeoutSeconds: 31 } } }, /1 to 30, got 31/],
    ['timeout of 0', { endpoints: [endpoint('m', 'mutating', { timeoutSeconds: 0 })] }, /1 to 30/],
    ['duplicate path', { endpoints: [endpoint('m', 'mutating'), endpoint('m', 'validating', { name: 'other' })] }, /path "m" is registered twice/],
    ['bad namespace', { namespace: 'Kruise_System' }, /namespace "Kruise_System"/],
    ['not a certificate', { caBundle: 'hello' }, /caBundle/],
  ])('rejects %s', (_n, extra, message) => {
    expect(() => render(extra)).toThrow(message);
  });

  it('labels its namespace with the webhook opt-out', () => {
    const ns = render({ namespace: 'ks' }).find((o) => o.kind === 'Namespace');
    expect(ns?.metadata).toMatchObject({ name: 'ks', labels: { 'kruise-serverless.io/webhooks': 'disabled' } });
  });

  it('binds the reconciler role to the service account in our namespace and to the group off-cluster reconcilers map to', () => {
    const crb = render({ namespace: 'ks' }).find((o) => o.kind === 'ClusterRoleBinding');
    expect(crb?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kruise-serverless-reconciler', namespace: 'ks' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'kruise-serverless-reconciler' },
    ]);
  });

  it('records the selector keys it sets', () => {
    const objs = render({ overrides: { 'mutate-pod': { objectSelector: { matchLabels: { inject: 'yes' } } } } });
    const ann = (config(objs, 'MutatingWebhookConfiguration')?.metadata?.annotations as Record<string, string>)[SELECTOR_KEYS_ANNOTATION]!;
    expect(JSON.parse(ann)).toEqual({
      'mutate-pod.kruise-serverless.io': { namespaceSelector: ['kubernetes.io/metadata.name', 'kruise-serverless.io/webhooks'], objectSelector: ['inject'] },
      'mprobe.kruise-serverless.io': { namespaceSelector: ['kubernetes.io/metadata.name'], objectSelector: ['kruise-serverless.io/probe-mutating'] },
    });
  });
});

describe('the configuration probe', () => {
  const probeOf = (objs: KubeObject[], kind: string) => hooks(objs, kind).at(-1)!;
  const digestOf = (objs: KubeObject[], kind: string, key: string) => probeOf(objs, kind).objectSelector?.matchLabels?.[key];

  it('ends each non-empty configuration: a PodTemplate CREATE in our namespace, labelled with a digest', () => {
    const objs = render({ namespace: 'ks' });
    for (const [kind, name, key] of [
      ['MutatingWebhookConfiguration', 'mprobe.kruise-serverless.io', 'kruise-serverless.io/probe-mutating'],
      ['ValidatingWebhookConfiguration', 'vprobe.kruise-serverless.io', 'kruise-serverless.io/probe-validating'],
    ] as const) {
      const probe = probeOf(objs, kind);
      expect(probe).toMatchObject({
        name, failurePolicy: 'Fail', sideEffects: 'None',
        rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['podtemplates'], operations: ['CREATE'] }],
        namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ks'] }] },
      });
      expect((probe.clientConfig as { url: string }).url).toMatch(/\/clusters\/[^/]+\/[^/]+\/probe$/);
      expect(digestOf(objs, kind, key)).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('has a digest that changes with the other entries, and none in an empty configuration', () => {
    const key = 'kruise-serverless.io/probe-mutating';
    const a = digestOf(render(), 'MutatingWebhookConfiguration', key);
    expect(digestOf(render(), 'MutatingWebhookConfiguration', key)).toBe(a);
    expect(digestOf(render({ overrides: { 'mutate-pod': { timeoutSeconds: 7 } } }), 'MutatingWebhookConfiguration', key)).not.toBe(a);
    const validatingOnly = render({ endpoints: [endpoint('observe', 'validating')] });
    expect(config(validatingOnly, 'MutatingWebhookConfiguration')).toBeUndefined();
  });
});

describe('the pod-status observer', () => {
  const anyOf = (...labels: string[]) => labels.map((l) => ({ name: `${l}.observe.kruise-serverless.io`, objectSelector: { matchExpressions: [{ key: l, operator: 'Exists' as const }] } }));

  it('renders one entry per objectSelectorAnyOf element, each ANDed with the overrides', () => {
    const e = endpoint('observe', 'validating', { objectSelectorAnyOf: anyOf('a', 'b') });
    const objs = render({ endpoints: [e], overrides: { observe: { failurePolicy: 'Ignore', objectSelector: { matchLabels: { team: 'x' } } } } });
    const entries = hooks(objs, 'ValidatingWebhookConfiguration').filter((h) => !h.name.includes('probe'));
    expect(entries.map((h) => [h.name, (h.clientConfig as { url: string }).url.endsWith('/observe'), h.failurePolicy, h.objectSelector])).toEqual([
      ['a.observe.kruise-serverless.io', true, 'Ignore', { matchLabels: { team: 'x' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] }],
      ['b.observe.kruise-serverless.io', true, 'Ignore', { matchLabels: { team: 'x' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }],
    ]);
  });

  it('refuses two entries with one name', () => {
    const e = endpoint('observe', 'validating', { objectSelectorAnyOf: anyOf('a', 'a') });
    expect(() => render({ endpoints: [e] })).toThrow(/name "a.observe.kruise-serverless.io" is registered twice/);
  });

  it('in production: StatefulSet (native and Advanced), CloneSet, Advanced DaemonSet, BroadcastJob and ImagePullJob pods, pods/status UPDATE, never blocking', () => {
    const objs = render({ endpoints: webhookEndpoints(FEATURES) });
    const entry = hooks(objs, 'ValidatingWebhookConfiguration').filter((h) => (h.clientConfig as { url: string }).url.endsWith(`/${POD_STATUS_OBSERVER}`));
    const observer = (kind: string, podLabel: string) =>
      expect.objectContaining({
        name: `${kind}.observe-pod-status.kruise-serverless.io`,
        rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'], operations: ['UPDATE'] }],
        failurePolicy: 'Ignore',
        timeoutSeconds: 2,
        sideEffects: 'None',
        objectSelector: { matchExpressions: [{ key: podLabel, operator: 'Exists' }] },
        namespaceSelector: {
          matchExpressions: [
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'kruise-system'] },
            { key: 'kruise-serverless.io/webhooks', operator: 'NotIn', values: ['disabled'] },
          ],
        },
      });
    // StatefulSet pods first: PersistentPodState (listed before CloneSet) declares native StatefulSets' pods.
    expect(entry).toEqual([observer('statefulset', 'statefulset.kubernetes.io/pod-name'), observer('cloneset', 'apps.kruise.io/cloneset-instance-id'), observer('daemonset', 'daemonset.kruise-serverless.io/name'), observer('broadcastjob', 'broadcastjob-name'), observer('imagepulljob', 'imagepulljob.kruise-serverless.io/name')]);
  });

  it('is not registered when no feature declares workload pods', () => {
    expect(webhookEndpoints(FEATURES.map(({ workloadPods: _w, ...f }) => f)).map((e) => e.path)).not.toContain(POD_STATUS_OBSERVER);
  });
});

describe('reconciler RBAC', () => {
  const rules = () =>
    render({ crds: [crd('apps.kruise.io', 'clonesets', { status: {}, scale: {} }), crd('apps.kruise.io', 'sidecarsets', { status: {} }), crd('apps.kruise.io', 'advancedcronjobs', { status: {} }), crd('apps.kruise.io', 'broadcastjobs', { status: {} }), crd('apps.kruise.io', 'uniteddeployments', { status: {}, scale: {} }), crd('apps.kruise.io', 'imagepulljobs', { status: {} }), crd('policy.kruise.io', 'podunavailablebudgets')] })
      .find((o) => o.kind === 'ClusterRole')!.rules as { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }[];
  const verbs = (group: string, resource: string) => rules().filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource)).flatMap((r) => r.verbs).sort();

  it.each([
    ['apps.kruise.io', 'clonesets', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['apps.kruise.io', 'clonesets/status', ['get', 'patch', 'update']],
    ['apps.kruise.io', 'clonesets/scale', ['get', 'patch', 'update']],
    ['apps.kruise.io', 'sidecarsets/status', ['get', 'patch', 'update']],
    ['apps.kruise.io', 'sidecarsets/scale', []],
    ['policy.kruise.io', 'podunavailablebudgets', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['', 'pods', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['', 'pods/status', ['get', 'patch', 'update']],
    ['', 'events', ['create', 'patch']],
    ['', 'namespaces', ['get', 'list', 'watch']],
    ['', 'nodes', ['get', 'list', 'watch']],
    ['', 'secrets', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['', 'persistentvolumeclaims', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['apps', 'controllerrevisions', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['batch', 'jobs', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['apps.kruise.io', 'advancedcronjobs/status', ['get', 'patch', 'update']],
    ['apps.kruise.io', 'broadcastjobs', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    // UnitedDeployment: its status, and the subset workloads it creates, updates and deletes.
    ['apps.kruise.io', 'uniteddeployments/status', ['get', 'patch', 'update']],
    ['apps', 'statefulsets', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['apps', 'deployments', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['apps.kruise.io', 'imagepulljobs', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['apps.kruise.io', 'imagepulljobs/status', ['get', 'patch', 'update']],
    ['coordination.k8s.io', 'leases', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
    ['', 'services', []],
    ['rbac.authorization.k8s.io', 'clusterroles', []],
  ])('%s %s: %j', (group, resource, want) => {
    expect(verbs(group, resource)).toEqual(want);
  });

  it('reaches only our own webhook configurations', () => {
    const r = rules().find((x) => x.apiGroups.includes('admissionregistration.k8s.io'))!;
    expect(r.resourceNames).toEqual([MUTATING_CONFIG, VALIDATING_CONFIG]);
    expect(r.verbs).toEqual(['get', 'list', 'patch']);
  });
});

describe('carryForeignSelectors', () => {
  const desired = () => config(render({ overrides: { 'mutate-pod': { objectSelector: { matchExpressions: [{ key: 'inject', operator: 'Exists' }] } } } }), 'MutatingWebhookConfiguration')!;
  const aks = [
    { key: 'control-plane', operator: 'DoesNotExist' as const },
    { key: 'kubernetes.azure.com/managedby', operator: 'NotIn' as const, values: ['aks'] },
  ];
  const withLive = (mutate: (h: WebhookEntry) => void, annotations?: Record<string, string>) => {
    const live = structuredClone(desired());
    if (annotations) live.metadata!.annotations = annotations;
    mutate((live.webhooks as WebhookEntry[])[0]!);
    return live;
  };

  it('keeps expressions a platform appended, after ours', () => {
    const live = withLive((h) => h.namespaceSelector!.matchExpressions!.push(...aks));
    const out = hook([carryForeignSelectors(desired(), live)]);
    expect(out.namespaceSelector!.matchExpressions!.map((e) => e.key)).toEqual([
      'kubernetes.io/metadata.name', 'kruise-serverless.io/webhooks', 'control-plane', 'kubernetes.azure.com/managedby',
    ]);
    expect(out.namespaceSelector!.matchExpressions!.slice(2)).toEqual(aks);
  });

  it('keeps foreign objectSelector expressions, even where we set none', () => {
    const d = config(render(), 'MutatingWebhookConfiguration')!;
    const live = structuredClone(d);
    (live.webhooks as WebhookEntry[])[0]!.objectSelector = { matchExpressions: [aks[0]!] };
    expect(hook([carryForeignSelectors(d, live)]).objectSelector).toEqual({ matchExpressions: [aks[0]] });
  });

  it('restores our expressions that a platform changed', () => {
    const live = withLive((h) => {
      h.namespaceSelector!.matchExpressions![0]!.values = ['kube-system'];
      h.failurePolicy = 'Ignore';
    });
    expect(carryForeignSelectors(desired(), live)).toEqual(desired());
  });

  it('drops expressions we set before and no longer set', () => {
    const before = desired();
    const now = config(render(), 'MutatingWebhookConfiguration')!;
    const live = structuredClone(before);
    (live.webhooks as WebhookEntry[])[0]!.objectSelector!.matchExpressions!.push(aks[0]!);
    expect(hook([carryForeignSelectors(now, live)]).objectSelector).toEqual({ matchExpressions: [aks[0]] });
  });

  it.each([
    ['no live object', undefined],
    ['a live object without that webhook', { ...desired(), webhooks: [] }],
    ['an unreadable annotation', withLive(() => undefined, { [SELECTOR_KEYS_ANNOTATION]: '{not json' })],
  ])('changes nothing given %s', (_n, live) => {
    expect(carryForeignSelectors(desired(), live)).toEqual(desired());
  });

  it('does not modify its inputs', () => {
    const d = desired();
    const live = withLive((h) => h.namespaceSelector!.matchExpressions!.push(...aks));
    const snapshot = structuredClone(d);
    carryForeignSelectors(d, live);
    expect(d).toEqual(snapshot);
  });
});
