import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { pub } from './test-builders.js';
import type { PodUnavailableBudget } from './types.js';
import { validatePodUnavailableBudget } from './validate.js';

const sel = { selector: { matchLabels: { app: 'web' } } };
const ref = { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } };
const messages = (p: PodUnavailableBudget, others: PodUnavailableBudget[] = [], old?: PodUnavailableBudget) => {
  const errs = validatePodUnavailableBudget(p, others, old);
  return errs.length ? formatFieldErrors(errs) : '';
};

describe('validatePodUnavailableBudget', () => {
  it.each([
    ['selector + maxUnavailable', pub('a', { ...sel, maxUnavailable: 1 }), ''],
    ['targetRef + minAvailable %', pub('a', { ...ref, minAvailable: '50%' }), ''],
    ['neither selection', pub('a', { maxUnavailable: 1 }), 'spec.selector, targetRef: Required value: no selector or targetRef defined in PodUnavailableBudget'],
    ['both selections', pub('a', { ...sel, ...ref, maxUnavailable: 1 }), 'spec.selector, targetRef: Required value: selector and targetRef are mutually exclusive'],
    ['empty targetRef', pub('a', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment' }, maxUnavailable: 1 }),
      'spec.TargetReference: Invalid value: v1alpha1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:""}: empty TargetReference is not valid for PodUnavailableBudget.'],
    ['bad apiVersion', pub('a', { targetRef: { apiVersion: 'a/b/c', kind: 'X', name: 'y' }, maxUnavailable: 1 }),
      'spec.TargetReference: Invalid value: v1alpha1.TargetReference{APIVersion:"a/b/c", Kind:"X", Name:"y"}: unexpected GroupVersion string: a/b/c'],
    ['empty selector', pub('a', { selector: {}, maxUnavailable: 1 }), 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for PodUnavailableBudget.'],
    ['neither availability', pub('a', { ...sel }), 'spec.maxUnavailable, minAvailable: Required value: no maxUnavailable or minAvailable defined in PodUnavailableBudget'],
    ['both availabilities', pub('a', { ...sel, maxUnavailable: 1, minAvailable: 1 }), 'spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually exclusive'],
    ['negative', pub('a', { ...sel, maxUnavailable: -1 }), 'spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0'],
    ['over 100%', pub('a', { ...sel, minAvailable: '101%' }), 'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%'],
    ['not a percent', pub('a', { ...sel, maxUnavailable: 'half' }), `spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`],
    ['bad operations', pub('a', { ...sel, maxUnavailable: 1 }, { annotations: { 'kruise.io/pub-protect-operations': 'DELETE,evict' } }), 'metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid'],
    ['operations are not trimmed', pub('a', { ...sel, maxUnavailable: 1 }, { annotations: { 'kruise.io/pub-protect-operations': 'DELETE, EVICT' } }), 'metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid'],
    ['good operations', pub('a', { ...sel, maxUnavailable: 1 }, { annotations: { 'kruise.io/pub-protect-operations': 'UPDATE,DELETE,EVICT' } }), ''],
    ['bad total replicas', pub('a', { ...sel, maxUnavailable: 1 }, { annotations: { 'pub.kruise.io/protect-total-replicas': '3000000000' } }), 'metadata: Internal error: annotation[pub.kruise.io/protect-total-replicas] is invalid'],
  ])('%s', (_name, p, want) => {
    expect(messages(p)).toBe(want);
  });

  it('selection is immutable', () => {
    const old = pub('a', { ...sel, maxUnavailable: 1 });
    expect(messages(pub('a', { selector: { matchLabels: { app: 'api' } }, maxUnavailable: 2 }), [], old)).toBe(
      'spec.selector, targetRef: Required value: selector and targetRef cannot be modified',
    );
    expect(messages(pub('a', { ...sel, maxUnavailable: 3 }), [], old)).toBe('');
  });

  it.each([
    ['same targetRef (group, kind, name)', pub('a', { ...ref, maxUnavailable: 1 }), pub('b', { targetRef: { apiVersion: 'apps/v1beta1', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 }),
      'spec.targetReference: Invalid value: v1alpha1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:"web"}: pub.spec.targetReference is in conflict with other PodUnavailableBudget b'],
    ['overlapping selectors', pub('a', { ...sel, maxUnavailable: 1 }), pub('b', { selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, maxUnavailable: 1 }),
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: pub.spec.selector is in conflict with other PodUnavailableBudget b'],
    ['selector vs targetRef never compared', pub('a', { ...sel, maxUnavailable: 1 }), pub('b', { ...ref, maxUnavailable: 1 }), ''],
    ['itself is skipped', pub('a', { ...sel, maxUnavailable: 1 }), pub('a', { ...sel, maxUnavailable: 1 }), ''],
    ['other namespace is skipped', pub('a', { ...sel, maxUnavailable: 1 }), pub('b', { ...sel, maxUnavailable: 1 }, { ns: 'other' }), ''],
  ])('conflict: %s', (_name, p, other, want) => {
    expect(messages(p, [other])).toBe(want);
  });
});
