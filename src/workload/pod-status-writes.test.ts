import { describe, expect, it } from 'vitest';
import { afterStatusWrite } from './pod-status-writes.js';
import type { Pod } from './pods.js';

const pod: Pod = { metadata: { name: 'p', namespace: 'ns', labels: { app: 'a', old: 'x' }, annotations: { keep: '1' } }, spec: { containers: [] }, status: { conditions: [] } };

describe('afterStatusWrite', () => {
  it('sets the labels a write carries and removes those it sets to null (merge patch)', () => {
    const after = afterStatusWrite(pod, { target: { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'ns' }, status: { conditions: [{ type: 'X', status: 'True' }] }, metadata: { labels: { old: null, new: 'y' } }, reason: 'r' });
    expect(after.metadata.labels).toEqual({ app: 'a', new: 'y' });
    expect(after.metadata.annotations).toEqual({ keep: '1' });
    expect(after.status?.conditions).toEqual([{ type: 'X', status: 'True' }]);
  });
});
