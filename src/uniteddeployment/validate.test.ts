import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { validateUnitedDeployment } from './validate.js';
import type { UnitedDeploymentLike } from './types.js';

const ud = (spec: Partial<UnitedDeploymentLike['spec']>): UnitedDeploymentLike => ({
  metadata: { name: 'u', namespace: 'ns' },
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'x' } },
    template: { statefulSetTemplate: { metadata: { labels: { app: 'x' } }, spec: {} } },
    topology: { subsets: [{ name: 'a' }, { name: 'b' }] },
    ...spec,
  },
});
const messages = (u: UnitedDeploymentLike, old?: UnitedDeploymentLike) => formatFieldErrors(validateUnitedDeployment(u, old));

describe('validateUnitedDeployment', () => {
  it('refuses reserveUnschedulablePods with StatefulSet subsets, as OpenKruise (stateless workloads only)', () => {
    const reserve = { type: 'Adaptive', adaptive: { reserveUnschedulablePods: true } };
    expect(messages(ud({ topology: { subsets: [{ name: 'a' }, { name: 'b' }], scheduleStrategy: reserve } }))).toBe(
      'spec.topology.scheduleStrategy: Invalid value: v1alpha1.UnitedDeploymentScheduleStrategy{…}: only stateless workloads (Deployment and CloneSet) are supported by reserved rescheduling',
    );
    const clone = { cloneSetTemplate: { metadata: { labels: { app: 'x' } }, spec: {} } };
    expect(validateUnitedDeployment(ud({ template: clone, topology: { subsets: [{ name: 'a' }, { name: 'b' }], scheduleStrategy: reserve } }))).toEqual([]);
  });
  it('accepts seed 000', () => {
    expect(validateUnitedDeployment(ud({ topology: { subsets: [{ name: 'subset-a', replicas: 1 }, { name: 'subset-b', replicas: '50%' }, { name: 'subset-c' }] } }))).toEqual([]);
  });
  it('needs exactly one template whose labels match the selector, without replicas of its own', () => {
    expect(messages(ud({ template: {} }))).toBe('spec.template: Required value: should provide one of statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate');
    expect(messages(ud({ template: { deploymentTemplate: { metadata: { labels: { app: 'y' } }, spec: { replicas: 2 } } } }))).toBe(
      '[spec.template.deploymentTemplate.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`, spec.template.deploymentTemplate.spec.replicas: Invalid value: 2: replicas in deploymentTemplate will not be used]',
    );
  });
  it('checks subset names and the sums of subset replicas', () => {
    expect(messages(ud({ topology: { subsets: [{ name: 'a', replicas: 5 }, { name: 'b', replicas: 2 }] } }))).toBe(
      '[spec.topology.subsets: Invalid value: 7: sum of indicated subset replicas 7 should not be greater than UnitedDeployment replicas 6, spec.topology.subsets: Invalid value: 7: if replicas of all subsets are provided, the sum of indicated subset replicas 7 should equal UnitedDeployment replicas 6]',
    );
    expect(messages(ud({ replicas: null, topology: { subsets: [{ name: 'a', replicas: 1 }, { name: 'b' }] } }))).toBe('spec.topology.subsets: Invalid value: 1: if UnitedDeployment replicas is not provided, replicas of all subsets should be provided');
    expect(messages(ud({ topology: { subsets: [{ name: 'A_' }, { name: 'A_' }] } }))).toContain('spec.topology.subsets[1].name: Invalid value: "A_": duplicated subset name A_');
  });
  it('forbids changing a subset\'s nodeSelectorTerm or tolerations', () => {
    const old = ud({ topology: { subsets: [{ name: 'a', tolerations: [] }, { name: 'b' }] } });
    const now = ud({ topology: { subsets: [{ name: 'a', tolerations: [{ key: 'k', operator: 'Exists' }] }, { name: 'b', nodeSelectorTerm: { matchExpressions: [] } }] } });
    expect(messages(now, old)).toBe('[spec.topology.subsets[0].tolerations: Forbidden: may not be changed in an update, spec.topology.subsets[1].nodeSelectorTerm: Forbidden: may not be changed in an update]');
  });
});
