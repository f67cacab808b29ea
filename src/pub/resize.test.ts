import { describe, expect, it } from 'vitest';
import type { Pod } from '../workload/pods.js';
import { isResizeOnly } from './resize.js';
import { protectedOperations } from './types.js';

const pod = (resources: Record<string, unknown>, extra: Record<string, unknown> = {}, labels: Record<string, string> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns', labels },
  spec: { containers: [{ name: 'main', image: 'app:1', resources, ...extra }] },
});
const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } };

// OpenKruise's CanResizeInplace (pubcontrol/pub_control.go) rules.
describe('isResizeOnly', () => {
  it('cpu and memory changes within the QoS class are a resize', () => {
    expect(isResizeOnly(pod(burstable), pod({ ...burstable, requests: { cpu: '200m', memory: '64Mi' } }))).toBe(true);
    expect(isResizeOnly(pod(burstable), pod({ ...burstable, limits: { cpu: '2', memory: '256Mi' } }))).toBe(true);
  });
  it('the same quantity written otherwise is no change at all (still resize-only)', () => {
    expect(isResizeOnly(pod(burstable), pod({ ...burstable, limits: { cpu: '1000m', memory: '128Mi' } }))).toBe(true);
  });
  it('anything else is an UPDATE', () => {
    expect(isResizeOnly(pod(burstable), { ...pod(burstable), spec: { containers: [{ name: 'main', image: 'app:2', resources: burstable }] } })).toBe(false);
    expect(isResizeOnly(pod(burstable), pod({ ...burstable, limits: { ...burstable.limits, 'ephemeral-storage': '1Gi' } }))).toBe(false);
    const guaranteed = { requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '1', memory: '128Mi' } };
    expect(isResizeOnly(pod(burstable), pod(guaranteed))).toBe(false); // QoS Burstable → Guaranteed
    expect(isResizeOnly(pod({}), pod({ requests: { cpu: '1' } }))).toBe(false); // BestEffort → Burstable
    const restart = { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] };
    expect(isResizeOnly(pod(burstable, restart), pod({ ...burstable, limits: { cpu: '1', memory: '256Mi' } }, restart))).toBe(false);
    expect(isResizeOnly(pod(burstable, restart), pod({ ...burstable, limits: { cpu: '2', memory: '128Mi' } }, restart))).toBe(true);
    expect(isResizeOnly(pod(burstable), pod({ ...burstable, requests: { cpu: '200m', memory: '64Mi' } }, {}, { 'unavailable-pod.kruise.io/x': 'true' }))).toBe(false);
    const stat = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, annotations: { 'kubernetes.io/config.source': 'file' } } });
    expect(isResizeOnly(stat(pod(burstable)), stat(pod({ ...burstable, requests: { cpu: '200m', memory: '64Mi' } })))).toBe(false);
  });
});

describe('protectedOperations and RESIZE', () => {
  it('a guarded UPDATE guards RESIZE (InPlacePodVerticalScaling off); RESIZE may be named alone', () => {
    expect(protectedOperations(undefined)).toEqual(['DELETE', 'UPDATE', 'EVICT', 'RESIZE']);
    expect(protectedOperations({ 'kruise.io/pub-protect-operations': 'UPDATE' })).toEqual(['UPDATE', 'RESIZE']);
    expect(protectedOperations({ 'kruise.io/pub-protect-operations': 'RESIZE' })).toEqual(['RESIZE']);
    expect(protectedOperations({ 'kruise.io/pub-protect-operations': 'DELETE,EVICT' })).toEqual(['DELETE', 'EVICT']);
  });
});
