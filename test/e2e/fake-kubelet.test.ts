// The fake kubelet drives real pods: kube-controller-manager creates them from a Deployment,
// kube-scheduler binds them to fake nodes, and the fake kubelet reports them Running and Ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeKubelet, imageIdOf } from '../cluster/fake-kubelet.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './support/kube.js';

const kc = testKubeConfig();
let kubelet: FakeKubelet;
const NODES = [
  { name: 'fk-node-a', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
  { name: 'fk-node-b', labels: { 'topology.kubernetes.io/zone': 'zone-b' } },
];
let ns = '';
let kube: KubeHttp;

type Pod = V1Pod & KubeObject;
const pods = async (): Promise<Pod[]> => (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: 'app=web' })).items;
const podNamed = async (name: string): Promise<Pod> => kube.get<Pod>('v1', 'Pod', name, ns);
const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

beforeAll(async () => {
  kube = await testKube();
  kubelet = new FakeKubelet(kube);
  ns = await createNamespace(kc, 'kubelet');
  await kubelet.addNodes(NODES);
  kubelet.start();
  await kube.create({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns },
    spec: {
      replicas: 3, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }, { name: 'log', image: 'busybox:1.36' }] } },
    },
  });
});

afterAll(async () => {
  await kubelet.stop();
  await deleteNamespace(kc, ns);
  await kubelet.removeNodes(NODES.map((n) => n.name));
  kube.close();
});

describe('fake kubelet', () => {
  it('registers schedulable, Ready nodes with their labels', async () => {
    const node = await kube.get<KubeObject & { spec?: { taints?: unknown[] }; status?: { conditions?: { type: string; status: string }[] } }>('v1', 'Node', 'fk-node-a');
    expect((node.metadata as { labels?: Record<string, string> }).labels?.['topology.kubernetes.io/zone']).toBe('zone-a');
    expect(node.spec?.taints ?? []).toEqual([]);
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('runs the pods the scheduler binds to its nodes', async () => {
    const ready = await eventually('3 ready pods', async () => {
      const list = await pods();
      return list.length === 3 && list.every(isReady) ? list : undefined;
    });
    for (const p of ready) {
      expect(NODES.map((n) => n.name)).toContain(p.spec?.nodeName);
      expect(p.status?.phase).toBe('Running');
      expect(p.status?.containerStatuses?.map((s) => [s.name, s.image, s.imageID, s.restartCount])).toEqual(
        expect.arrayContaining([['nginx', 'nginx:1.25', imageIdOf('nginx:1.25'), 0], ['log', 'busybox:1.36', imageIdOf('busybox:1.36'), 0]]),
      );
    }
    const deploy = await eventually('deployment status', async () => {
      const d = await kube.get<KubeObject & { status?: { readyReplicas?: number } }>('apps/v1', 'Deployment', 'web', ns);
      return d.status?.readyReplicas === 3 ? d : undefined;
    });
    expect(deploy.status?.readyReplicas).toBe(3);
  });

  it('flips readiness on request', async () => {
    const [pod] = await pods();
    const name = pod!.metadata!.name!;
    kubelet.setReady(ns, name, false);
    await eventually('pod not ready', async () => (!isReady(await podNamed(name)) ? true : undefined));
    kubelet.setReady(ns, name, true);
    await eventually('pod ready again', async () => (isReady(await podNamed(name)) ? true : undefined));
  });

  it('fails a container and restarts it', async () => {
    const [pod] = await pods();
    const name = pod!.metadata!.name!;
    kubelet.failContainer(ns, name, 'log', 137);
    const failed = await eventually('container down', async () => {
      const p = await podNamed(name);
      const s = p.status?.containerStatuses?.find((c) => c.name === 'log');
      return s?.state?.terminated ? p : undefined;
    });
    expect(isReady(failed)).toBe(false);
    expect(failed.status?.containerStatuses?.find((c) => c.name === 'log')?.state?.terminated?.exitCode).toBe(137);
    kubelet.recoverContainer(ns, name, 'log');
    const back = await eventually('container restarted', async () => {
      const p = await podNamed(name);
      return isReady(p) ? p : undefined;
    });
    expect(back.status?.containerStatuses?.find((c) => c.name === 'log')?.restartCount).toBe(1);
  });

  it('restarts a container after an in-place image change, keeping the pod', async () => {
    const [pod] = await pods();
    const name = pod!.metadata!.name!;
    const uid = pod!.metadata!.uid;
    await kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns } },
      { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } }, 'strategic');
    const updated = await eventually('new image running', async () => {
      const p = await podNamed(name);
      const s = p.status?.containerStatuses?.find((c) => c.name === 'nginx');
      return s?.image === 'nginx:1.26' && isReady(p) ? p : undefined;
    });
    const s = updated.status!.containerStatuses!.find((c) => c.name === 'nginx')!;
    expect(updated.metadata?.uid).toBe(uid);
    expect(s.imageID).toBe(imageIdOf('nginx:1.26'));
    expect(s.restartCount).toBe(1);
    expect(s.lastState?.terminated).toBeTruthy();
  });

  it('completes a pod as a Job pod would', async () => {
    await kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once', namespace: ns },
      spec: { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox:1.36' }] } });
    await eventually('pod running', async () => ((await podNamed('once')).status?.phase === 'Running' ? true : undefined));
    kubelet.completePod(ns, 'once', 0);
    const done = await eventually('pod succeeded', async () => {
      const p = await podNamed('once');
      return p.status?.phase === 'Succeeded' ? p : undefined;
    });
    expect(done.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
  });

  it('finalises deleted pods like a kubelet, so controllers replace them', async () => {
    const [pod] = await pods();
    const name = pod!.metadata!.name!;
    await kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns } });
    await eventually('pod gone and replaced', async () => {
      const list = await pods();
      return !list.some((p) => p.metadata?.name === name) && list.length === 3 && list.every(isReady) ? true : undefined;
    });
  });

  it('made no unexpected API errors', () => {
    expect(kubelet.errors).toEqual([]);
  });
});
