import { describe, expect, it } from 'vitest';
import type { PodProbeMarker } from '../api/apps/podprobemarker.js';
import { validatePodProbeMarker } from './validate.js';

const ppm = (spec: Record<string, unknown>): PodProbeMarker =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'm', namespace: 'ns' }, spec }) as unknown as PodProbeMarker;
const probe = (over: Record<string, unknown> = {}) => ({
  name: 'healthy', containerName: 'main', podConditionType: 'game.kruise.io/healthy',
  probe: { tcpSocket: { port: 8080 } }, markerPolicy: [{ state: 'Succeeded', labels: { healthy: 'true' } }], ...over,
});
const valid = { selector: { matchLabels: { app: 'game' } }, probes: [probe()] };

describe('validatePodProbeMarker', () => {
  it('accepts a tcp probe with a condition and a policy, and an exec probe (a node agent or the pod runtime runs it)', () => {
    expect(validatePodProbeMarker(ppm(valid))).toBeUndefined();
    expect(validatePodProbeMarker(ppm({ ...valid, probes: [probe({ probe: { exec: { command: ['true'] } } })] }))).toBeUndefined();
  });

  it.each([
    ['no selector', { probes: [probe()] }, 'spec.selector: Invalid value: "null": empty Selector is not valid for PodProbeMarker.'],
    ['an empty selector', { selector: {}, probes: [probe()] }, 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for podProbeMarker.'],
    ['no probes', { selector: valid.selector }, 'spec.probes: Invalid value: []v1alpha1.PodContainerProbe(nil): empty probes is not valid for PodProbeMarker.'],
    ['a # in a name', { ...valid, probes: [probe({ name: 'a#b' })] }, 'spec.probes: Invalid value: "a#b": probe name can\'t contains \'#\'.'],
    ['a native condition name', { ...valid, probes: [probe({ name: 'Ready' })] }, 'spec.probes: Invalid value: "Ready": probe name can\'t be Ready'],
    ['no container', { ...valid, probes: [probe({ containerName: '' })] }, 'spec.probes: Invalid value: "": probe containerName can\'t be empty in PodProbeMarker.'],
    ['a repeated name', { ...valid, probes: [probe(), probe({ podConditionType: 'other' })] }, 'spec.probes: Invalid value: "healthy": probe name must be unique in PodProbeMarker.'],
    ['two handlers', { ...valid, probes: [probe({ probe: { tcpSocket: { port: 1 }, exec: { command: ['x'] } } })] }, 'spec.probe.tcpSocket: Forbidden: may not specify more than 1 handler type'],
    ['no handler', { ...valid, probes: [probe({ probe: {} })] }, 'spec.probe: Required value: must specify a handler type'],
    ['an http probe without scheme', { ...valid, probes: [probe({ probe: { httpGet: { path: '/', port: 80 } } })] }, 'spec.probe.httpGet.scheme: Unsupported value: "": supported values: "HTTP", "HTTPS"'],
    ['a port out of range', { ...valid, probes: [probe({ probe: { tcpSocket: { port: 0 } } })] }, 'spec.probe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive'],
    ['a negative period', { ...valid, probes: [probe({ probe: { tcpSocket: { port: 1 }, periodSeconds: -1 } })] }, 'spec.probe.periodSeconds: Invalid value: -1: must be greater than or equal to 0'],
    ['a repeated condition type', { ...valid, probes: [probe(), probe({ name: 'other' })] }, 'spec.probes: Invalid value: "game.kruise.io/healthy": podConditionType game.kruise.io/healthy must be unique in podProbeMarker'],
    ['a policy state other than Succeeded or Failed', { ...valid, probes: [probe({ markerPolicy: [{ state: 'True', labels: { a: 'b' } }] })] }, "spec.markerPolicy.state: Required value: marker policy state must be 'True' or 'False'"],
    ['a repeated policy state', { ...valid, probes: [probe({ markerPolicy: [{ state: 'Failed', labels: { a: 'b' } }, { state: 'Failed', labels: { a: 'c' } }] })] }, 'spec.markerPolicy: Invalid value: "Failed": marker policy state must be unique.'],
    ['a policy with neither labels nor annotations', { ...valid, probes: [probe({ markerPolicy: [{ state: 'Failed' }] })] }, "spec.markerPolicy: Required value: marker policy annotations or labels can't be both empty"],
  ])('refuses %s', (_what, spec, message) => {
    expect(validatePodProbeMarker(ppm(spec))).toBe(message);
  });

  it('refuses a probe with neither condition type nor policy, and lists every error of the spec', () => {
    expect(validatePodProbeMarker(ppm({ ...valid, probes: [probe({ podConditionType: '', markerPolicy: [] })] }))).toMatch(/^spec\.probes: Invalid value: \{.*\}: podConditionType and markerPolicy cannot be empty at the same time$/);
    expect(validatePodProbeMarker(ppm({ selector: {}, probes: [probe({ probe: { tcpSocket: { port: 0, host: 'h' } } })] }))).toBe(
      '[spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for podProbeMarker., spec.probe.tcpSocket.host: Invalid value: "h": host field in probes is not allowed, spec.probe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive]',
    );
  });

  it('keeps the selector immutable', () => {
    const changed = ppm({ ...valid, selector: { matchLabels: { app: 'other' } } });
    expect(validatePodProbeMarker(changed, ppm(valid))).toBe('selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: selector must be immutable');
    expect(validatePodProbeMarker(ppm({ ...valid, probes: [probe({ name: 'renamed' })] }), ppm(valid))).toBeUndefined();
  });
});
