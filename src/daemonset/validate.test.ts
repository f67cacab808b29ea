import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import type { DaemonSetLike } from './types.js';
import { validateDaemonSet } from './validate.js';

const base = (rollingUpdate: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): DaemonSetLike => ({
  metadata: { name: 'agent' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate },
    ...extra,
  },
});
const errors = (ds: DaemonSetLike, old?: DaemonSetLike) => {
  const errs = validateDaemonSet(ds, old);
  return errs.length ? formatFieldErrors(errs) : '';
};

describe('validateDaemonSet', () => {
  it.each([
    ['defaults are valid', base(), ''],
    ['Surging defaults to maxSurge 1', base({ rollingUpdateType: 'Surging' }), ''],
    ['both zero', base({ maxUnavailable: 0, maxSurge: 0 }), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ['both set', base({ maxUnavailable: 1, maxSurge: '10%' }), 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero'],
    ['surge with InPlaceIfPossible', base({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 0, maxSurge: 1 }), 'spec.updateStrategy.rollingUpdate.maxSurge: Required value: must be 0 for InPlaceIfPossible type'],
    ['unknown type', base({ rollingUpdateType: 'Fast' }), 'spec.updateStrategy.rollingUpdate.rollingUpdate.type: Unsupported value: "Fast": supported values: "Standard", "Surging", "InPlaceIfPossible"'],
    ['over 100%', base({ maxUnavailable: '120%' }), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%'],
    ['negative partition', base({ partition: -1 }), 'spec.updateStrategy.rollingUpdate.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ['a string that is no number counts as 0', base({ maxUnavailable: 'abc' }), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ['unknown strategy', { ...base(), spec: { ...base().spec, updateStrategy: { type: 'Never' } } }, 'spec.updateStrategy: Unsupported value: v1alpha1.DaemonSetUpdateStrategy{Type:"Never", RollingUpdate:(*v1alpha1.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"'],
    ['OnDelete', { ...base(), spec: { ...base().spec, updateStrategy: { type: 'OnDelete' } } }, ''],
    ['inPlaceUpdate hook', base({}, { lifecycle: { inPlaceUpdate: { labelsHandler: { a: 'b' } } } }), 'spec.lifecycle.inPlaceUpdate: Forbidden: inPlaceUpdate hook has not supported yet'],
    ['negative minReadySeconds', base({}, { minReadySeconds: -1 }), 'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'],
    ['empty selector', base({}, { selector: {} }), 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset'],
  ])('%s', (_name, ds, want) => {
    expect(errors(ds)).toBe(want);
  });

  it('restartPolicy and activeDeadlineSeconds', () => {
    const ds = base();
    ds.spec.template!.spec = { ...ds.spec.template!.spec, restartPolicy: 'Never', activeDeadlineSeconds: 5 };
    expect(errors(ds)).toBe('[spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported]');
  });

  it('on update: the selector is fixed; template, strategy, lifecycle, burst, minReady and history may change', () => {
    const changed = base({ partition: 2 }, { minReadySeconds: 5, burstReplicas: 10, revisionHistoryLimit: 3 });
    expect(errors(changed, base())).toBe('');
    const selector = base();
    selector.spec.selector = { matchLabels: { app: 'agent', tier: 'x' } };
    selector.spec.template!.metadata!.labels = { app: 'agent', tier: 'x' };
    expect(errors(selector, base())).toBe("spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle',  'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden");
  });
});
