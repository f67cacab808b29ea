// Deletion protection end to end on a real API server: objects labelled
// policy.kruise.io/delete-protection reach the production Worker's `validate-delete` (Miniflare over
// HTTPS), which refuses `Always` deletions and `Cascading` ones while dependents live. Namespace
// and CRD counts are computed and pushed by `reconcile --once`; missing or stale counts refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushCollections } from '../../src/edge-state/push.js';
import { CASCADING_PODS, CASCADING_PVCS } from '../../src/deletion-protection/dependents.js';
import { deletionProtectionFeature } from '../../src/deletion-protection/index.js';
import { VALIDATING_CONFIG } from '../../src/install/render.js';
import { KubeApiError } from '../../src/kube/errors.js';
import type { KubeObject } from '../../src/kube/http.js';
import { stateCollections } from '../../src/registry.js';
import { deniedBy } from './support/disrupt.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { createNamespace, deleteNamespace, eventually, testKubeConfig } from './support/kube.js';
import { startGate, type Gate } from './support/gate-webhook.js';

const LABEL = 'policy.kruise.io/delete-protection';
const VDELETE = 'vdelete.kruise-serverless.io';
const PREFIX = `forbidden by ResourcesProtectionDeletion for ${LABEL}`;
const kc = testKubeConfig();
let env: EdgeEnv;
const extraNamespaces: string[] = [];

/** The delete's outcome: 'deleted', or the API server's message. */
async function tryDelete(obj: KubeObject): Promise<string> {
  try {
    await env.kube.delete(obj);
    return 'deleted';
  } catch (e) {
    if (e instanceof KubeApiError) return `${e.status} ${(e.body as { message?: string } | undefined)?.message ?? e.message}`;
    throw e;
  }
}
const refused = (code: number, message: string) => `${code} ${deniedBy(VDELETE, message)}`;
const nsObj = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const label = (obj: KubeObject, value: string | null) => env.kube.patch(obj, { metadata: { labels: { [LABEL]: value } } });

async function protectedNamespace(value: string): Promise<string> {
  const name = await createNamespace(kc, 'dp', { [LABEL]: value });
  extraNamespaces.push(name);
  return name;
}

beforeAll(async () => {
  env = await startEdgeEnv('dp', [deletionProtectionFeature]);
});

afterAll(async () => {
  await env?.dispose();
  for (const ns of extraNamespaces) await deleteNamespace(kc, ns);
});

describe('the installed webhook', () => {
  it('is failurePolicy Fail, sees only labelled objects, and covers every guarded kind’s DELETE', async () => {
    const config = await env.kube.get<KubeObject & { webhooks: { name: string; failurePolicy: string; objectSelector?: unknown; rules: { apiGroups: string[]; resources: string[]; operations: string[] }[] }[] }>(
      'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', VALIDATING_CONFIG);
    const hook = config.webhooks.find((w) => w.name === VDELETE)!;
    expect(hook.failurePolicy).toBe('Fail');
    expect(hook.objectSelector).toEqual({ matchExpressions: [{ key: LABEL, operator: 'Exists' }] });
    const covered = hook.rules.flatMap((r) => r.resources.map((res) => `${r.apiGroups.join()}/${res}:${r.operations.join()}`)).sort();
    expect(covered).toEqual([
      '/namespaces:DELETE', '/services:DELETE', 'apiextensions.k8s.io/customresourcedefinitions:DELETE',
      'apps.kruise.io/clonesets:DELETE', 'apps.kruise.io/statefulsets:DELETE', 'apps.kruise.io/uniteddeployments:DELETE',
      'apps/deployments:DELETE', 'apps/replicasets:DELETE', 'apps/statefulsets:DELETE', 'networking.k8s.io/ingresses:DELETE',
    ]);
  });
});

describe('Cascading without current counts', () => {
  it('never synced: the deletion is refused (503) with a clear message', async () => {
    const ns = await protectedNamespace('Cascading');
    expect(await tryDelete(nsObj(ns))).toBe(refused(503, `${PREFIX}=Cascading: the live objects of namespace "${ns}" were never synced; retry shortly`));
  });

  it('stale beyond 3 minutes: refused, with the age', async () => {
    const ns = extraNamespaces[0]!;
    const dependents = stateCollections().filter((c) => c.name === CASCADING_PODS || c.name === CASCADING_PVCS);
    await pushCollections(env.edge, (v, k, o) => env.kube.list(v, k, o), dependents, () => Date.now() - 200_000);
    expect(await tryDelete(nsObj(ns))).toMatch(new RegExp(`^503 admission webhook "${VDELETE}" denied the request: ${PREFIX}=Cascading: the live objects of namespace "${ns}" are 20\\ds old \\(limit 180s\\); retry shortly$`));
  });

  it('labelled after it was created: its earlier pods were never observed, so refused until the next push', async () => {
    await env.resync();
    const late = await createNamespace(kc, 'dp');
    extraNamespaces.push(late);
    await env.kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'before', namespace: late }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
    await label(nsObj(late), 'Cascading');
    expect(await tryDelete(nsObj(late))).toBe(refused(503, `${PREFIX}=Cascading: the live objects of namespace "${late}" are not known yet (labelled after the last sync); retry shortly`));
    await env.resync();
    expect(await tryDelete(nsObj(late))).toBe(refused(403, `${PREFIX}=Cascading and active pods 1>0`));
  });
});

describe('Namespaces', () => {
  it('Always: refused until the label goes', async () => {
    const ns = await protectedNamespace('Always');
    expect(await tryDelete(nsObj(ns))).toBe(refused(403, `${PREFIX}=Always`));
    await label(nsObj(ns), null);
    expect(await tryDelete(nsObj(ns))).toBe('deleted');
  });

  // No push from here on: the edge follows the namespace's pods and PVCs as the API server admits them.
  it('created Cascading: allowed while empty, refused while a pod is active, then while a PVC is Bound, then allowed — with no push', async () => {
    const empty = await protectedNamespace('Cascading');
    expect(await tryDelete(nsObj(empty))).toBe('deleted');

    const ns = await protectedNamespace('Cascading');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: ns } };
    await env.kube.create({ ...pod, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
    const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: ns } };
    await env.kube.create({ ...pvc, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: 'dp-pv' } });
    // The PV binder does not run in the test control plane: the claim is marked Bound as it would.
    await env.kube.patch(pvc, { status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } } }, 'merge', 'status');
    expect(await tryDelete(nsObj(ns))).toBe(refused(403, `${PREFIX}=Cascading and active pods 1>0`));
    await env.kube.delete(pod, { gracePeriodSeconds: 0 });
    expect(await tryDelete(nsObj(ns))).toBe(refused(403, `${PREFIX}=Cascading and "Bound" status pvc 1>0`));
    await env.kube.delete(pvc);
    expect(await tryDelete(nsObj(ns))).toBe('deleted');
  });

  it('created Cascading: a pod that finished no longer counts — with no push', async () => {
    const ns = await protectedNamespace('Cascading');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'job', namespace: ns } };
    await env.kube.create({ ...pod, spec: { automountServiceAccountToken: false, restartPolicy: 'Never', containers: [{ name: 'main', image: 'app:1' }] } });
    expect(await tryDelete(nsObj(ns))).toBe(refused(403, `${PREFIX}=Cascading and active pods 1>0`));
    // The pod is scheduled, runs and exits on the fake kubelet; the user sees it finished, then deletes.
    env.kubelet.completePod(ns, 'job');
    await eventually('the pod Succeeded', async () => ((await env.kube.get<Pod>('v1', 'Pod', 'job', ns)).status?.phase === 'Succeeded' ? true : undefined), 30_000, 20);
    expect(await tryDelete(nsObj(ns))).toBe('deleted');
  });
});

describe('two status writes admitted against one version', () => {
  // Validating webhooks see writes in the order they are admitted, not committed. Here a user's
  // patch marks a pod Succeeded while a kubelet's PUT from the same read would mark it Running:
  // a gate webhook holds both after admission, lets the patch commit, then the PUT, which fails
  // with a conflict. The edge saw the PUT last; it must still hold the pod as finished.
  const GATE = `dp-e2e-gate-${Math.random().toString(36).slice(2, 8)}`;
  let gate: Gate;

  beforeAll(async () => {
    gate = await startGate({
      kube: env.kube, name: GATE, namespaceSelector: { matchLabels: { [GATE]: 'yes' } },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'], operations: ['UPDATE'] }],
    });
  });

  afterAll(async () => {
    await gate?.close();
  });

  it('the PUT that lost does not bring the pod back: the namespace is deleted — with no push', async () => {
    const ns = await createNamespace(kc, 'dp', { [LABEL]: 'Cascading', [GATE]: 'yes' });
    extraNamespaces.push(ns);
    const ref = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'job', namespace: ns } };
    // Never scheduled, so only this test writes its status.
    await env.kube.create({ ...ref, spec: { schedulerName: 'dp-e2e-nobody', automountServiceAccountToken: false, restartPolicy: 'Never', containers: [{ name: 'main', image: 'app:1' }] } });
    // The API server takes up a new webhook configuration a moment later: an unchanged status write shows when.
    await eventually('the gate webhook in effect', async () => {
      await env.kube.patch(ref, { status: { phase: 'Pending' } }, 'merge', 'status');
      return gate.seen > 0 ? true : undefined;
    }, 30_000, 50);
    expect(await tryDelete(nsObj(ns))).toBe(refused(403, `${PREFIX}=Cascading and active pods 1>0`));

    const read = await env.kube.get<Pod>('v1', 'Pod', 'job', ns);
    gate.holdNext(2);
    const patched = env.kube.patch(ref, { status: { phase: 'Succeeded' } }, 'merge', 'status');
    await gate.held(1);
    const stale = env.kube.replace({ ...read, apiVersion: 'v1', kind: 'Pod', status: { ...read.status, phase: 'Running' } }, 'status').then(() => 'ok', (e: unknown) => (e instanceof KubeApiError ? e.status : e));
    await gate.held(2);
    gate.release(0);
    await patched;
    gate.release(1);
    expect(await stale).toBe(409);
    expect((await env.kube.get<Pod>('v1', 'Pod', 'job', ns)).status?.phase).toBe('Succeeded');

    expect(await tryDelete(nsObj(ns))).toBe('deleted');
  });
});

describe('CustomResourceDefinitions', () => {
  // One group per CRD and run: the client caches a group's discovery, and a failed run leaves its CRDs.
  const run = Math.random().toString(36).slice(2, 8);
  const groupOf = (plural: string) => `${plural}.${run}.dp-e2e.example.com`;
  const crd = (plural: string, kind: string, value: string, group = groupOf(plural)): KubeObject => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}`, labels: { [LABEL]: value } },
    spec: { group, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  });

  afterAll(async () => {
    for (const plural of ['forevers', 'gadgets']) {
      const c: KubeObject = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${groupOf(plural)}` } };
      await label(c, null).then(() => env.kube.delete(c)).catch(() => undefined);
    }
  });

  it('Always: refused', async () => {
    const c = await env.kube.create(crd('forevers', 'Forever', 'Always'));
    expect(await tryDelete(c)).toBe(refused(403, `${PREFIX}=Always`));
    await label(c, null);
    expect(await tryDelete(c)).toBe('deleted');
  });

  it('Cascading: refused while a custom resource lives, allowed once none does', async () => {
    const c = await env.kube.create(crd('gadgets', 'Gadget', 'Cascading'));
    const cr = { apiVersion: `${groupOf('gadgets')}/v1`, kind: 'Gadget', metadata: { name: 'g', namespace: env.ns } };
    await eventually('the Gadget CRD served', () => env.kube.create(cr));
    await env.resync();
    expect(await tryDelete(c)).toBe(refused(403, `${PREFIX}=Cascading and active CRs 1>0`));
    await env.kube.delete(cr);
    await env.resync();
    expect(await tryDelete(c)).toBe('deleted');
  });
});

describe('workloads: Cascading refused while spec.replicas > 0', () => {
  const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } });
  const specs: [string, string, string, (app: string, replicas: number) => Record<string, unknown>][] = [
    ['Deployment', 'apps/v1', 'dep', (app, replicas) => ({ replicas, selector: { matchLabels: { app } }, template: template(app) })],
    ['ReplicaSet', 'apps/v1', 'rs', (app, replicas) => ({ replicas, selector: { matchLabels: { app } }, template: template(app) })],
    ['StatefulSet', 'apps/v1', 'sts', (app, replicas) => ({ replicas, serviceName: app, selector: { matchLabels: { app } }, template: template(app) })],
    ['CloneSet', 'apps.kruise.io/v1alpha1', 'cs', (app, replicas) => ({ replicas, selector: { matchLabels: { app } }, template: template(app) })],
    ['StatefulSet', 'apps.kruise.io/v1beta1', 'asts', (app, replicas) => ({ replicas, serviceName: app, selector: { matchLabels: { app } }, template: template(app) })],
    ['UnitedDeployment', 'apps.kruise.io/v1alpha1', 'ud', (app, replicas) => ({
      replicas, selector: { matchLabels: { app } },
      template: { cloneSetTemplate: { metadata: { labels: { app } }, spec: { selector: { matchLabels: { app } }, template: template(app) } } },
      topology: { subsets: [{ name: 'a' }] },
    })],
  ];
  it.each(specs)('%s (%s)', async (kind, apiVersion, name, spec) => {
    const obj = (value: string): KubeObject => ({ apiVersion, kind, metadata: { name, namespace: env.ns, labels: { [LABEL]: value } } });
    const created = await env.kube.create({ ...obj('Cascading'), spec: spec(name, 2) });
    expect(await tryDelete(created)).toBe(refused(403, `${PREFIX}=Cascading and replicas 2>0`));
    await label(created, 'Always');
    await env.kube.patch(created, { spec: { replicas: 0 } });
    expect(await tryDelete(created)).toBe(refused(403, `${PREFIX}=Always`));
    await label(created, 'Cascading');
    expect(await tryDelete(created)).toBe('deleted');
  });
});

describe('Services and Ingresses: Always refused, Cascading ignored', () => {
  it.each([
    ['Service', 'v1', { ports: [{ port: 80 }] }],
    ['Ingress', 'networking.k8s.io/v1', { defaultBackend: { service: { name: 'svc', port: { number: 80 } } } }],
  ])('%s', async (kind, apiVersion, spec) => {
    const name = kind.toLowerCase();
    const created = await env.kube.create({ apiVersion, kind, metadata: { name, namespace: env.ns, labels: { [LABEL]: 'Always' } }, spec });
    expect(await tryDelete(created)).toBe(refused(403, `${PREFIX}=Always`));
    await label(created, 'Cascading');
    expect(await tryDelete(created)).toBe('deleted');
  });
});
