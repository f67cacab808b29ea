// EphemeralJob on the Lambda path: every reconcile runs in the production Lambda handler,
// triggered as AWS triggers it — the ObjectChanged event the Worker publishes when it admits the
// job, then the wake-ups the runs ask for while containers run (no pod watch reaches a Lambda).
// The users' steps follow each other with no sleep and no push; the one-minute schedule never fires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { ephemeralJobFeature } from '../../src/ephemeraljob/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const EJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob' } as const;
const EXITS = '/ks-ejobl/true';

type Job = KubeObject & { metadata: { name: string; uid?: string }; status?: { phase?: string; match?: number; succeeded?: number; completionTime?: string } };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('ejobl', [ephemeralJobFeature], { workerBindings: lambda.bindings });
  env.kubelet.exitOnStart(EXITS);
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

describe('EphemeralJob through the Lambda', () => {
  it('created: its containers are injected into the matching pods, and the job succeeds once they exit 0', async () => {
    await Promise.all([env.createPod('lam-1', { app: 'lam' }), env.createPod('lam-2', { app: 'lam' })]);
    const created = await env.kube.create<Job>({
      ...EJ, metadata: { name: 'lam', namespace: env.ns },
      spec: { selector: { matchLabels: { app: 'lam' } }, parallelism: 2, template: { ephemeralContainers: [{ name: 'debug', image: 'busybox', command: [EXITS] }] } },
    });
    const done = await eventually('lam succeeded', async () => {
      const j = await env.kube.get<Job>(EJ.apiVersion, EJ.kind, 'lam', env.ns).catch(() => undefined);
      return j?.status?.phase === 'Succeeded' ? j : undefined;
    }, 45_000, 50);
    expect(done.status).toMatchObject({ match: 2, succeeded: 2 });
    for (const name of ['lam-1', 'lam-2']) {
      const pod = await env.kube.get<V1Pod & KubeObject>('v1', 'Pod', name, env.ns);
      expect(pod.spec?.ephemeralContainers?.[0]?.env).toContainEqual({ name: 'KRUISE_EJOB_ID', value: created.metadata.uid });
    }
    expect(lambda.received.some((e) => e.detail.kind === 'EphemeralJob' && e.detail.name === 'lam')).toBe(true);
  });
});
