import { describe, expect, it } from 'vitest';
import type { PodProbeMarker } from '../../api/apps/podprobemarker.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { probeTargets } from './targets.js';

const ppm = (probe: Record<string, unknown>): PodProbeMarker =>
  ({ metadata: { name: 'm', namespace: 'ns' }, spec: { selector: { matchLabels: { a: 'b' } }, probes: [{ name: 'p', containerName: 'main', podConditionType: 'c', probe }] } }) as unknown as PodProbeMarker;
const pod = (node = 'n1', podIP = '10.0.0.5'): Pod => ({
  metadata: { name: 'pod', namespace: 'ns', uid: 'u' },
  spec: { nodeName: node, containers: [{ name: 'main', ports: [{ name: 'web', containerPort: 8080 }] }] },
  status: { podIP, containerStatuses: [{ name: 'main', state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] },
});
const nodes = new Map<string, Node>([['n1', { metadata: { name: 'n1' } }], ['vk', { metadata: { name: 'vk', labels: { type: 'virtual-kubelet' } } }]]);

describe('probeTargets', () => {
  it('resolves a named port and fills OpenKruise\'s minimums', () => {
    expect(probeTargets(ppm({ httpGet: { path: '/h', port: 'web', scheme: 'HTTP' } }), [pod()], nodes)).toEqual([{
      key: 'u/m#p', action: { kind: 'http', host: '10.0.0.5', port: 8080, path: '/h', scheme: 'http', headers: [] }, containerName: 'main',
      container: { running: true, startedAt: '2026-01-01T00:00:00Z' }, timeoutSeconds: 1, periodSeconds: 10, initialDelaySeconds: 1, successThreshold: 1, failureThreshold: 1,
    }]);
  });

  it('leaves exec probes, unknown port names, pods without an IP and virtual-kubelet pods alone', () => {
    expect(probeTargets(ppm({ exec: { command: ['x'] } }), [pod()], nodes)).toEqual([]);
    expect(probeTargets(ppm({ tcpSocket: { port: 'nope' } }), [pod()], nodes)).toEqual([]);
    expect(probeTargets(ppm({ tcpSocket: { port: 80 } }), [pod('n1', '')], nodes)).toEqual([]);
    expect(probeTargets(ppm({ tcpSocket: { port: 80 } }), [pod('vk')], nodes)).toEqual([]);
    expect(probeTargets(ppm({ tcpSocket: { port: 80 } }), [pod()], nodes)).toHaveLength(1);
  });
});
