// The UnitedDeployment section of `npm run bench:workloads`: a template change rolled through a
// UnitedDeployment of three Deployment subsets over 3 zones × 10 fake nodes of their own (a zone
// label per subset, a pool taint the template tolerates), 10 pods per zone, against the baseline
// of the same pods in three plain apps/v1 Deployments (one per zone) whose images are changed
// together. Both roll through kube-controller-manager's Deployment controller with the same
// strategy (maxUnavailable 20%, maxSurge 0); the difference is what the UnitedDeployment adds: its
// controller on the Node loop (its own process) noticing the change and updating the three
// Deployments. Three image changes each, alternating, medians reported. Wall: spec change → every pod at the new image and Ready (LISTs every 50 ms);
// status: → the UnitedDeployment's status says so (updatedReadyReplicas 30, currentRevision moved).
// The nodes go at the end.
import type { KubeObject } from '../../src/kube/http.js';
import { IMAGE, createNamespace, podTemplate, podsOf, rolledOut, until, type BenchCluster } from '../cluster/cluster.js';
import type { LoopChild } from '../cluster/children.js';
import { s1 } from '../cluster/watched-report.js';

export const UD_NAMESPACE = 'bench-uniteddeployment';
export const ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;
export const NODES_PER_ZONE = 10;
export const PODS_PER_ZONE = 10;
/** Ours (UnitedDeployment over Deployments) against three plain Deployments, wall time. */
export const GOAL_VS_DEPLOYMENTS = 1.25;
const POOL = 'bench.kruise-serverless.io/ud-pool';
const ZONE = 'bench.kruise-serverless.io/ud-zone';
const TIMEOUT_MS = 600_000;
const STRATEGY = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '20%', maxSurge: 0 } };

const nodeNames = ZONES.flatMap((z) => Array.from({ length: NODES_PER_ZONE }, (_, i) => ({ name: `ud-bench-${z}-${String(i).padStart(2, '0')}`, zone: z })));

function template(app: string, image: string, zone?: string): Record<string, unknown> {
  const t = podTemplate(app, image) as { metadata: unknown; spec: Record<string, unknown> };
  return { ...t, spec: { ...t.spec, ...(zone ? { nodeSelector: { [ZONE]: zone } } : {}), tolerations: [{ key: POOL, operator: 'Exists', effect: 'NoSchedule' }] } };
}

function unitedDeployment(image: string): KubeObject & { metadata: { name: string; namespace: string } } {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: { name: 'ud', namespace: UD_NAMESPACE },
    spec: {
      replicas: ZONES.length * PODS_PER_ZONE,
      selector: { matchLabels: { app: 'ud' } },
      template: { deploymentTemplate: { metadata: { labels: { app: 'ud' } }, spec: { selector: { matchLabels: { app: 'ud' } }, strategy: STRATEGY, template: template('ud', image) } } },
      topology: { subsets: ZONES.map((z) => ({ name: z, nodeSelectorTerm: { matchExpressions: [{ key: ZONE, operator: 'In', values: [z] }] } })) },
    },
  };
}

function zoneDeployment(zone: string, image: string): KubeObject & { metadata: { name: string; namespace: string } } {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `native-${zone}`, namespace: UD_NAMESPACE },
    spec: { replicas: PODS_PER_ZONE, selector: { matchLabels: { app: 'native', zone } }, strategy: STRATEGY, template: { ...template('native', image, zone), metadata: { labels: { app: 'native', zone } } } },
  };
}

type UdStatus = { updatedReadyReplicas?: number; readyReplicas?: number; currentRevision?: string; updateStatus?: { updatedRevision?: string } };

export type UnitedDeploymentRollouts = {
  pods: number;
  rounds: number;
  bringUpMs: number;
  /** Per round: the three Deployments, the UnitedDeployment's pods, its status. */
  nativeMs: number[];
  udMs: number[];
  udStatusMs: number[];
  /** Per round: the UnitedDeployment's change → all three subset Deployments carry the new image (its controller's share). */
  udSpecMs: number[];
  udRuns: number;
  udApiCalls: number;
};

/** Rollouts per kind, alternating (native, then the UnitedDeployment), each to the next image. */
export const ROUNDS = 3;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureUnitedDeployments(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<UnitedDeploymentRollouts> {
  const pods = ZONES.length * PODS_PER_ZONE;
  await c.kubelet.addNodes(nodeNames.map((n) => ({ name: n.name, labels: { [POOL]: 'yes', [ZONE]: n.zone }, taints: [{ key: POOL, value: 'yes', effect: 'NoSchedule' }] })));
  try {
    await createNamespace(c.kube, UD_NAMESPACE);
    const t0 = performance.now();
    const ud = await c.kube.create(unitedDeployment(IMAGE(1)));
    const natives = await Promise.all(ZONES.map((z) => c.kube.create(zoneDeployment(z, IMAGE(1)))));
    await until('both at 30 ready pods', async () =>
      rolledOut(await podsOf(c.kube, UD_NAMESPACE, 'ud'), pods, IMAGE(1)) && rolledOut(await podsOf(c.kube, UD_NAMESPACE, 'native'), pods, IMAGE(1)) ? true : undefined, TIMEOUT_MS, 500);
    const bringUpMs = performance.now() - t0;
    log(`UnitedDeployment and the three Deployments at ${pods} ready pods in ${s1(bringUpMs)} s`);
    const udStatus = async () => ((await c.kube.get(ud.apiVersion!, ud.kind!, 'ud', UD_NAMESPACE)).status ?? {}) as UdStatus;

    const nativeMs: number[] = [];
    const udMs: number[] = [];
    const udStatusMs: number[] = [];
    const udSpecMs: number[] = [];
    const subsetImages = async () =>
      (await c.kube.list<KubeObject & { spec?: { template?: { spec?: { containers?: { image?: string }[] } } } }>('apps/v1', 'Deployment', { namespace: UD_NAMESPACE, labelSelector: 'apps.kruise.io/subset-name' })).items.map((d) => d.spec?.template?.spec?.containers?.[0]?.image);
    const before = await loop.snapshot();
    for (let round = 1; round <= ROUNDS; round++) {
      const image = IMAGE(round + 1);
      const tn = performance.now();
      await Promise.all(natives.map((d) => c.kube.patch(d, [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }], 'json')));
      await until('native: every pod at the new image', async () => (rolledOut(await podsOf(c.kube, UD_NAMESPACE, 'native'), pods, image) ? true : undefined), TIMEOUT_MS, 50);
      nativeMs.push(performance.now() - tn);

      const oldRevision = (await udStatus()).updateStatus?.updatedRevision;
      const tu = performance.now();
      await c.kube.patch(ud, [{ op: 'replace', path: '/spec/template/deploymentTemplate/spec/template/spec/containers/0/image', value: image }], 'json');
      let podsMs: number | undefined;
      let statusMs: number | undefined;
      let specMs: number | undefined;
      await until('UnitedDeployment: every pod at the new image, and its status saying so', async () => {
        if (specMs === undefined) {
          const images = await subsetImages();
          if (images.length === ZONES.length && images.every((i) => i === image)) specMs = performance.now() - tu;
        }
        if (podsMs === undefined && rolledOut(await podsOf(c.kube, UD_NAMESPACE, 'ud'), pods, image)) podsMs = performance.now() - tu;
        if (statusMs === undefined) {
          const s = await udStatus();
          const moved = s.updateStatus?.updatedRevision !== undefined && s.updateStatus.updatedRevision !== oldRevision;
          if (moved && s.updatedReadyReplicas === pods && s.currentRevision === s.updateStatus?.updatedRevision) statusMs = performance.now() - tu;
        }
        return podsMs !== undefined && statusMs !== undefined && specMs !== undefined ? true : undefined;
      }, TIMEOUT_MS, 50);
      udMs.push(podsMs!);
      udSpecMs.push(specMs!);
      udStatusMs.push(statusMs!);
      log(`round ${round}: three Deployments ${s1(nativeMs.at(-1))} s; UnitedDeployment ${s1(podsMs)} s (its Deployments changed at ${s1(specMs, 2)} s, status ${s1(statusMs)} s)`);
    }
    const after = await loop.snapshot();
    return { pods, rounds: ROUNDS, bringUpMs, nativeMs, udMs, udStatusMs, udSpecMs, udRuns: after.runs - before.runs, udApiCalls: after.apiCalls - before.apiCalls };
  } finally {
    await c.kubelet.removeNodes(nodeNames.map((n) => n.name)).catch((e: unknown) => log(`removing the UnitedDeployment nodes: ${String(e)}`));
  }
}

export function unitedDeploymentLines(r: UnitedDeploymentRollouts): string[] {
  const each = (xs: readonly number[]) => xs.map((x) => s1(x)).join(', ');
  const ratio = median(r.udMs) / median(r.nativeMs);
  return [
    `  median of ${r.rounds} image changes each, alternating (each: ${each(r.nativeMs)} s / ${each(r.udMs)} s):`,
    `  three apps/v1 Deployments (one per zone, images changed together; kube-controller-manager): ${s1(median(r.nativeMs))} s`,
    `  UnitedDeployment, three Deployment subsets (the Node loop, then kube-controller-manager):    ${s1(median(r.udMs))} s (${ratio.toFixed(2)}×); its status says so at ${s1(median(r.udStatusMs))} s`,
    `  of which the UnitedDeployment's change → its three Deployments changed (webhooks, the Node loop's run): ${s1(median(r.udSpecMs), 2)} s (each: ${r.udSpecMs.map((x) => s1(x, 2)).join(', ')} s)`,
    `  the UnitedDeployment controller over the ${r.rounds} rollouts: ${r.udRuns} runs, ${r.udApiCalls} API requests`,
    `  bring-up of both together: ${s1(r.bringUpMs)} s`,
  ];
}

export function unitedDeploymentGoals(r: UnitedDeploymentRollouts): string[] {
  const ratio = median(r.udMs) / median(r.nativeMs);
  return [`UnitedDeployment ≤ ${GOAL_VS_DEPLOYMENTS}× three Deployments: ${ratio.toFixed(2)}× (${ratio <= GOAL_VS_DEPLOYMENTS ? 'met' : 'not met'})`];
}
