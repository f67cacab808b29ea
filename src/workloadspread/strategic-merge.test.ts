import { describe, expect, it } from 'vitest';
import { strategicMergePod } from './strategic-merge.js';

const pod = {
  metadata: { labels: { app: 'web' }, finalizers: ['a'] },
  spec: {
    containers: [{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] }],
    tolerations: [{ key: 'x', operator: 'Exists' }],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
};

describe('strategicMergePod', () => {
  it.each<[string, unknown, unknown]>([
    ['maps merge, labels added', { metadata: { labels: { zone: 'a' } } }, { ...pod, metadata: { ...pod.metadata, labels: { app: 'web', zone: 'a' } } }],
    ['null deletes a key', { metadata: { labels: { app: null } } }, { ...pod, metadata: { ...pod.metadata, labels: {} } }],
    ['containers merge by name', { spec: { containers: [{ name: 'app', image: 'app:2' }] } }, { ...pod, spec: { ...pod.spec, containers: [{ ...pod.spec.containers[0], image: 'app:2' }] } }],
    ['new container appended', { spec: { containers: [{ name: 'log', image: 'log:1' }] } }, { ...pod, spec: { ...pod.spec, containers: [...pod.spec.containers, { name: 'log', image: 'log:1' }] } }],
    ['env merges by name inside a container', { spec: { containers: [{ name: 'app', env: [{ name: 'B', value: '2' }] }] } },
      { ...pod, spec: { ...pod.spec, containers: [{ ...pod.spec.containers[0], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] } }],
    ['tolerations have no merge key: replaced', { spec: { tolerations: [{ key: 'y', operator: 'Exists' }] } }, { ...pod, spec: { ...pod.spec, tolerations: [{ key: 'y', operator: 'Exists' }] } }],
    ['$patch: delete removes a list item', { spec: { volumes: [{ name: 'data', $patch: 'delete' }] } }, { ...pod, spec: { ...pod.spec, volumes: [] } }],
    ['$patch: replace on a map', { metadata: { labels: { zone: 'a', $patch: 'replace' } } }, { ...pod, metadata: { ...pod.metadata, labels: { zone: 'a' } } }],
    ['$patch: replace on a list item replaces the list', { spec: { containers: [{ name: 'x', $patch: 'replace' }, { name: 'only', image: 'o' }] } },
      { ...pod, spec: { ...pod.spec, containers: [{ name: 'only', image: 'o' }] } }],
    ['$patch: replace in a list', { spec: { volumes: [{ $patch: 'replace' }, { name: 'new', emptyDir: {} }] } }, { ...pod, spec: { ...pod.spec, volumes: [{ name: 'new', emptyDir: {} }] } }],
    ['finalizers merge as a set', { metadata: { finalizers: ['a', 'b'] } }, { ...pod, metadata: { ...pod.metadata, finalizers: ['a', 'b'] } }],
    ['$deleteFromPrimitiveList', { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, { ...pod, metadata: { ...pod.metadata, finalizers: [] } }],
    ['$retainKeys', { spec: { volumes: [{ name: 'data', hostPath: { path: '/x' }, $retainKeys: ['name', 'hostPath'] }] } },
      { ...pod, spec: { ...pod.spec, volumes: [{ name: 'data', hostPath: { path: '/x' } }] } }],
  ])('%s', (_name, patch, want) => {
    expect(strategicMergePod(structuredClone(pod), patch)).toEqual({ ok: true, value: want });
  });

  it.each([
    ['item without its merge key', { spec: { containers: [{ image: 'x' }] } }, /does not contain declared merge key: name/],
    ['not an object', [1], /must be a JSON object/],
    ['merge directive in a list', { spec: { volumes: [{ name: 'data', $patch: 'merge' }] } }, /merging lists cannot yet be specified/],
    ['unknown directive', { spec: { $patch: 'explode' } }, /unknown patch type/],
  ])('error: %s', (_name, patch, want) => {
    const r = strategicMergePod(pod, patch);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(want);
  });
});
