import { describe, expect, it } from 'vitest';
import type { PodProbeMarker } from '../api/apps/podprobemarker.js';
import { probeAnnotations } from './inject.js';
import { markersForPod } from './select.js';

const marker = (name: string, probes: unknown[], selector: unknown = { matchLabels: { app: 'game' } }): PodProbeMarker =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name, namespace: 'ns' }, spec: { selector, probes } }) as unknown as PodProbeMarker;
const healthy = { name: 'healthy', containerName: 'main', podConditionType: 'game.kruise.io/healthy', probe: { exec: { command: ['bash', '/data/probe.sh'] } }, markerPolicy: [{ state: 'Succeeded', labels: { a: 'b' } }] };

describe('probeAnnotations', () => {
  it('carries the probes as Go encodes them, without policies, and names their markers', () => {
    const spec = { containers: [{ name: 'main' }] };
    expect(probeAnnotations(spec, [marker('b', [healthy]), marker('a', [{ ...healthy, name: 'other' }])])).toEqual({
      'kruise.io/podprobe': '[{"name":"healthy","containerName":"main","probe":{"exec":{"command":["bash","/data/probe.sh"]}},"podConditionType":"game.kruise.io/healthy"}]',
      'kruise.io/podprobemarker-list': 'b',
    });
  });

  it('skips probes of absent containers or without a condition type; a sidecar init container counts', () => {
    const sidecar = { ...healthy, containerName: 'log', podConditionType: 'log-ok' };
    expect(probeAnnotations({ containers: [{ name: 'other' }], initContainers: [{ name: 'log', restartPolicy: 'Always' }] }, [marker('m', [healthy, sidecar, { ...sidecar, name: 'x', podConditionType: '' }])])?.['kruise.io/podprobe']).toContain('"containerName":"log"');
    expect(probeAnnotations({ containers: [{ name: 'other' }] }, [marker('m', [healthy])])).toBeUndefined();
  });
});

describe('markersForPod', () => {
  it('picks by the list annotation, else by selector (an empty one matches nothing)', () => {
    const all = [marker('a', []), marker('b', [], {}), marker('c', [], { matchLabels: { app: 'x' } })];
    expect(markersForPod({ metadata: { labels: { app: 'game' } } }, 'ns', all).map((m) => m.metadata.name)).toEqual(['a']);
    expect(markersForPod({ metadata: { labels: {}, annotations: { 'kruise.io/podprobemarker-list': 'c,zz' } } }, 'ns', all).map((m) => m.metadata.name)).toEqual(['c']);
    expect(markersForPod({ metadata: { labels: { app: 'game' } } }, 'other', all)).toEqual([]);
  });
});
