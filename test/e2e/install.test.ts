// The cluster-side install against a real API server: what the API server keeps of our webhook
// configurations, that re-applying keeps selector expressions a managed platform appended
// (AKS's admissions enforcer, kruise#2220) without a rewrite loop, and the CLI end to end.
// Webhook URLs point at a closed loopback port, every webhook is Ignore, and namespace
// selectors are opt-in to a label nothing carries, so the shared cluster keeps working.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { allow, type WebhookEndpoint } from '../../src/admission/types.js';
import { PROBE_WEBHOOK_NAME } from '../../src/admission/probe.js';
import { newSecret } from '../../src/edge-state/auth.js';
import { applyClusterSide, removeConversionWebhooks, WebhooksRefusedError } from '../../src/install/apply.js';
import { entryNames, MUTATING_CONFIG, OPT_OUT_LABEL, RECONCILER_NAME, renderClusterSide, VALIDATING_CONFIG, type RenderOptions, type WebhookEntry } from '../../src/install/render.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { isNotFound } from '../../src/kube/errors.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { webhookEndpoints, withoutPodStatusObserver } from '../../src/registry.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { kubectl, testKube } from './support/kube.js';
import { localServingCert } from './support/tls.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
/** Each non-empty configuration ends with its probe entry (src/admission/probe.ts). */
const PROBES = Object.values(PROBE_WEBHOOK_NAME);
const OPT_IN = { 'ks-install-e2e': 'opt-in' };
const SECRET = newSecret();
const NS = `ks-install-${randomBytes(3).toString('hex')}`;
const CLUSTER = `e2e-${randomBytes(3).toString('hex')}`;
const crds = readCrdManifests(join(REPO_ROOT, 'infra', 'crds'));

const noop = [{ feature: 'noop', match: {}, handle: () => allow() }];
const ENDPOINTS: WebhookEndpoint[] = [
  {
    path: 'mutate-pod', type: 'mutating', name: 'mpod.e2e.kruise-serverless.io',
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
    failurePolicy: 'Ignore', timeoutSeconds: 3, sideEffects: 'NoneOnDryRun', reinvocationPolicy: 'IfNeeded', handlers: noop,
  },
  {
    path: 'validate-kruise', type: 'validating', name: 'vkruise.e2e.kruise-serverless.io',
    rules: [{ apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['clonesets'], operations: ['CREATE', 'UPDATE'] }],
    failurePolicy: 'Fail', timeoutSeconds: 5, sideEffects: 'None', handlers: noop,
  },
];

let kube: KubeHttp;
let baseUrl = '';
let work = '';

function options(extra: Partial<RenderOptions> = {}): RenderOptions {
  return {
    baseUrl, clusterId: CLUSTER, secret: SECRET, namespace: NS, endpoints: ENDPOINTS, crds,
    caBundle: readFileSync(inject('caCert'), 'utf8'),
    overrides: {
      'mutate-pod': { namespaceSelector: { matchLabels: OPT_IN } },
      'validate-kruise': { failurePolicy: 'Ignore', timeoutSeconds: 2, namespaceSelector: { matchLabels: OPT_IN }, objectSelector: { matchExpressions: [{ key: 'ks-install-e2e/validate', operator: 'Exists' }] } },
    },
    ...extra,
  };
}

async function live(kind: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await kube.get<KubeObject>(ADMISSION, kind, name);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
const liveHook = async (kind: string, name: string) => ((await live(kind, name))?.webhooks as WebhookEntry[] | undefined)?.[0];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

type Run = { code: number; stdout: string; stderr: string };
function run(cmd: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: REPO_ROOT, env: { ...process.env, KUBECONFIG: inject('kubeconfig'), KS_WEBHOOK_SECRET: undefined, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}
const cli = (args: string[], env?: Record<string, string | undefined>) => run(join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['src/cli/main.ts', ...args], env);

async function cleanUp(): Promise<void> {
  // The CRDs applied here point their conversion webhook at a closed port: later files need None.
  await removeConversionWebhooks(kube);
  const gone = (o: KubeObject) => kube.delete(o).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  await gone({ apiVersion: ADMISSION, kind: 'MutatingWebhookConfiguration', metadata: { name: MUTATING_CONFIG } });
  await gone({ apiVersion: ADMISSION, kind: 'ValidatingWebhookConfiguration', metadata: { name: VALIDATING_CONFIG } });
  await gone({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: RECONCILER_NAME } });
  await gone({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: RECONCILER_NAME } });
  await gone({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
}

beforeAll(async () => {
  kube = await testKube();
  baseUrl = `https://127.0.0.1:${await freePort()}`;
  work = mkdtempSync(join(tmpdir(), 'ks-install-'));
});
afterAll(async () => {
  await cleanUp();
  kube.close();
  rmSync(work, { recursive: true, force: true });
});

describe('applyClusterSide', () => {
  it('registers the webhooks as rendered, and says when the API server cannot reach the edge', async () => {
    const log: string[] = [];
    await applyClusterSide(kube, renderClusterSide(options()), { log: (m) => log.push(m) });
    // The edge URL is a closed port: the probe's call fails, which shows the configuration is loaded.
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      expect(log).toContainEqual(expect.stringMatching(new RegExp(`^warning: ${kind} \\S+ is in effect, but the API server could not reach the edge: .*failed calling webhook`)));
    }
    const m = await liveHook('MutatingWebhookConfiguration', MUTATING_CONFIG);
    expect(m).toMatchObject({
      name: 'mpod.e2e.kruise-serverless.io',
      clientConfig: { url: `${baseUrl}/clusters/${CLUSTER}/${SECRET}/mutate-pod`, caBundle: Buffer.from(readFileSync(inject('caCert'))).toString('base64') },
      failurePolicy: 'Ignore', timeoutSeconds: 3, sideEffects: 'NoneOnDryRun', matchPolicy: 'Equivalent', reinvocationPolicy: 'IfNeeded',
      admissionReviewVersions: ['v1', 'v1beta1'],
      namespaceSelector: {
        matchLabels: OPT_IN,
        matchExpressions: [
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', NS] },
          { key: OPT_OUT_LABEL, operator: 'NotIn', values: ['disabled'] },
        ],
      },
    });
    const v = await liveHook('ValidatingWebhookConfiguration', VALIDATING_CONFIG);
    expect(v).toMatchObject({
      name: 'vkruise.e2e.kruise-serverless.io',
      clientConfig: { url: `${baseUrl}/clusters/${CLUSTER}/${SECRET}/validate-kruise` },
      failurePolicy: 'Ignore', timeoutSeconds: 2, sideEffects: 'None',
      objectSelector: { matchExpressions: [{ key: 'ks-install-e2e/validate', operator: 'Exists' }] },
    });
    expect(v).not.toHaveProperty('reinvocationPolicy');
  });

  it('labels kube-system and our namespace with the opt-out (clusters < 1.21 lack the name label)', async () => {
    for (const name of ['kube-system', NS]) {
      const ns = await kube.get<KubeObject & { metadata: { labels?: Record<string, string> } }>('v1', 'Namespace', name);
      expect(ns.metadata.labels?.[OPT_OUT_LABEL]).toBe('disabled');
    }
  });

  it.each([
    ['create', 'clonesets.apps.kruise.io', 'yes'],
    ['update', 'clonesets.apps.kruise.io/status', 'yes'],
    ['patch', 'clonesets.apps.kruise.io/scale', 'yes'],
    ['create', 'pods', 'yes'],
    ['delete', 'secrets', 'yes'],
    ['create', 'leases.coordination.k8s.io', 'yes'],
    ['patch', `mutatingwebhookconfigurations.admissionregistration.k8s.io/${MUTATING_CONFIG}`, 'yes'],
    ['get', 'mutatingwebhookconfigurations.admissionregistration.k8s.io/someone-else', 'no'],
    ['delete', 'nodes', 'no'],
    ['create', 'clusterrolebindings.rbac.authorization.k8s.io', 'no'],
  ])('the reconciler may %s %s: %s', async (verb, resource, want) => {
    const out = await kubectl('auth', 'can-i', verb, resource, '--as', `system:serviceaccount:${NS}:${RECONCILER_NAME}`).catch((e: { stdout?: string }) => e.stdout ?? '');
    expect(out.trim()).toBe(want);
  });

  it("keeps selector expressions a platform appends, restores ours, and then stops writing", async () => {
    const aks = { key: 'kubernetes.azure.com/managedby', operator: 'NotIn', values: ['aks'] };
    const target = { apiVersion: ADMISSION, kind: 'MutatingWebhookConfiguration', metadata: { name: MUTATING_CONFIG } };
    // What AKS's admissions enforcer does, plus a tamper with one of our own fields.
    await kube.patch(target, [
      { op: 'add', path: '/webhooks/0/namespaceSelector/matchExpressions/-', value: aks },
      { op: 'replace', path: '/webhooks/0/timeoutSeconds', value: 30 },
    ], 'json', undefined, { fieldManager: 'aks-admissions-enforcer' });
    await kube.patch({ ...target, kind: 'ValidatingWebhookConfiguration', metadata: { name: VALIDATING_CONFIG } },
      [{ op: 'add', path: '/webhooks/0/objectSelector/matchExpressions/-', value: { key: 'control-plane', operator: 'DoesNotExist' } }],
      'json', undefined, { fieldManager: 'aks-admissions-enforcer' });

    const logs: string[] = [];
    await applyClusterSide(kube, renderClusterSide(options()), { log: (m) => logs.push(m) });
    const m = await liveHook('MutatingWebhookConfiguration', MUTATING_CONFIG);
    expect(m?.namespaceSelector?.matchExpressions).toEqual([
      { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', NS] },
      { key: OPT_OUT_LABEL, operator: 'NotIn', values: ['disabled'] },
      aks,
    ]);
    expect(m?.namespaceSelector?.matchLabels).toEqual(OPT_IN);
    expect(m?.timeoutSeconds).toBe(3);
    expect(m?.clientConfig).toMatchObject({ url: `${baseUrl}/clusters/${CLUSTER}/${SECRET}/mutate-pod` });
    const v = await liveHook('ValidatingWebhookConfiguration', VALIDATING_CONFIG);
    expect(v?.objectSelector?.matchExpressions).toEqual([
      { key: 'ks-install-e2e/validate', operator: 'Exists' },
      { key: 'control-plane', operator: 'DoesNotExist' },
    ]);
    expect(logs.filter((l) => l.includes('kept 1 selector expressions added by others'))).toHaveLength(2);

    // No fight: applying again changes nothing, so nothing is written.
    const before = (await live('MutatingWebhookConfiguration', MUTATING_CONFIG))?.metadata?.resourceVersion;
    await applyClusterSide(kube, renderClusterSide(options()));
    expect((await live('MutatingWebhookConfiguration', MUTATING_CONFIG))?.metadata?.resourceVersion).toBe(before);
  });

  it('drops the caBundle when none is given, and a configuration whose endpoints are gone', async () => {
    await applyClusterSide(kube, renderClusterSide({ ...options(), caBundle: undefined, endpoints: ENDPOINTS.slice(0, 1), overrides: { 'mutate-pod': { namespaceSelector: { matchLabels: OPT_IN } } } }));
    expect((await liveHook('MutatingWebhookConfiguration', MUTATING_CONFIG))?.clientConfig).toEqual({ url: `${baseUrl}/clusters/${CLUSTER}/${SECRET}/mutate-pod` });
    expect(await live('ValidatingWebhookConfiguration', VALIDATING_CONFIG)).toBeUndefined();
  });

  it('refuses webhooks the edge answers with an error (removing them again), unless forced', async () => {
    // An edge that is up but fails every call, as a webhook function that cannot reach the cluster does.
    const tls = localServingCert('failing-edge');
    const edge = createHttpsServer({ cert: tls.cert, key: tls.key }, (_req, res) => res.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}'));
    await new Promise<void>((r) => edge.listen(0, '127.0.0.1', r));
    const failing = { ...options(), baseUrl: `https://127.0.0.1:${(edge.address() as AddressInfo).port}` };
    try {
      const log: string[] = [];
      const refused = await applyClusterSide(kube, renderClusterSide(failing), { log: (m) => log.push(m) }).then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(WebhooksRefusedError);
      expect((refused as Error).message).toMatch(/^MutatingWebhookConfiguration \S+: the API server reached the edge, but it answered with an error: .*failed calling webhook .*\nThe webhook configurations were removed again/);
      expect(log).toContain(`deleted MutatingWebhookConfiguration ${MUTATING_CONFIG} again`);
      expect(await live('MutatingWebhookConfiguration', MUTATING_CONFIG)).toBeUndefined();
      expect(await live('ValidatingWebhookConfiguration', VALIDATING_CONFIG)).toBeUndefined();

      const forced: string[] = [];
      await applyClusterSide(kube, renderClusterSide(failing), { log: (m) => forced.push(m), force: true });
      expect(forced).toContainEqual(expect.stringMatching(/^warning: MutatingWebhookConfiguration \S+ is in effect, but the edge answers with an error \(kept: --force\)/));
      expect(await live('MutatingWebhookConfiguration', MUTATING_CONFIG)).toBeDefined();
    } finally {
      edge.close();
    }
  });
});

describe('the kruise-serverless CLI', () => {
  // Whatever the registry serves today: all Ignore and opted in to a label nothing carries.
  const safety = (endpoints = webhookEndpoints()) => endpoints.flatMap((e) => ['--failure-policy', `${e.path}=Ignore`, '--namespace-selector', `${e.path}=ks-install-e2e=opt-in`]);

  it.each<[string, string[], Record<string, string>, number, RegExp]>([
    ['no command', [], {}, 2, /missing command/],
    ['an unknown option', ['install', '--colour'], {}, 2, /Unknown option '--colour'/],
    ['no secret', ['install', '--base-url', 'https://e.example.com', '--cluster-id', 'c1'], {}, 2, /--secret-file FILE or set \$KS_WEBHOOK_SECRET/],
    ['an http base URL', ['install', '--base-url', 'http://e.example.com', '--cluster-id', 'c1'], { KS_WEBHOOK_SECRET: SECRET }, 2, /must use https/],
    ['a missing secret file', ['install', '--base-url', 'https://e.example.com', '--cluster-id', 'c1', '--secret-file', '/nonexistent/s'], {}, 2, /--secret-file \/nonexistent\/s: cannot read \(ENOENT\)/],
    ['a bad failure policy', ['install', '--base-url', 'https://e.example.com', '--cluster-id', 'c1', '--failure-policy', 'x=Maybe'], { KS_WEBHOOK_SECRET: SECRET }, 2, /expected \[PATH=\]Fail/],
    ['an unreachable cluster', ['uninstall', '--kubeconfig', 'KUBECONFIG_UNREACHABLE'], {}, 1, /ECONNREFUSED/],
  ])('exits with a message, no stack trace, for %s', async (_n, args, env, code, message) => {
    const unreachable = join(work, 'unreachable.kubeconfig');
    writeFileSync(unreachable, readFileSync(inject('kubeconfig'), 'utf8').replace(/server: .*/, `server: ${baseUrl}`));
    const r = await cli(args.map((a) => (a === 'KUBECONFIG_UNREACHABLE' ? unreachable : a)), env);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain(SECRET);
  });

  it('prints the cluster side as YAML, reading the secret from $KS_WEBHOOK_SECRET', async () => {
    const r = await cli(['install', '--base-url', baseUrl, '--cluster-id', CLUSTER, '--namespace', NS, ...safety()], { KS_WEBHOOK_SECRET: SECRET });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as KubeObject);
    expect(docs.filter((d) => d.kind === 'CustomResourceDefinition')).toHaveLength(crds.length);
    expect(docs.slice(crds.length, crds.length + 4).map((d) => `${d.kind}/${d.metadata?.name}`)).toEqual([
      `Namespace/${NS}`, `ServiceAccount/${RECONCILER_NAME}`, `ClusterRole/${RECONCILER_NAME}`, `ClusterRoleBinding/${RECONCILER_NAME}`,
    ]);
    const hooks = docs.flatMap((d) => (d.webhooks ?? []) as WebhookEntry[]);
    expect(hooks.map((h) => h.name).sort()).toEqual([...webhookEndpoints().flatMap(entryNames), ...PROBES].sort());
    for (const h of hooks) expect((h.clientConfig as { url: string }).url).toContain(`/clusters/${CLUSTER}/${SECRET}/`);
  });

  it('--node-loop leaves out the pods/status observer (the Node loop watches pods itself), and only it', async () => {
    const r = await cli(['install', '--base-url', baseUrl, '--cluster-id', CLUSTER, '--namespace', NS, '--node-loop', ...safety(withoutPodStatusObserver(webhookEndpoints()))], { KS_WEBHOOK_SECRET: SECRET });
    expect(r.code, r.stderr).toBe(0);
    const hooks = parseAllDocuments(r.stdout).map((d) => d.toJS() as KubeObject).flatMap((d) => (d.webhooks ?? []) as WebhookEntry[]);
    const observer = webhookEndpoints().filter((e) => e.observesWorkloadPods).flatMap(entryNames);
    expect(observer.length).toBeGreaterThan(0);
    expect(hooks.map((h) => h.name).sort()).toEqual([...webhookEndpoints().flatMap(entryNames).filter((n) => !observer.includes(n)), ...PROBES].sort());
  });

  it('runs through the bin launcher', async () => {
    const r = await run(process.execPath, ['bin/kruise-serverless.js', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n {2}kruise-serverless install/);
  });

  it('installs with --apply and uninstalls, keeping CRDs and the namespace', async () => {
    const secretFile = join(work, 'secret');
    writeFileSync(secretFile, `${SECRET}\n`);
    const ca = inject('caCert');
    const installed = await cli(['install', '--base-url', baseUrl, '--cluster-id', CLUSTER, '--secret-file', secretFile, '--ca-bundle', ca, '--namespace', NS, '--apply', '--kubeconfig', inject('kubeconfig'), ...safety()]);
    expect(installed.stderr).toContain('installed for cluster');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toBe('');
    const byType = (t: 'mutating' | 'validating') => [...webhookEndpoints().filter((e) => e.type === t).flatMap(entryNames), PROBE_WEBHOOK_NAME[t]].sort();
    for (const [kind, name, type] of [['MutatingWebhookConfiguration', MUTATING_CONFIG, 'mutating'], ['ValidatingWebhookConfiguration', VALIDATING_CONFIG, 'validating']] as const) {
      const obj = await live(kind, name);
      // The configurations from the tests above are replaced by the registry's (or removed if it has none of that type).
      expect(((obj?.webhooks ?? []) as WebhookEntry[]).map((h) => h.name).sort()).toEqual(byType(type));
    }
    expect((await kube.get<KubeObject>('rbac.authorization.k8s.io/v1', 'ClusterRole', RECONCILER_NAME)).rules).toBeDefined();

    // No --namespace: uninstall finds it from the installed ClusterRoleBinding.
    const removed = await cli(['uninstall']);
    expect(removed.stderr).toContain('uninstalled');
    expect(removed.code).toBe(0);
    expect(await live('MutatingWebhookConfiguration', MUTATING_CONFIG)).toBeUndefined();
    expect(await live('ValidatingWebhookConfiguration', VALIDATING_CONFIG)).toBeUndefined();
    for (const [apiVersion, kind, ns] of [['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'], ['rbac.authorization.k8s.io/v1', 'ClusterRole'], ['v1', 'ServiceAccount', NS]] as const) {
      await expect(kube.get(apiVersion, kind, RECONCILER_NAME, ns)).rejects.toSatisfy(isNotFound);
    }
    await expect(kube.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'clonesets.apps.kruise.io')).resolves.toBeDefined();
    await expect(kube.get('v1', 'Namespace', NS)).resolves.toBeDefined();
    const ks = await kube.get<KubeObject & { metadata: { labels?: Record<string, string> } }>('v1', 'Namespace', 'kube-system');
    expect(ks.metadata.labels?.[OPT_OUT_LABEL]).toBeUndefined();
  });
});
