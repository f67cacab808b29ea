// The Advanced StatefulSet webhooks end to end on a real API server, served by the production
// Worker (Miniflare over HTTPS): what `kubectl apply` stores for apps.kruise.io v1beta1 and
// v1alpha1 StatefulSets (OpenKruise's defaults), and what validation refuses, with OpenKruise's
// messages. No state to push first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { statefulSetFeature } from '../../src/statefulset/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { deniedBy } from './support/disrupt.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt as answerOf, kubectl } from './support/kube.js';

const attempt = (call: Promise<unknown>) => answerOf(call, 'admitted');

const VKRUISE = 'vkruise.kruise-serverless.io';
const BETA = 'apps.kruise.io/v1beta1';
const ALPHA = 'apps.kruise.io/v1alpha1';
let env: EdgeEnv;
let work = '';

beforeAll(async () => {
  env = await startEdgeEnv('asts', [statefulSetFeature]);
  work = mkdtempSync(join(tmpdir(), 'asts-e2e-'));
});
afterAll(async () => {
  await env?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Spec = Record<string, unknown> & { template: { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> & { containers: Record<string, unknown>[] } } };
type Sts = KubeObject & { metadata: { name: string; namespace?: string }; spec: Spec };

const seedFile = (file: string) => join(REPO_ROOT, 'test', 'fixtures', 'seeds', file);
const seed = (file: string): Sts => parse(readFileSync(seedFile(file), 'utf8')) as Sts;
const named = (obj: Sts, name: string, apiVersion = obj.apiVersion): Sts => ({ ...obj, apiVersion, metadata: { name, namespace: env.ns } });
const stored = (name: string, apiVersion = BETA) => env.kube.get<Sts>(apiVersion, 'StatefulSet', name, env.ns);

/** `kubectl apply -f` of the object in the test namespace: its output, or the error kubectl printed. */
async function apply(obj: Sts): Promise<string> {
  const file = join(work, `${obj.metadata.name}.json`);
  writeFileSync(file, JSON.stringify(obj));
  try {
    return (await kubectl('apply', '-n', env.ns, '-f', file)).trim();
  } catch (e) {
    return String((e as { stderr?: string }).stderr ?? e).trim();
  }
}

/** 'admitted', or the status and message the client sees. */
const DEFAULTED_ROLLING_UPDATE = { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 };

describe('the StatefulSet defaulting webhook', () => {
  it('kubectl apply of a v1beta1 StatefulSet stores OpenKruise’s defaults, its template’s included', async () => {
    expect(await apply(named(seed('002-statefulset-rollingupdate-parallel.yaml'), 'web'))).toContain('statefulset.apps.kruise.io/web created');
    const got = await stored('web');
    expect(got.spec).toMatchObject({
      replicas: 5, podManagementPolicy: 'Parallel', revisionHistoryLimit: 10, serviceName: 'nginx-headless',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { ...DEFAULTED_ROLLING_UPDATE, maxUnavailable: 3 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      template: { spec: { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 } },
    });
    expect(got.spec.template.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', ports: [{ name: 'web', containerPort: 80, protocol: 'TCP' }],
    });
    expect(got.spec.template.spec.readinessGates).toBeUndefined();
  });

  it('a v1alpha1 StatefulSet gets the same defaults, read back in either version', async () => {
    const alpha = named(seed('000-statefulset-migrate-apiversion.yaml'), 'alpha', ALPHA);
    expect((await env.kube.create<Sts>(alpha)).apiVersion).toBe(ALPHA);
    for (const version of [ALPHA, BETA]) {
      const got = await stored('alpha', version);
      expect(got.apiVersion).toBe(version);
      expect(got.spec).toMatchObject({
        replicas: 2, podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10,
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: DEFAULTED_ROLLING_UPDATE },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      });
      expect(got.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'Always' });
    }
  });
});

describe('the StatefulSet validating webhook', () => {
  it('admits the seeds’ StatefulSets, as applied', async () => {
    const files = ['000-statefulset-reserve-ordinals.yaml', '000-statefulset-scale-maxunavailable.yaml', '000-statefulset-unordered-update-order.yaml',
      '000-statefulset-unordered-update-weight.yaml', '002-statefulset-inplace-update.yaml', '002-statefulset-paused.yaml'];
    for (const file of files) {
      const obj = seed(file);
      expect(await apply(named(obj, obj.metadata.name)), file).toContain(`statefulset.apps.kruise.io/${obj.metadata.name} created`);
    }
  });

  it.each([BETA, ALPHA])('%s: refuses maxUnavailable 2 without Parallel, with OpenKruise’s message and 422', async (apiVersion) => {
    const base = seed('000-statefulset-migrate-apiversion.yaml');
    const bad = named({ ...base, spec: { ...base.spec, updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } } }, apiVersion === ALPHA ? 'max-alpha' : 'max-beta', apiVersion);
    expect(await attempt(env.kube.create(bad))).toBe(
      `422 ${deniedBy(VKRUISE, 'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:2, StrVal:""}: can only work with Parallel PodManagementPolicyType')}`,
    );
  });

  it('kubectl apply of an in-place StatefulSet without the InPlaceUpdateReady readiness gate is refused with the message', async () => {
    const base = seed('002-statefulset-inplace-update.yaml');
    const { readinessGates: _gates, ...podSpec } = base.spec.template.spec;
    const bad = named({ ...base, spec: { ...base.spec, template: { ...base.spec.template, spec: podSpec as Spec['template']['spec'] } } }, 'no-gate');
    // kubectl 1.20 prints no more than this for a 422 without details; later ones append the message.
    expect(await apply(bad)).toContain('The request is invalid');
    expect(await attempt(env.kube.create(bad))).toBe(
      `422 ${deniedBy(VKRUISE, 'spec.template.spec.readinessGates: Invalid value: []v1.PodReadinessGate(nil): must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceIfPossible')}`,
    );
  });

  it('refuses unorderedUpdate without Parallel and a bad reserveOrdinals range, all errors in one message', async () => {
    const base = seed('000-statefulset-reserve-ordinals.yaml');
    const bad = named({ ...base, spec: { ...base.spec, reserveOrdinals: [1, '4-2'], updateStrategy: { rollingUpdate: { unorderedUpdate: {} } } } }, 'several');
    expect(await attempt(env.kube.create(bad))).toBe(`422 ${deniedBy(VKRUISE,
      '[spec: Invalid value: []intstr.IntOrString{intstr.IntOrString{Type:0, IntVal:1, StrVal:""}, intstr.IntOrString{Type:1, IntVal:0, StrVal:"4-2"}}: 1 th reserve ordinal is invalid: 4-2, err = invalid range 4-2, ' +
      'spec.updateStrategy.rollingUpdate.unorderedUpdate: Required value: unorderedUpdate can only work with Parallel PodManagementPolicyType]')}`);
  });

  it('on update: serviceName and the selector are immutable, and InPlaceOnly allows image changes only', async () => {
    const base = seed('002-statefulset-inplace-update.yaml');
    const created = await env.kube.create<Sts>(named({ ...base, spec: { ...base.spec, updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } } } }, 'in-place-only'));
    expect(created.spec).toMatchObject({ podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly', maxUnavailable: 1 } } });
    const forbidden =
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy' are forbidden";
    expect(await attempt(env.kube.patch(created, { spec: { serviceName: 'other' } }))).toBe(`422 ${deniedBy(VKRUISE, forbidden)}`);
    const labels = { ...created.spec.template.metadata.labels, extra: 'x' };
    expect(await attempt(env.kube.patch(created, { spec: { selector: { matchLabels: labels }, template: { metadata: { labels } } } }))).toBe(`422 ${deniedBy(VKRUISE, forbidden)}`);

    const [first] = created.spec.template.spec.containers;
    expect(await attempt(env.kube.patch(created, { spec: { template: { metadata: { labels: { ...created.spec.template.metadata.labels, v: '2' } }, spec: { containers: [{ ...first, image: 'nginx:1.27' }] } } } }))).toBe('admitted');
    expect(await attempt(env.kube.patch(created, { spec: { template: { spec: { containers: [{ ...first, image: 'nginx:1.28', env: [{ name: 'A', value: 'b' }] }] } } } })))
      .toBe(`422 ${deniedBy(VKRUISE, 'invalid template modified with InPlaceOnly strategy: add /containers/0/env, currently only image update is allowed for InPlaceOnly')}`);
  });
});
