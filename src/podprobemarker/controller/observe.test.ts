import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader } from '../../reconcile/types.js';
import { observePodProbeMarkers } from './observe.js';

const ppm = (name: string, periods: (number | undefined)[]) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name, namespace: 'ns' },
  spec: { selector: { matchLabels: { app: name } }, probes: periods.map((periodSeconds, i) => ({ name: `p${i}`, containerName: 'main', podConditionType: `c${i}`, probe: { exec: { command: ['x'] }, ...(periodSeconds === undefined ? {} : { periodSeconds }) } })) },
});
const pod = (app: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `${app}-0`, namespace: 'ns', labels: { app } },
  spec: { nodeName: 'n', containers: [{ name: 'main', image: 'i' }] }, status: { phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }] },
});
const reader = (markers: object[], pods: { metadata: { labels: { app: string } } }[]): KubeReader => ({
  list: async <T extends KubeObject>(_v: string, kind: string, opts?: { labelSelector?: string }) => ({
    resourceVersion: '1',
    items: (kind === 'Pod' ? pods.filter((p) => opts?.labelSelector === `app=${p.metadata.labels.app}`) : markers) as unknown as T[],
  }),
  get: async () => { throw new Error('not used'); },
});
const NOW = new Date('2026-11-29T02:00:00Z');

describe('observePodProbeMarkers without a prober (the Lambda)', () => {
  it('runs again after the shortest probe period among the PodProbeMarkers that work on a pod, to read the conditions pods report', async () => {
    const got = await observePodProbeMarkers(reader([ppm('a', [undefined, 4]), ppm('b', [2])], [pod('a')]), { kind: 'all' }, undefined, NOW);
    expect(got.probePeriodMs).toBe(4_000);
    expect((await observePodProbeMarkers(reader([ppm('a', [undefined])], [pod('a')]), { kind: 'all' }, undefined, NOW)).probePeriodMs).toBe(10_000);
  });

  it('from the pod\'s creation on: a selected pod not yet bound or initialized counts too (it is not worked on yet)', async () => {
    const pending = { ...pod('a'), spec: { containers: [{ name: 'main', image: 'i' }] }, status: { phase: 'Pending' } };
    const got = await observePodProbeMarkers(reader([ppm('a', [3])], [pending]), { kind: 'all' }, undefined, NOW);
    expect(got.probePeriodMs).toBe(3_000);
    expect(got.markers[0]?.pods).toEqual([]);
  });

  it('no pod selected: no wake-up', async () => {
    expect((await observePodProbeMarkers(reader([ppm('a', [1])], []), { kind: 'all' }, undefined, NOW)).probePeriodMs).toBeUndefined();
  });
});
