import { describe, expect, it } from 'vitest';
import { projectActivePod } from './active-pods.js';

const pod = (annotations: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    name: 'web-1', namespace: 'ns', uid: 'u1', resourceVersion: '42', annotations: { unrelated: 'x', ...annotations },
    labels: { app: 'web', 'pod-template-hash': 'abc' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs', controller: true, blockOwnerDeletion: true }],
    ...extra,
  },
  spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' },
});

describe('projectActivePod', () => {
  it('keeps a pod without the annotations webhooks read as a bare name', () => {
    expect(projectActivePod(pod())).toEqual({ metadata: { name: 'web-1', namespace: 'ns', resourceVersion: '-' } });
  });

  it('keeps the read annotations, version labels and controller, stamped by content', () => {
    const p = projectActivePod(pod({ 'kruise.io/related-pub': 'web', 'apps.kruise.io/matched-workloadspread': '{"name":"s","subset":"a"}' }));
    expect(p.metadata).toMatchObject({
      annotations: { 'kruise.io/related-pub': 'web', 'apps.kruise.io/matched-workloadspread': '{"name":"s","subset":"a"}' },
      labels: { 'pod-template-hash': 'abc' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs', controller: true }],
    });
    // A status update (new resourceVersion) does not change the stamp; an annotation change does.
    const again = projectActivePod(pod({ 'kruise.io/related-pub': 'web', 'apps.kruise.io/matched-workloadspread': '{"name":"s","subset":"a"}' }, { resourceVersion: '43' }));
    expect((again.metadata as { resourceVersion: string }).resourceVersion).toBe((p.metadata as { resourceVersion: string }).resourceVersion);
    const changed = projectActivePod(pod({ 'kruise.io/related-pub': 'other' }));
    expect((changed.metadata as { resourceVersion: string }).resourceVersion).not.toBe((p.metadata as { resourceVersion: string }).resourceVersion);
  });
});
