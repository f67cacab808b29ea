import { describe, expect, it } from 'vitest';
import type { ControllerRevision } from '../workload/revisions.js';
import { historyEntries, historyTable, restartPatch, revisionDetail, revisionDetailText } from './rollout-history.js';

const rev = (revision: number, name: string, image: string, changeCause?: string): ControllerRevision => ({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', revision,
  metadata: { name, namespace: 'ns', ...(changeCause ? { annotations: { 'kubernetes.io/change-cause': changeCause } } : {}) },
  data: { spec: { template: { $patch: 'replace', metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } } } },
}) as unknown as ControllerRevision;

describe('rollout history', () => {
  const owned = [rev(2, 'web-b', 'nginx:2', 'kubectl set image'), rev(1, 'web-a', 'nginx:1'), rev(3, 'web-c', 'nginx:3')];

  it('lists revisions oldest first with their change-cause, in kubectl\'s columns', () => {
    expect(historyTable('cloneset.apps.kruise.io/web', historyEntries(owned))).toBe(
      'cloneset.apps.kruise.io/web\nREVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image\n3         <none>\n',
    );
    expect(historyTable('cloneset.apps.kruise.io/web', [])).toBe('No rollout history found.\n');
  });

  it('shows one revision\'s pod template, without the $patch marker', () => {
    const detail = revisionDetail(owned, 2);
    expect(detail).toEqual({ kind: 'found', revision: 2, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } });
    if (detail.kind === 'found') expect(revisionDetailText('x/web', detail)).toContain('x/web with revision #2\nPod Template:\n  metadata:\n');
    expect(revisionDetail(owned, 9)).toEqual({ kind: 'error', message: 'unable to find the specified revision' });
  });

  it('restart sets the annotation to the time in RFC 3339 seconds', () => {
    expect(restartPatch('kubectl.kubernetes.io/restartedAt', new Date('2026-11-28T17:40:05.123Z'))).toEqual({
      spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-28T17:40:05Z' } } } },
    });
  });
});
