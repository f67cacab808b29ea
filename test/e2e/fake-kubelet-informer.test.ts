// The fake kubelet's informer mode (benchmarks): its pods come from one LIST and then a WATCH,
// as a kubelet's do. It sees pods created on its node, their updates and their deletions, and a
// pass over its pods sends no request when nothing needs writing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeKubelet } from '../cluster/fake-kubelet.js';
import { PodInformer } from '../cluster/pod-informer.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './support/kube.js';

const kc = testKubeConfig();
const NODE = 'fk-informer-node';
type Pod = V1Pod & KubeObject;
let kube: KubeHttp;
let kubeletKube: KubeHttp;
let kubelet: FakeKubelet;
let informer: PodInformer;
let ns = '';

const pod = (name: string, image: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns },
  spec: { nodeName: NODE, terminationGracePeriodSeconds: 30, containers: [{ name: 'main', image }] },
});
const podNamed = (name: string) => kube.get<Pod>('v1', 'Pod', name, ns);
const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const held = (name: string) => informer.current().find((p) => p.metadata?.namespace === ns && p.metadata?.name === name);

beforeAll(async () => {
  kube = await testKube();
  kubeletKube = await testKube();
  ns = await createNamespace(kc, 'kubelet-informer');
  kubelet = new FakeKubelet(kubeletKube, 100, { podSource: 'informer' });
  await kubelet.addNodes([{ name: NODE }]);
  kubelet.start();
  informer = new PodInformer(kube);
  informer.start();
});

afterAll(async () => {
  await kubelet.stop();
  await informer.stop();
  await deleteNamespace(kc, ns);
  await kubelet.removeNodes([NODE]);
  kube.close();
  kubeletKube.close();
});

describe('fake kubelet, informer mode', () => {
  it('runs a pod created on its node', async () => {
    await kube.create(pod('created', 'nginx:1.25'));
    const ready = await eventually('the pod Running and Ready', async () => {
      const p = await podNamed('created');
      return p.status?.phase === 'Running' && isReady(p) ? p : undefined;
    });
    expect(ready.status?.containerStatuses?.[0]?.image).toBe('nginx:1.25');
    const seen = await eventually('the informer holds it', async () => held('created'));
    expect(seen.spec?.nodeName).toBe(NODE);
  });

  it('sees an update: an in-place image change restarts the container', async () => {
    await kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'created', namespace: ns } }, [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.26' }], 'json');
    const restarted = await eventually('the new image running', async () => {
      const s = (await podNamed('created')).status?.containerStatuses?.[0];
      return s?.image === 'nginx:1.26' ? s : undefined;
    });
    expect(restarted.restartCount).toBe(1);
    await eventually('the informer holds the new image', async () => (held('created')?.spec?.containers[0]?.image === 'nginx:1.26' ? true : undefined));
  });

  it('sees a deletion: finalises a terminating pod, and drops it once gone', async () => {
    await kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'created', namespace: ns } });
    await eventually('the pod gone', async () => kube.get('v1', 'Pod', 'created', ns).then(() => undefined, () => true));
    await eventually('the informer no longer holds it', async () => (held('created') ? undefined : true));
  });

  it('a pass over settled pods sends no request', async () => {
    await kube.create(pod('settled', 'busybox:1.36'));
    await eventually('the pod Ready', async () => (isReady(await podNamed('settled')) ? true : undefined));
    await eventually('the kubelet sees it Ready', async () => {
      await kubelet.tick();
      const before = kubeletKube.stats().requests;
      await kubelet.tick();
      return kubeletKube.stats().requests === before ? true : undefined;
    });
    const before = kubeletKube.stats().requests;
    for (let i = 0; i < 5; i++) await kubelet.tick();
    expect(kubeletKube.stats().requests).toBe(before);
    expect(informer.lists).toBe(1);
  });

  it('made no unexpected API errors', () => {
    expect(kubelet.errors).toEqual([]);
    expect(informer.errors).toEqual([]);
  });
});
