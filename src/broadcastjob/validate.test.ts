import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { defaultedBroadcastJob, sameTemplate } from './defaults.js';
import type { BroadcastJobLike } from './types.js';
import { validateBroadcastJob } from './validate.js';

const job = (spec: Partial<BroadcastJobLike['spec']> = {}, name = 'bcj', podSpec: Record<string, unknown> = { restartPolicy: 'Never' }, labels?: Record<string, string>): BroadcastJobLike => ({
  metadata: { name, namespace: 'ns' },
  spec: { template: { ...(labels ? { metadata: { labels } } : {}), spec: { containers: [{ name: 'main', image: 'busybox' }], ...podSpec } }, ...spec },
});

describe('validateBroadcastJob', () => {
  it.each([
    ['valid', job(), ''],
    ['a name with a dot', job({}, 'a.b'), `metadata.name: Invalid value: "a.b": BroadcastJob name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')`],
    ['a name over 63', job({}, 'a'.repeat(64)), `metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`],
    ['Never with a TTL and a deadline', job({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 30, activeDeadlineSeconds: 10 } }),
      '[spec.completionPolicy.ttlSecondsAfterFinished: Invalid value: 30: ttlSecondsAfterFinished can just work with Always CompletionPolicyType, spec.completionPolicy.activeDeadlineSeconds: Invalid value: 10: activeDeadlineSeconds can just work with Always CompletionPolicyType]'],
    ['Always with both', job({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30, activeDeadlineSeconds: 10 } }), ''],
    ['restartPolicy Always', job({}, 'bcj', { restartPolicy: 'Always' }), 'spec.template.spec.restartPolicy: Invalid value: "Always": pod restartPolicy can only be Never or OnFailure'],
    ['restartPolicy unset: defaulted to Always, refused', job({}, 'bcj', {}), 'spec.template.spec.restartPolicy: Invalid value: "Always": pod restartPolicy can only be Never or OnFailure'],
    ['OnFailure', job({}, 'bcj', { restartPolicy: 'OnFailure' }), ''],
    ['preset job labels', job({}, 'bcj', { restartPolicy: 'Never' }, { 'broadcastjob-name': 'x' }),
      'spec.template.metadata.labels: Invalid value: map[string]string{"broadcastjob-name":"x"}: "broadcastjob-name" and "broadcastjob-controller-uid" are not allowed to preset in pod labels'],
    ['no containers', { metadata: { name: 'bcj' }, spec: { template: { spec: { restartPolicy: 'Never' } } } }, 'spec.template.spec.containers: Required value'],
  ])('%s', (_name, j, want) => {
    const errs = validateBroadcastJob(j);
    expect(errs.length ? formatFieldErrors(errs) : '').toBe(want);
  });
});

describe('defaultedBroadcastJob', () => {
  it('completionPolicy Always, parallelism int32 max, failurePolicy FailFast; the template only when asked', () => {
    const d = defaultedBroadcastJob(job({}, 'bcj', {}));
    expect(d.spec).toMatchObject({ completionPolicy: { type: 'Always' }, parallelism: 2147483647, failurePolicy: { type: 'FailFast' } });
    expect(d.spec.template?.spec).toEqual({ containers: [{ name: 'main', image: 'busybox' }] });
    const t = defaultedBroadcastJob(job({ parallelism: '50%', completionPolicy: { type: 'Never' }, failurePolicy: { type: 'Pause', restartLimit: 2 } }), { template: true });
    expect(t.spec).toMatchObject({ parallelism: '50%', completionPolicy: { type: 'Never' }, failurePolicy: { type: 'Pause', restartLimit: 2 } });
    expect(t.spec.template?.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30, containers: [{ imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' }] });
  });

  it('sameTemplate ignores key order and empty fields', () => {
    expect(sameTemplate({ spec: { a: 1, b: null } }, { spec: { a: 1 } })).toBe(true);
    expect(sameTemplate({ spec: { a: 1 } }, { spec: { a: 2 } })).toBe(false);
  });
});
