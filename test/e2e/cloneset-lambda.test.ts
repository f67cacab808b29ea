// CloneSet on the Lambda path: every reconcile runs in the production Lambda handler, triggered as
// AWS triggers it — the ObjectChanged events the Worker publishes when it admits the CloneSet or a
// status change of one of its pods, and the SQS wake-ups runs ask for. Users act with no sleep and
// no push in between; the one-minute schedule never fires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
type CsObj = KubeObject & { spec: { scaleStrategy?: { podsToDelete?: string[] } }; status?: { readyReplicas?: number; updatedReplicas?: number } };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('csl', [cloneSetFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

const livePods = async (app: string) =>
  (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
const cloneSet = (name: string) => env.kube.get<CsObj>(CS.apiVersion, CS.kind, name, env.ns);

describe('CloneSet through the Lambda', () => {
  it('a pod named in podsToDelete is replaced, and its name dropped from the list once it is gone', async () => {
    const cs = await env.kube.create({
      ...CS, metadata: { name: 'lpurge', namespace: env.ns },
      spec: { replicas: 3, selector: { matchLabels: { app: 'lpurge' } }, template: { metadata: { labels: { app: 'lpurge' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } } },
    });
    await eventually('3 ready pods in status', async () => {
      const got = await cloneSet('lpurge');
      return got.status?.readyReplicas === 3 && got.status.updatedReplicas === 3 ? got : undefined;
    }, 30_000, 50);
    const victim = (await livePods('lpurge'))[0]!.metadata.name;
    await env.kube.patch(cs, { spec: { scaleStrategy: { podsToDelete: [victim] } } });
    await eventually('the named pod replaced', async () => {
      const names = (await livePods('lpurge')).map((p) => p.metadata.name);
      return names.length === 3 && !names.includes(victim) ? true : undefined;
    }, 30_000, 50);
    // Its name is dropped from podsToDelete once it is gone (OpenKruise's truncatePodsToDelete).
    await eventually('podsToDelete emptied', async () => ((await cloneSet('lpurge')).spec.scaleStrategy?.podsToDelete ?? []).length === 0 ? true : undefined, 30_000, 50)
      .catch(async (e: unknown) => {
        throw new Error(`${String(e)}\n${JSON.stringify((await cloneSet('lpurge')).spec.scaleStrategy)}\n${lambda.describeRuns(8)}`);
      });
    await expect(env.kube.get('v1', 'Pod', victim, env.ns)).rejects.toThrow();
    expect(lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'CloneSet' && r.acted && r.applied > 0))).toBe(true);
  });
});
