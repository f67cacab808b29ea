import { describe, expect, it } from 'vitest';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import { podProbeMarkersOfPod } from './index.js';

const created = (annotations: Record<string, string> | undefined, extra: Partial<AdmittedRequest> = {}): AdmittedRequest => ({
  namespace: 'ns', group: '', kind: 'Pod', operation: 'CREATE', dryRun: false,
  object: { metadata: { name: 'p', ...(annotations ? { annotations } : {}) } }, ...extra,
});

describe('podProbeMarkersOfPod: a pod created → the PodProbeMarkers its webhook listed', () => {
  it('each name in kruise.io/podprobemarker-list, once', () => {
    expect(podProbeMarkersOfPod(created({ 'kruise.io/podprobemarker-list': 'game,idle,game' }))).toEqual([
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', namespace: 'ns', name: 'game' },
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', namespace: 'ns', name: 'idle' },
    ]);
  });

  it('nothing for a pod without the list, an update, a subresource or another kind', () => {
    expect(podProbeMarkersOfPod(created(undefined))).toEqual([]);
    expect(podProbeMarkersOfPod(created({ 'kruise.io/podprobemarker-list': 'game' }, { operation: 'UPDATE' }))).toEqual([]);
    expect(podProbeMarkersOfPod(created({ 'kruise.io/podprobemarker-list': 'game' }, { subResource: 'status' }))).toEqual([]);
    expect(podProbeMarkersOfPod(created({ 'kruise.io/podprobemarker-list': 'game' }, { kind: 'ConfigMap' }))).toEqual([]);
  });
});
