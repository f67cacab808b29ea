// readYourWrites LISTs against a local HTTP server playing the API server: which LISTs carry a
// resourceVersion (served from the watch cache) and which go to etcd (no resourceVersion, paged).
import { describe, expect, it } from 'vitest';
import { json, serveApi } from './test-api-server.js';
import { OwnWritesFloor } from './own-writes-floor.js';

type Answer = { status: number; body: unknown };

/** A server: discovery, pod LISTs at `listVersion`, and writes answered by `write()`; the LIST queries it saw. */
async function apiServer(write: () => Answer) {
  const lists: Record<string, string>[] = [];
  const state = { listVersion: '100', watchVersion: '500' };
  const kube = await serveApi((req, res, url) => {
    const send = (a: Answer) => json(res, a.status, a.body);
    if (req.method === 'GET' && url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`${JSON.stringify({ type: 'MODIFIED', object: { ...pod, metadata: { ...pod.metadata, resourceVersion: state.watchVersion } } })}\n`);
    }
    if (req.method === 'GET') {
      lists.push(Object.fromEntries(url.searchParams));
      return send({ status: 200, body: { kind: 'PodList', metadata: { resourceVersion: state.listVersion }, items: [] } });
    }
    req.resume();
    req.on('end', () => send(write()));
  });
  return { kube, lists, state };
}

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'ns' } };
const written = (rv: string): Answer => ({ status: 200, body: { ...pod, metadata: { ...pod.metadata, resourceVersion: rv } } });
const fresh = { namespace: 'ns', readYourWrites: true };

describe('KubeHttp: LISTs that must see the client\'s own writes', () => {
  it('go to etcd until the client writes, then ask the watch cache for at least its newest write', async () => {
    let rv = 0;
    const { kube, lists } = await apiServer(() => written(String((rv += 10))));
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ limit: '500' });
    await kube.patch(pod, { metadata: { labels: { a: 'b' } } }, 'merge');
    await kube.patch(pod, { metadata: { labels: { a: 'c' } } }, 'merge');
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ resourceVersion: '20' });
    // A LIST that does not ask for it is unchanged.
    await kube.list('v1', 'Pod', { namespace: 'ns' });
    expect(lists.at(-1)).toEqual({ limit: '500' });
  });

  it('once written, ask for at least the newest change a watch delivered (the change that triggered the run)', async () => {
    const { kube, lists } = await apiServer(() => written('20'));
    await kube.patch(pod, { metadata: { labels: { a: 'b' } } }, 'merge');
    const seen: string[] = [];
    await kube.watch('v1', 'Pod', { resourceVersion: '20', timeoutSeconds: 5 }, (e) => seen.push(e.object.metadata?.resourceVersion ?? ''));
    expect(seen).toEqual(['500']);
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ resourceVersion: '500' });
  });

  it('after a write that may have landed unanswered (a 5xx), go to etcd until a write is answered again', async () => {
    let answer = written('10');
    const { kube, lists } = await apiServer(() => answer);
    await kube.patch(pod, {}, 'merge');
    answer = { status: 500, body: { kind: 'Status', message: 'etcd timeout' } };
    await expect(kube.patch(pod, {}, 'merge')).rejects.toThrow();
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ limit: '500' });
    answer = written('42');
    await kube.patch(pod, {}, 'merge');
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ resourceVersion: '42' });
  });

  it('a write refused (409) changes nothing; one answered without a resourceVersion sends the next LIST to etcd', async () => {
    let answer = written('10');
    const { kube, lists } = await apiServer(() => answer);
    await kube.patch(pod, {}, 'merge');
    answer = { status: 409, body: { kind: 'Status', reason: 'Conflict', message: 'conflict' } };
    await expect(kube.patch(pod, {}, 'merge')).rejects.toThrow();
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ resourceVersion: '10' });
    answer = { status: 200, body: { kind: 'Status', status: 'Success' } };
    await kube.delete(pod);
    await kube.list('v1', 'Pod', fresh);
    expect(lists.at(-1)).toEqual({ limit: '500' });
  });
});

describe('OwnWritesFloor', () => {
  it('keeps the newest revision per resource, whatever order the answers come in', () => {
    const f = new OwnWritesFloor();
    expect(f.version('/api/v1/namespaces/ns/pods')).toBeUndefined();
    f.wrote('/api/v1/namespaces/ns/pods/a/status', { metadata: { resourceVersion: '30' } });
    f.wrote('/api/v1/namespaces/other/pods/b', { metadata: { resourceVersion: '20' } });
    expect(f.version('/api/v1/pods')).toBe('30');
  });

  it('a write to another resource (a Lease) does not raise a resource\'s floor: its watch cache may never reach it', () => {
    const f = new OwnWritesFloor();
    f.wrote('/apis/apps.kruise.io/v1alpha1/namespaces/ns/clonesets/a/status', { metadata: { resourceVersion: '30' } });
    f.wrote('/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/l', { metadata: { resourceVersion: '99' } });
    expect(f.version('/apis/apps.kruise.io/v1alpha1/clonesets')).toBe('30');
    expect(f.version('/api/v1/namespaces/ns/pods')).toBeUndefined();
  });

  it('a list answered to a write (a DELETE of a collection) sends the next LIST to etcd', () => {
    const f = new OwnWritesFloor();
    f.wrote('/api/v1/namespaces/ns/pods/a', { metadata: { resourceVersion: '30' } });
    f.wrote('/api/v1/namespaces/ns/pods', { kind: 'PodList', metadata: { resourceVersion: '90' }, items: [] });
    expect(f.version('/api/v1/namespaces/ns/pods')).toBeUndefined();
  });

  it('a watch event raises a floor the client\'s writes set, never an unset one', () => {
    const f = new OwnWritesFloor();
    f.saw('/api/v1/pods', '900');
    expect(f.version('/api/v1/namespaces/a/pods')).toBeUndefined();
    f.wrote('/api/v1/namespaces/a/pods', { metadata: { resourceVersion: '10' } });
    f.saw('/api/v1/pods', '900');
    f.saw('/api/v1/pods', '50');
    f.saw('/apis/coordination.k8s.io/v1/leases', '2000');
    expect(f.version('/api/v1/namespaces/b/pods')).toBe('900');
    f.lost('/api/v1/namespaces/a/pods/x');
    f.saw('/api/v1/pods', '1000');
    expect(f.version('/api/v1/pods')).toBeUndefined();
  });

  it('a resourceVersion that is not an integer leaves reads on etcd', () => {
    const f = new OwnWritesFloor();
    f.wrote('/api/v1/namespaces/ns/pods/a', { metadata: { resourceVersion: 'abc' } });
    expect(f.version('/api/v1/namespaces/ns/pods')).toBeUndefined();
  });
});
