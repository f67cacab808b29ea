import { describe, expect, it } from 'vitest';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import { webhookEndpoints } from '../registry.js';
import { owningCronJob } from './controller/reconciler.js';
import { advancedCronJobFeature, owningCronJobOf } from './index.js';

const owned = (kind = 'AdvancedCronJob', apiVersion = 'apps.kruise.io/v1alpha1', controller = true) => ({
  metadata: { name: 'acj-test-1', namespace: 'ns', ownerReferences: [{ apiVersion, kind, name: 'acj-test', uid: 'u', controller }] },
});
const admitted = (group: string, kind: string, object: unknown): AdmittedRequest => ({ namespace: 'ns', group, kind, subResource: 'status', operation: 'UPDATE', object, dryRun: false });

describe('a child → its AdvancedCronJob', () => {
  it.each([
    ['a Job it controls', admitted('batch', 'Job', owned()), ['acj-test']],
    ['a BroadcastJob it controls', admitted('apps.kruise.io', 'BroadcastJob', owned()), ['acj-test']],
    ['a Job a CronJob controls', admitted('batch', 'Job', owned('CronJob', 'batch/v1')), []],
    ['not the controller', admitted('batch', 'Job', owned('AdvancedCronJob', 'apps.kruise.io/v1alpha1', false)), []],
    ['a pod', admitted('', 'Pod', owned()), []],
  ])('%s (edge)', (_n, a, want) => {
    expect(owningCronJobOf(a).map((o) => o.name)).toEqual(want);
  });

  it('the Node loop trigger maps the same way', () => {
    expect(owningCronJob({ apiVersion: 'batch/v1', kind: 'Job', ...owned() })).toEqual([{ namespace: 'ns', name: 'acj-test' }]);
    expect(owningCronJob({ apiVersion: 'batch/v1', kind: 'Job', ...owned('CronJob', 'batch/v1') })).toEqual([]);
  });

  it('registers its webhooks and the job status observer', () => {
    const paths = webhookEndpoints([advancedCronJobFeature]).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['mutate-advancedcronjob', 'validate-kruise', 'observe-job-status']));
  });
});
