// Our CRDs in a real API server: every kind is served under OpenKruise's names, every seed
// example is accepted and read back without losing a field, and `kubectl get` prints
// OpenKruise's columns (with values from the status subresource).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { ALL_KINDS } from '../../src/api/index.js';
import { servedVersions } from '../../src/api/crd.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { createNamespace, deleteNamespace, kubectl, testKube, testKubeConfig } from './support/kube.js';
import { lostFields } from './support/preserved.js';

const kc = testKubeConfig();
const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'seeds');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.yaml')).sort();

function kindOf(obj: KubeObject) {
  const def = ALL_KINDS.find((k) => `${k.group}/${k.version}` === obj.apiVersion && k.kind === obj.kind);
  if (!def) throw new Error(`fixture is not one of our kinds: ${obj.apiVersion} ${obj.kind}`);
  return def;
}

// OpenKruise v1.8's `kubectl get` headers, written out independently of src/api.
const HEADERS: Record<string, string[]> = {
  clonesets: ['NAME', 'DESIRED', 'UPDATED', 'UPDATED_READY', 'UPDATED_AVAILABLE', 'READY', 'TOTAL', 'AGE'],
  'statefulsets.apps.kruise.io': ['NAME', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE'],
  'daemonsets.apps.kruise.io': ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
  broadcastjobs: ['NAME', 'DESIRED', 'ACTIVE', 'SUCCEEDED', 'FAILED', 'AGE'],
  advancedcronjobs: ['NAME', 'SCHEDULE', 'TYPE', 'LASTSCHEDULETIME', 'AGE'],
  sidecarsets: ['NAME', 'MATCHED', 'UPDATED', 'READY', 'AGE'],
  workloadspreads: ['NAME', 'WORKLOADNAME', 'WORKLOADKIND', 'ADAPTIVE', 'AGE'],
  podunavailablebudgets: ['NAME', 'ALLOWED', 'CURRENT', 'DESIRED', 'TOTAL'],
  resourcedistributions: ['NAME', 'TOTAL', 'SUCCEED', 'FAILED'],
  uniteddeployments: ['NAME', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE'],
  imagepulljobs: ['NAME', 'TOTAL', 'ACTIVE', 'SUCCEED', 'FAILED', 'AGE', 'MESSAGE'],
};

let ns = '';
let kube: KubeHttp;
beforeAll(async () => {
  kube = await testKube();
  ns = await createNamespace(kc, 'seeds');
});
afterAll(async () => {
  await deleteNamespace(kc, ns);
  for (const f of fixtures) {
    const obj = parse(readFileSync(join(FIXTURES, f), 'utf8')) as KubeObject;
    if (kindOf(obj).scope === 'Cluster') await kube.delete(obj).catch(() => undefined);
  }
  kube.close();
});

describe('CRDs', () => {
  it.each(ALL_KINDS.map((k) => [`${k.plural}.${k.group}`, k] as const))('%s is established under OpenKruise names', async (name, def) => {
    const crd = await kube.get<KubeObject & { spec: { names: { kind: string; shortNames?: string[] }; versions: { name: string; storage: boolean }[] }; status?: { conditions?: { type: string; status: string }[] } }>(
      'apiextensions.k8s.io/v1', 'CustomResourceDefinition', name);
    expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
    expect(crd.spec.names.kind).toBe(def.kind);
    expect(crd.spec.names.shortNames ?? []).toEqual(def.shortNames ?? []);
    // As infra/crds has it: OpenKruise's storage version, except where that needs our conversion webhook (docs/api-versions.md).
    expect(crd.spec.versions.find((v) => v.storage)?.name).toBe(servedVersions(def).find((v) => v.storage)?.name);
    expect(crd.spec.versions.map((v) => v.name)).toEqual(servedVersions(def).map((v) => v.name));
  });

});

describe('seed examples', () => {
  it.each(fixtures)('%s is accepted and read back with every field', async (file) => {
    const sent = parse(readFileSync(join(FIXTURES, file), 'utf8')) as KubeObject & { spec?: unknown; metadata: { labels?: object; annotations?: object } };
    const def = kindOf(sent);
    const body = def.scope === 'Namespaced' ? { ...sent, metadata: { ...sent.metadata, namespace: ns } } : sent;
    await kube.delete(body).catch(() => undefined);
    await kube.create(body);
    const gotRaw = await kube.get<KubeObject>(body.apiVersion!, body.kind!, body.metadata.name!, body.metadata.namespace);
    expect(lostFields(sent.spec, gotRaw.spec, 'spec')).toEqual([]);
    expect(lostFields(sent.metadata?.labels ?? {}, (gotRaw.metadata as { labels?: unknown }).labels ?? {}, 'metadata.labels')).toEqual([]);
    expect(lostFields(sent.metadata?.annotations ?? {}, (gotRaw.metadata as { annotations?: unknown }).annotations ?? {}, 'metadata.annotations')).toEqual([]);
  });
});

describe('kubectl get', () => {
  it.each([['asts', 'statefulset.apps.kruise.io'], ['daemon', 'daemonset.apps.kruise.io'], ['bcj', 'broadcastjob.apps.kruise.io'],
    ['acj', 'advancedcronjob.apps.kruise.io'], ['ud', 'uniteddeployment.apps.kruise.io'], ['ws', 'workloadspread.apps.kruise.io'],
    ['pub', 'podunavailablebudget.policy.kruise.io'], ['clone', 'cloneset.apps.kruise.io'], ['distributor', 'resourcedistribution.apps.kruise.io']])(
    'resolves the short name %s to %s', async (short, resource) => {
      const names = (await kubectl('get', short, ...(short === 'distributor' ? [] : ['-n', ns]), '-o', 'name')).trim().split('\n');
      expect(names.length).toBeGreaterThan(0);
      for (const n of names) expect(n.startsWith(`${resource}/`)).toBe(true);
    });

  it.each(Object.entries(HEADERS))('%s shows OpenKruise columns', async (resource, header) => {
    if (resource === 'imagepulljobs') {
      // No seed shows an ImagePullJob: make one.
      const job = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'pull-nginx', namespace: ns },
        spec: { image: 'nginx:alpine', parallelism: 2, completionPolicy: { type: 'Always', activeDeadlineSeconds: 600 } } };
      await kube.delete(job).catch(() => undefined);
      await kube.create(job);
    }
    const def = ALL_KINDS.find((k) => resource === k.plural || resource === `${k.plural}.${k.group}`)!;
    const out = await kubectl('get', `${def.plural}.${def.group}`, ...(def.scope === 'Namespaced' ? ['-n', ns] : []));
    const first = out.split('\n')[0] ?? '';
    expect(first.trim().split(/\s+/)).toEqual(header);
  });

  it('shows status values written through the status subresource', async () => {
    const name = 'sample-partition';
    await kube.patch({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: ns } },
      { status: { observedGeneration: 1, replicas: 5, readyReplicas: 5, updatedReplicas: 2, updatedReadyReplicas: 2, availableReplicas: 5, updatedAvailableReplicas: 2 } },
      'merge', 'status');
    const row = (await kubectl('get', 'clonesets.apps.kruise.io', name, '-n', ns, '--no-headers')).trim().split(/\s+/);
    expect(row.slice(0, 7)).toEqual([name, '5', '2', '2', '2', '5', '5']);
  });

  it('scales a CloneSet through the scale subresource', async () => {
    await kubectl('scale', 'clonesets.apps.kruise.io/sample', '-n', ns, '--replicas=3');
    const obj = JSON.parse(await kubectl('get', 'clonesets.apps.kruise.io', 'sample', '-n', ns, '-o', 'json')) as { spec: { replicas: number } };
    expect(obj.spec.replicas).toBe(3);
  });
});
