import { describe, expect, it } from 'vitest';
import { strategicMergePodTemplate } from './strategic-merge.js';

const template = {
  metadata: { labels: { app: 'x' } },
  spec: {
    containers: [{ name: 'main', image: 'app:1', env: [{ name: 'A', value: '1' }], args: ['a'] }, { name: 'side', image: 'side:1' }],
    tolerations: [{ key: 't', operator: 'Exists' }],
    volumes: [{ name: 'v', emptyDir: {} }],
  },
};

describe('strategicMergePodTemplate', () => {
  it('merges containers and env by name, replaces lists without a merge key, adds labels', () => {
    const out = strategicMergePodTemplate(template, {
      metadata: { labels: { zone: 'a' } },
      spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }], args: ['b'] }], tolerations: [{ key: 'u', operator: 'Exists' }] },
    });
    expect(out.metadata.labels).toEqual({ app: 'x', zone: 'a' });
    expect(out.spec.containers).toEqual([
      { name: 'main', image: 'app:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], args: ['b'] },
      { name: 'side', image: 'side:1' },
    ]);
    expect(out.spec.tolerations).toEqual([{ key: 'u', operator: 'Exists' }]);
    expect(template.spec.containers[0]!.env).toHaveLength(1);
  });
  it('honours null, $patch delete on an element and $patch replace on a list', () => {
    const out = strategicMergePodTemplate(template, {
      metadata: { labels: { app: null } },
      spec: { containers: [{ name: 'side', $patch: 'delete' }, { name: 'new', image: 'n:1' }], volumes: [{ $patch: 'replace' }, { name: 'w', emptyDir: {} }] },
    });
    expect(out.metadata.labels).toEqual({});
    expect(out.spec.containers.map((c: { name: string }) => c.name)).toEqual(['main', 'new']);
    expect(out.spec.volumes).toEqual([{ name: 'w', emptyDir: {} }]);
  });
});
