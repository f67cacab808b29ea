// UnitedDeployment on the Lambda path: every reconcile runs in the production Lambda handler,
// triggered as AWS triggers it — the ObjectChanged event the Worker publishes when it admits the
// UnitedDeployment, and the related-object events of its subset workloads' status changes
// (observe-subset-status). Deployment subsets, so kube-controller-manager runs the workloads and
// nothing but those events can move the UnitedDeployment's status along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitedDeploymentFeature } from '../../src/uniteddeployment/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const UD = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' } as const;
type UdObj = KubeObject & { status?: { readyReplicas?: number; updatedReadyReplicas?: number; subsetReplicas?: Record<string, number> } };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('udl', [unitedDeploymentFeature], { workerBindings: lambda.bindings });
  await env.kubelet.addNodes(['zone-a', 'zone-b'].map((z) => ({ name: `udl-${z}`, labels: { node: z } })));
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

describe('UnitedDeployment through the Lambda', () => {
  it('its admission creates the subset Deployments; their status changes (observe-subset-status) bring its status to ready', async () => {
    const app = { matchLabels: { app: 'udl' } };
    await env.kube.create({
      ...UD, metadata: { name: 'udl', namespace: env.ns },
      spec: {
        replicas: 4, selector: app,
        template: { deploymentTemplate: { metadata: { labels: { app: 'udl' } }, spec: { selector: app, template: { metadata: { labels: { app: 'udl' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } } } } },
        topology: { subsets: ['a', 'b'].map((z) => ({ name: z, nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: [`zone-${z}`] }] } })) },
      },
    });
    const done = await eventually('status: 4 ready', async () => {
      const u = await env.kube.get<UdObj>(UD.apiVersion, UD.kind, 'udl', env.ns);
      return u.status?.readyReplicas === 4 && u.status.updatedReadyReplicas === 4 ? u : undefined;
    }, 30_000, 50);
    expect(done.status!.subsetReplicas).toEqual({ a: 2, b: 2 });
    const related = lambda.received.filter((e) => e.detail.kind === 'UnitedDeployment' && e.detail.name === 'udl' && String(e.detail.reason).startsWith('related deployment'));
    expect(related.length).toBeGreaterThan(0);
    expect(lambda.finished.some((f) => f.summary.runs.some((r) => r.reconciler === 'UnitedDeployment'))).toBe(true);
  });
});
