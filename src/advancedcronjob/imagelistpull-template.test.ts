import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { defaultedAdvancedCronJob } from './defaults.js';
import type { AdvancedCronJobLike } from './types.js';
import { validateAdvancedCronJob } from './validate.js';

const ilpj = (spec: Record<string, unknown> = {}) => ({ spec: { images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: { type: 'Always' }, ...spec } });
function acj(template: unknown, extra: Record<string, unknown> = { concurrencyPolicy: 'Replace' }): AdvancedCronJobLike {
  return { metadata: { name: 'pull', namespace: 'ns' }, spec: { schedule: '0 * * * *', template: { imageListPullJobTemplate: template }, ...extra } as AdvancedCronJobLike['spec'] };
}
const msg = (a: AdvancedCronJobLike, old?: AdvancedCronJobLike) => {
  const errs = validateAdvancedCronJob(a, old);
  return errs.length ? formatFieldErrors(errs) : '';
};
const P = 'spec.template.imageListPullJobTemplate.spec';
const BCJ = { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } };
const withTemplate = (template: Record<string, unknown>): AdvancedCronJobLike => {
  const a = acj(ilpj());
  return { ...a, spec: { ...a.spec, template } } as AdvancedCronJobLike;
};

describe('imageListPullJobTemplate (v1beta1) validation, OpenKruise 1.9 messages', () => {
  it.each([
    ['a valid template', acj(ilpj()), ''],
    ['Forbid', acj(ilpj(), { concurrencyPolicy: 'Forbid' }), ''],
    ['Allow', acj(ilpj(), { concurrencyPolicy: 'Allow' }), 'spec.spec.concurrencyPolicy: Invalid value: "Allow": concurrencyPolicy should be Replace or Forbid, but current value is: Allow'],
    ['no images', acj(ilpj({ images: [] })), `${P}.images: Invalid value: []string{}: image can not be empty`],
    ['duplicate images', acj(ilpj({ images: ['a:1', 'a:1'] })), `${P}.images: Invalid value: []string{"a:1", "a:1"}: images cannot have duplicate values`],
    ['a bad image', acj(ilpj({ images: ['Bad Image'] })), `${P}.images: Invalid value: []string{"Bad Image"}: invalid image Bad Image:`],
    ['Never', acj(ilpj({ completionPolicy: { type: 'Never' } })), `${P}.completionPolicy.type: Invalid value: "Never": completionPolicy should be Always, but current value is: Never`],
    ['a deadline over a day', acj(ilpj({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 86401 } })), `${P}.completionPolicy.activeDeadlineSeconds: Invalid value: 86401: activeDeadlineSeconds must be less than 86400, current value is: 86401`],
    ['a deadline under the pull timeout', acj(ilpj({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 }, pullPolicy: { timeoutSeconds: 600 } })), `${P}.completionPolicy.activeDeadlineSeconds: Invalid value: 60: completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(600)`],
    ['a TTL', acj(ilpj({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 10 } })), `${P}.completionPolicy.ttlSecondsAfterFinished: Invalid value: 10: ttlSecondsAfterFinished is not supported in advancedCronJob`],
    ['names and a label selector', acj(ilpj({ selector: { names: ['n1'], matchLabels: { a: 'b' } } })), `${P}.selector: Invalid value:`],
    ['duplicated names', acj(ilpj({ selector: { names: ['n1', 'n1'] } })), `${P}.selector.names: Invalid value: []string{"n1", "n1"}: duplicated name in selector names`],
    ['with another template', withTemplate({ imageListPullJobTemplate: ilpj(), broadcastJobTemplate: BCJ }), 'spec.template: Forbidden: spec can have only one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided'],
  ])('%s', (_name, a, want) => {
    if (want) expect(msg(a)).toContain(want);
    else expect(msg(a)).toBe('');
  });

  it('an UPDATE may change the imageListPullJobTemplate, not the kind of template', () => {
    expect(msg(acj(ilpj({ images: ['redis:7'] })), acj(ilpj()))).toBe('');
    expect(msg(withTemplate({ broadcastJobTemplate: BCJ }), acj(ilpj()))).toContain("spec: Forbidden: updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate'");
  });
});

describe('imageListPullJobTemplate defaults', () => {
  it('Always with a 600 s timeout, 3 retries and IfNotPresent; concurrencyPolicy Replace', () => {
    const d = defaultedAdvancedCronJob(acj({ spec: { images: ['a:1'] } }, {}), true);
    expect(d.spec.concurrencyPolicy).toBe('Replace');
    expect(d.spec.template?.imageListPullJobTemplate).toEqual({ spec: { images: ['a:1'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' } });
  });

  it('a template with a completion type set is left alone, and an explicit policy kept', () => {
    const d = defaultedAdvancedCronJob(acj(ilpj(), { concurrencyPolicy: 'Forbid' }), true);
    expect(d.spec.concurrencyPolicy).toBe('Forbid');
    expect(d.spec.template?.imageListPullJobTemplate).toEqual(ilpj());
  });
});
