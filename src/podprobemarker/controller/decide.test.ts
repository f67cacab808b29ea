import { describe, expect, it } from 'vitest';
import type { PodProbeMarker } from '../../api/apps/podprobemarker.js';
import type { Pod } from '../../workload/pods.js';
import { decidePodProbeMarkers } from './decide.js';
import type { ProbeResult } from './results.js';

const ppm = (status?: { observedGeneration: number; matchedPods?: number }): PodProbeMarker => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'game', namespace: 'ns', generation: 2, resourceVersion: '7' },
  spec: {
    selector: { matchLabels: { app: 'game' } },
    probes: [{
      name: 'healthy', containerName: 'main', podConditionType: 'game.kruise.io/healthy', probe: { tcpSocket: { port: 8080 } },
      markerPolicy: [{ state: 'Succeeded', labels: { healthy: 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } }, { state: 'Failed', labels: { unhealthy: 'true' } }],
    }],
  },
  ...(status ? { status } : {}),
});
const pod = (conditions: { type: string; status: string; message?: string }[] = [], labels: Record<string, string> = { app: 'game' }): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: '5', labels },
  spec: { nodeName: 'n', containers: [{ name: 'main' }] },
  status: { conditions: [{ type: 'Initialized', status: 'True' }, ...conditions] },
});
const result = (state: 'Succeeded' | 'Failed', message = ''): Map<string, ProbeResult> => new Map([['u1/game#healthy', { state, message, probedAt: '2026-01-01T00:00:10Z', changedAt: '2026-01-01T00:00:00Z' }]]);

describe('decidePodProbeMarkers', () => {
  it('counts matched pods in the status', () => {
    const plan = decidePodProbeMarkers({ markers: [{ ppm: ppm(), pods: [pod()] }], results: new Map() });
    expect(plan.status).toEqual([expect.objectContaining({ target: expect.objectContaining({ kind: 'PodProbeMarker', name: 'game' }), status: { observedGeneration: 2, matchedPods: 1 } })]);
    expect(decidePodProbeMarkers({ markers: [{ ppm: ppm({ observedGeneration: 2, matchedPods: 1 }), pods: [pod()] }], results: new Map() }).status).toEqual([]);
  });

  it('marks a pod by the condition its runtime reported, and removes nothing (serverless mode)', () => {
    const reported = pod([{ type: 'game.kruise.io/healthy', status: 'True' }], { app: 'game', unhealthy: 'true' });
    const [write] = decidePodProbeMarkers({ markers: [{ ppm: ppm({ observedGeneration: 2, matchedPods: 1 }), pods: [reported] }], results: new Map() }).status;
    expect(write).toMatchObject({ target: { kind: 'Pod', name: 'p' }, resourceVersion: '5', metadata: { labels: { healthy: 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } } });
    expect(write?.then).toBeUndefined();
    const done = pod([{ type: 'game.kruise.io/healthy', status: 'True' }], { app: 'game', healthy: 'true' });
    done.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '10' };
    expect(decidePodProbeMarkers({ markers: [{ ppm: ppm({ observedGeneration: 2, matchedPods: 1 }), pods: [done] }], results: new Map() }).status).toEqual([]);
  });

  it('records a probe it ran as the condition and swaps the policies\' labels in that one write', () => {
    const healthy = pod([], { app: 'game', unhealthy: 'true' });
    const plan = decidePodProbeMarkers({ markers: [{ ppm: ppm({ observedGeneration: 2, matchedPods: 1 }), pods: [healthy] }], results: result('Succeeded'), probePeriodMs: 10_000 });
    const [write] = plan.status;
    expect(write?.status).toEqual({ conditions: [{ type: 'Initialized', status: 'True' }, { type: 'game.kruise.io/healthy', status: 'True', lastProbeTime: '2026-01-01T00:00:10Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] });
    expect(write?.metadata?.labels).toEqual({ healthy: 'true', unhealthy: null });
    expect(write?.then).toBeUndefined();
    expect(plan.requeueAfterMs).toBe(10_000);
  });

  it('rewrites the condition only when its status or message changes', () => {
    const same = pod([{ type: 'game.kruise.io/healthy', status: 'False', message: 'dial tcp: refused' }], { app: 'game', unhealthy: 'true' });
    expect(decidePodProbeMarkers({ markers: [{ ppm: ppm({ observedGeneration: 2, matchedPods: 1 }), pods: [same] }], results: result('Failed', 'dial tcp: refused') }).status).toEqual([]);
    const [w] = decidePodProbeMarkers({ markers: [{ ppm: ppm({ observedGeneration: 2, matchedPods: 1 }), pods: [same] }], results: result('Failed', 'dial tcp: timeout') }).status;
    expect(w?.status).toMatchObject({ conditions: [expect.anything(), { type: 'game.kruise.io/healthy', status: 'False', message: 'dial tcp: timeout' }] });
  });
});
