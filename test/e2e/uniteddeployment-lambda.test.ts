// UnitedDeployment on the Lambda path: every reconcile runs in the production Lambda handler,
// triggered as AWS triggers it — the ObjectChanged event the Worker publishes when it admits the
// UnitedDeployment, and the related-object events of its subset workloads' status changes
// (observe-subset-status). Deployment subsets, so kube-controller-manager runs the workloads and
// nothing but those events can move the UnitedDeployment's status along. The reservation case runs
// CloneSet subsets, whose controller runs on the same Lambda, and waits on the SQS wake-ups the
// UnitedDeployment's runs ask for (rescheduleCriticalSeconds, unschedulableDuration).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitedDeploymentFeature } from '../../src/uniteddeployment/index.js';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { isReady, startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const UD = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' } as const;
const SUBSET = 'apps.kruise.io/subset-name';
const RESERVED = 'apps.kruise.io/united-deployment-reserved-pod';
type SubsetStatus = { name: string; reservedPods?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
type UdObj = KubeObject & { status?: { replicas?: number; readyReplicas?: number; updatedReadyReplicas?: number; reservedPods?: number; labelSelector?: string; subsetReplicas?: Record<string, number>; subsetStatuses?: SubsetStatus[] } };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('udl', [unitedDeploymentFeature, cloneSetFeature], { workerBindings: lambda.bindings });
  await env.kubelet.addNodes(['zone-a', 'zone-b'].flatMap((z) => [{ name: `udl-${z}`, labels: { node: z } }, { name: `udl-${z}-r`, labels: { node: `${z}-r` } }]));
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

  it('reserveUnschedulablePods: pods that cannot be scheduled stay reserved while temporary pods run in the next subset; once they are ready for unschedulableDuration the temporary pods go', async () => {
    const name = 'udl-reserve';
    const sel = `app=${name}`;
    const zoneA = ['udl-zone-a-r'];
    const ud = () => env.kube.get<UdObj>(UD.apiVersion, UD.kind, name, env.ns);
    const podsOf = async () => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: sel })).items.filter((p) => !p.metadata.deletionTimestamp);
    const line = (p: Pod) => `${p.metadata.name} ${p.metadata.labels?.[SUBSET]} ${p.metadata.labels?.[RESERVED]} ${p.status?.phase} ${p.spec?.nodeName ?? '(none)'} ready=${isReady(p)}`;
    const waitStatus = (what: string, ok: (u: UdObj) => boolean) =>
      eventually(`${name}: ${what}`, async () => {
        const u = await ud();
        return ok(u) ? u : undefined;
      }, 60_000, 50).catch(async (e: unknown) => {
        throw new Error(`${String(e)}\n${(await podsOf()).map(line).join('\n')}\n${JSON.stringify((await ud()).status)}`);
      });
    const subset = (u: UdObj, s: string) => u.status?.subsetStatuses?.find((x) => x.name === s);
    const cordon = (unschedulable: boolean) => Promise.all(zoneA.map((n) => env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }, { spec: { unschedulable } })));
    await cordon(true);
    try {
      const app = { matchLabels: { app: name } };
      await env.kube.create({
        ...UD, metadata: { name, namespace: env.ns },
        spec: {
          replicas: 2, selector: app,
          template: { cloneSetTemplate: { metadata: { labels: { app: name } }, spec: { selector: app, template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } } } } },
          topology: {
            subsets: ['a', 'b'].map((z) => ({ name: z, nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: [`zone-${z}-r`] }] } })),
            scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 2, unschedulableDuration: 5, reserveUnschedulablePods: true } },
          },
        },
      });
      const reserving = await waitStatus('a keeps 2 reserved pods, b runs 2 temporary ones', (x) => x.status?.reservedPods === 2 && x.status?.subsetReplicas?.b === 2 && x.status?.readyReplicas === 2);
      expect(reserving.status!.subsetReplicas).toEqual({ a: 2, b: 2 });
      expect(subset(reserving, 'a')).toMatchObject({ reservedPods: 2, conditions: [expect.objectContaining({ type: 'Schedulable', status: 'False', reason: 'reschedule', message: 'reserved pods found' })] });
      expect(subset(reserving, 'b')?.reservedPods).toBeUndefined();
      expect(reserving.status!.replicas).toBe(2);
      expect(reserving.status!.labelSelector).toBe(`app=${name},${RESERVED}=false`);
      const labelled = await eventually('reserved labels on every pod', async () => {
        const ps = await podsOf();
        return ps.length === 4 && ps.every((p) => p.metadata.labels?.[RESERVED] !== undefined) ? ps : undefined;
      });
      expect(labelled.map((p) => `${p.metadata.labels![SUBSET]}:${p.metadata.labels![RESERVED]}`).sort()).toEqual(['a:true', 'a:true', 'b:false', 'b:false']);

      await cordon(false);
      const recovered = await waitStatus('a ready and no longer reserved; b scaled back to 0', (x) => !x.status?.reservedPods && x.status?.subsetReplicas?.b === 0 && x.status?.readyReplicas === 2);
      expect(recovered.status!.subsetReplicas).toEqual({ a: 2, b: 0 });
      expect(subset(recovered, 'a')?.reservedPods).toBeUndefined();
      const left = await eventually('the temporary pods gone', async () => {
        const ps = await podsOf();
        return ps.length === 2 ? ps : undefined;
      }, 30_000, 50);
      expect(left.map((p) => `${p.metadata.labels![SUBSET]}@${p.spec?.nodeName}:${p.metadata.labels![RESERVED]}`)).toEqual(['a@udl-zone-a-r:false', 'a@udl-zone-a-r:false']);
      // Only the Lambda ran it: the timed steps came back through SQS.
      expect(lambda.summaries.some((s) => s.trigger === 'requeue' && s.runs.some((r) => r.reconciler === 'UnitedDeployment'))).toBe(true);
    } finally {
      await cordon(false);
    }
  }, 120_000);
});
