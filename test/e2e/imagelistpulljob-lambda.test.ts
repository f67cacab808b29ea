// ImageListPullJob on the Lambda path: every reconcile runs in the production Lambda handler,
// triggered as AWS triggers it — the ObjectChanged events the Worker publishes when it admits the
// list job, and the related-object events for the ImageListPullJob when one of its ImagePullJobs'
// status changes. Users act with no sleep and no push in between; the one-minute schedule never fires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePullJobFeature } from '../../src/imagepulljob/index.js';
import { imageListPullJobFeature } from '../../src/imagelistpulljob/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const ILPJ = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob' } as const;
const NODES = ['ilpjl-node-a', 'ilpjl-node-b'];

type Job = KubeObject & { status?: { desired?: number; completed?: number; succeeded?: number; active?: number; completionTime?: string } };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('ilpjl', [imagePullJobFeature, imageListPullJobFeature], { workerBindings: lambda.bindings });
  env.kubelet.exitOnStart('/ks-pull/true');
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

describe('ImageListPullJob through the Lambda', () => {
  it('created: its ImagePullJobs run, and their status changes complete it', async () => {
    await env.kube.create({ ...ILPJ, metadata: { name: 'lam', namespace: env.ns }, spec: { images: ['example.com/a:1', 'example.com/b:1'], selector: { names: NODES }, parallelism: 2 } });
    const done = await eventually('lam completed', async () => {
      const j = await env.kube.get<Job>(ILPJ.apiVersion, ILPJ.kind, 'lam', env.ns).catch(() => undefined);
      return j?.status?.completionTime ? j : undefined;
    }, 30_000, 30);
    expect(done.status).toMatchObject({ desired: 2, completed: 2, succeeded: 2, active: 0 });
    expect(lambda.received.some((e) => e.detail.kind === 'ImageListPullJob' && e.detail.name === 'lam')).toBe(true);
  });
});
