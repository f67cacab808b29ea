import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { subset, workloadSpread } from './test-builders.js';
import type { WorkloadSpread } from './types.js';
import { validateWorkloadSpread, type WorkloadSpreadValidationContext } from './validate.js';

const ctx = (o: Partial<WorkloadSpreadValidationContext> = {}): WorkloadSpreadValidationContext => ({ others: [], whitelist: { workloads: [] }, ...o });
const render = (ws: WorkloadSpread, c = ctx()) => {
  const errs = validateWorkloadSpread(ws, c);
  return errs.length ? formatFieldErrors(errs) : '';
};
const ref = (apiVersion: string, kind: string, name = 'w') => ({ apiVersion, kind, name });

describe('validateWorkloadSpread', () => {
  it.each<[string, WorkloadSpread, string]>([
    ['valid', workloadSpread(), ''],
    ['empty targetRef', workloadSpread({ targetRef: ref('apps/v1', 'Deployment', '') }),
      'spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:""}: empty TargetReference is not valid for WorkloadSpread.'],
    ['wrong group', workloadSpread({ targetRef: ref('apps.kruise.io/v1alpha1', 'Deployment') }),
      'spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:"apps.kruise.io/v1alpha1", Kind:"Deployment", Name:"w"}: TargetReference is not valid for Deployment.'],
    ['Advanced StatefulSet', workloadSpread({ targetRef: ref('apps.kruise.io/v1beta1', 'StatefulSet'), subsets: [subset('a', { maxReplicas: 1 }), subset('b')] }), ''],
    ['unknown kind', workloadSpread({ targetRef: ref('example.com/v1', 'Rollout') }),
      `spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:"example.com/v1", Kind:"Rollout", Name:"w"}: TargetReference's GroupKind is not permitted.`],
    ['no subsets', workloadSpread({ subsets: [] }), 'spec.subsets: Required value: subsets number must >= 1 in WorkloadSpread'],
    ['duplicate and empty names', workloadSpread({ subsets: [subset('a'), subset('a'), subset('')] }),
      '[spec.subsets[1].name: Invalid value: "a": duplicated subset name a, spec.subsets[2].name: Invalid value: ""]'],
    ['mixed maxReplicas types', workloadSpread({ subsets: [subset('a', { maxReplicas: 1 }), subset('b', { maxReplicas: '50%' })] }),
      'spec.subsets[1].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50%"}: the maxReplicas type of all subsets must be the same'],
    ['percent for StatefulSet', workloadSpread({ targetRef: ref('apps/v1', 'StatefulSet'), subsets: [subset('a', { maxReplicas: '50%' }), subset('b')] }),
      'spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50%"}: the maxReplicas type must be Int for StatefulSet'],
    ['negative', workloadSpread({ subsets: [subset('a', { maxReplicas: -1 })] }),
      'spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:0, IntVal:-1, StrVal:""}: maxReplicas is not valid for subset'],
    ['not a percentage', workloadSpread({ subsets: [subset('a', { maxReplicas: 'ten' })] }),
      'spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"ten"}: maxReplicas is not valid for subset'],
    ['percent over 100', workloadSpread({ subsets: [subset('a', { maxReplicas: '60%' }), subset('b', { maxReplicas: '50%' })] }),
      `spec.subsets[1].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50%"}: the sum of all subset's maxReplicas exceeds 100% is no permitted`],
    ['percent under 100 with a limited last subset', workloadSpread({ subsets: [subset('a', { maxReplicas: '30%' }), subset('b', { maxReplicas: '50%' })] }),
      'spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"30%"}: maxReplicas sum of all subsets must equal 100% when type is specified as percent'],
    ['percent under 100 with an open last subset', workloadSpread({ subsets: [subset('a', { maxReplicas: '30%' }), subset('b')] }), ''],
    ['bad node term and toleration', workloadSpread({ subsets: [subset('a', { requiredNodeSelectorTerm: { matchExpressions: [{ key: 'z', operator: 'In' }] }, tolerations: [{ operator: 'Equal' }] })] }),
      '[spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\', spec.subsets[0].tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"]'],
    ['preferred weight', workloadSpread({ subsets: [subset('a', { preferredNodeSelectorTerms: [{ weight: 0, preference: {} }] })] }),
      'spec.subsets[0].preferredSchedulingTerms[0].weight: Invalid value: 0: must be in the range 1-100'],
    ['unknown strategy type', workloadSpread({ spec: { scheduleStrategy: { type: 'Smart' as 'Fixed' } } }), `spec.scheduleStrategy.type: Invalid value: "Smart": ScheduleStrategy's type is not valid`],
    ['adaptive needs type Adaptive', workloadSpread({ spec: { scheduleStrategy: { type: 'Fixed', adaptive: { rescheduleCriticalSeconds: 10 } } } }),
      "spec.scheduleStrategy.type: Invalid value: 10: the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy"],
    ['adaptive: last subset limited', workloadSpread({ subsets: [subset('a', { maxReplicas: 1 }), subset('b', { maxReplicas: 1 })], spec: { scheduleStrategy: { type: 'Adaptive', adaptive: {} } } }),
      'spec.scheduleStrategy.adaptive: Invalid value: null: the last subset must be not specified when using adaptive scheduleStrategy'],
    ['adaptive: too long for three subsets', workloadSpread({ subsets: [subset('a', { maxReplicas: 1 }), subset('b', { maxReplicas: 1 }), subset('c')], spec: { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 148 } } } }),
      'spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: Invalid value: 148: rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 147 is not permitted'],
    ['targetFilter selector', workloadSpread({ spec: { targetFilter: { selector: { matchExpressions: [{ key: 'a', operator: 'Bad' }] } } } }),
      'spec.targetFilter.selector.matchExpressions[0].operator: Invalid value: "Bad": not a valid selector operator'],
  ])('%s', (_name, ws, want) => {
    expect(render(ws)).toBe(want);
  });

  it('custom kinds from the whitelist are permitted', () => {
    const ws = workloadSpread({ targetRef: ref('example.com/v1', 'Rollout') });
    expect(render(ws, ctx({ whitelist: { workloads: [{ group: 'example.com', version: 'v1', kind: 'Rollout', subResources: [], replicasPath: '' }] } }))).toBe('');
  });

  it('conflicts with another WorkloadSpread on the same target (version ignored)', () => {
    const other = workloadSpread({ name: 'other', targetRef: ref('apps/v1beta1', 'Deployment', 'web') });
    expect(render(workloadSpread(), ctx({ others: [other] }))).toBe(
      'spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:"web"}: ws.spec.targetRef is in conflict with other WorkloadSpread other',
    );
  });

  it('targetRef is immutable', () => {
    expect(render(workloadSpread({ targetRef: ref('apps/v1', 'Deployment', 'api') }), ctx({ old: workloadSpread() }))).toMatch(/change TargetReference is not permitted for WorkloadSpread$/);
  });

  it('patches are validated against the target pod template', () => {
    const ws = workloadSpread({ subsets: [subset('a', { patch: { spec: { containers: [{ name: 'app', image: '' }] } } })] });
    const target = { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] } } } };
    expect(render(ws, ctx({ target }))).toBe('spec.subsets[0].patch.containers[0].image: Required value');
    // Without the target, what the patch alone breaks is still refused (patch-validation.test.ts).
    expect(render(ws)).toBe('spec.subsets[0].patch.containers[0].image: Required value');
  });

  it('seed 004: a patch of one container\'s resources is valid, with or without the target', () => {
    const ws = workloadSpread({ subsets: [subset('arm', { maxReplicas: 2, patch: { spec: { containers: [{ name: 'app', resources: { limits: { memory: '512Mi' } } }] } } }), subset('x86')] });
    const target = { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } } } };
    expect(render(ws, ctx({ target }))).toBe('');
    expect(render(ws)).toBe('');
  });
});
