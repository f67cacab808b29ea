import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { defaultedAdvancedCronJob } from './defaults.js';
import type { AdvancedCronJobLike } from './types.js';
import { validateAdvancedCronJob } from './validate.js';

const POD = { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } };
function acj(spec: Record<string, unknown> = {}, name = 'acj-test'): AdvancedCronJobLike {
  return { metadata: { name, namespace: 'ns' }, spec: { schedule: '*/1 * * * *', template: { broadcastJobTemplate: { spec: POD } }, ...spec } as AdvancedCronJobLike['spec'] };
}
const msg = (a: AdvancedCronJobLike, old?: AdvancedCronJobLike) => {
  const errs = validateAdvancedCronJob(a, old);
  return errs.length ? formatFieldErrors(errs) : '';
};

describe('validateAdvancedCronJob (OpenKruise messages)', () => {
  it.each([
    ['seed 002 example', acj(), ''],
    ['a jobTemplate', acj({ template: { jobTemplate: { spec: POD } } }), ''],
    ['@hourly with a zone', acj({ schedule: '@hourly', timeZone: 'Asia/Shanghai' }), ''],
    ['empty schedule', acj({ schedule: '' }), 'spec.schedule: Invalid value: "": schedule cannot be empty'],
    ['six fields', acj({ schedule: '0 * * * * *' }), 'spec.schedule: Invalid value: "0 * * * * *": expected exactly 5 fields, found 6'],
    ['croner-only L', acj({ schedule: '0 0 L * *' }), 'spec.schedule: Invalid value: "0 0 L * *"'],
    ['TZ with timeZone', acj({ schedule: 'TZ=UTC * * * * *', timeZone: 'UTC' }), 'cannot use both timeZone field and TZ or CRON_TZ in schedule'],
    ['unknown zone', acj({ timeZone: 'Mars/Olympus' }), 'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
    ['empty zone', acj({ timeZone: '' }), 'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'],
    ['Local', acj({ timeZone: 'Local' }), 'timeZone must be an explicit time zone'],
    ['no template', acj({ template: {} }), 'spec.template: Forbidden: spec must have one template'],
    ['two templates', acj({ template: { jobTemplate: { spec: POD }, broadcastJobTemplate: { spec: POD } } }), 'spec.template: Forbidden: spec can have only one template'],
    ['negative deadline', acj({ startingDeadlineSeconds: -1 }), 'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0'],
    ['negative history', acj({ successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2 }), 'spec.failedJobsHistoryLimit: Invalid value: -2'],
    ['a container without image', acj({ template: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c' }] } } } } } }), 'spec.template.spec.containers[0].image: Required value'],
    ['bad name', acj({}, 'a_b'), 'metadata.name: Invalid value: "a_b"'],
  ])('%s', (_n, a, want) => {
    if (want === '') expect(msg(a)).toBe('');
    else expect(msg(a)).toContain(want);
  });

  it('UPDATE: the scheduling fields may change, the template may not', () => {
    const old = defaultedAdvancedCronJob(acj(), true);
    const changed = structuredClone(old);
    Object.assign(changed.spec, { schedule: '*/5 * * * *', paused: true, concurrencyPolicy: 'Forbid', timeZone: 'UTC', startingDeadlineSeconds: 30, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 });
    expect(msg(changed, old)).toBe('');
    const template = structuredClone(old);
    template.spec.template = { jobTemplate: { spec: POD } };
    expect(msg(template, old)).toContain("spec: Forbidden: updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule'");
  });
});

describe('defaultedAdvancedCronJob', () => {
  it('sets OpenKruise’s defaults and defaults the pod template', () => {
    const d = defaultedAdvancedCronJob(acj(), true);
    expect(d.spec).toMatchObject({ concurrencyPolicy: 'Allow', paused: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    const pod = (d.spec.template?.broadcastJobTemplate?.spec?.template as unknown as { spec: Record<string, unknown> }).spec;
    expect(pod).toMatchObject({ dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30, restartPolicy: 'Never' });
  });
  it('keeps what is set, and leaves the template alone when asked to', () => {
    const d = defaultedAdvancedCronJob(acj({ concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 0 }), false);
    expect(d.spec).toMatchObject({ concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 0 });
    expect((d.spec.template?.broadcastJobTemplate?.spec?.template as unknown as { spec: Record<string, unknown> }).spec.dnsPolicy).toBeUndefined();
  });
});
