import { describe, expect, it } from 'vitest';
import { defaultedStatefulSet, type StatefulSetLike } from './defaults.js';

const base = (spec: Record<string, unknown> = {}): StatefulSetLike => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } }, ...spec },
});
const specOf = (spec: Record<string, unknown>, opts?: { template?: boolean }) => defaultedStatefulSet(base(spec), opts).spec;

describe('defaultedStatefulSet', () => {
  it('fills OpenKruise’s spec defaults', () => {
    expect(specOf({})).toEqual({
      ...base().spec,
      replicas: 1,
      revisionHistoryLimit: 10,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['keeps what is set', { replicas: 0, revisionHistoryLimit: 0, podManagementPolicy: 'Parallel' }, { replicas: 0, revisionHistoryLimit: 0, podManagementPolicy: 'Parallel' }],
    ['fills a partly set rollingUpdate', { updateStrategy: { rollingUpdate: { partition: 2, podUpdatePolicy: 'InPlaceIfPossible' } } },
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 1, podUpdatePolicy: 'InPlaceIfPossible', minReadySeconds: 0 } } }],
    ['leaves OnDelete without rollingUpdate', { updateStrategy: { type: 'OnDelete' } }, { updateStrategy: { type: 'OnDelete' } }],
    ['fills a partly set retention policy', { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } }, { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } }],
    ['treats null and empty strings as unset', { replicas: null, podManagementPolicy: '', updateStrategy: { type: '', rollingUpdate: null } },
      { replicas: 1, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } } }],
    ['leaves a field of the wrong type for the schema check', { updateStrategy: 'fast', persistentVolumeClaimRetentionPolicy: [] }, { updateStrategy: 'fast', persistentVolumeClaimRetentionPolicy: [] }],
  ])('%s', (_name, spec, want) => {
    expect(specOf(spec)).toMatchObject(want);
  });

  it('does not add the InPlaceUpdateReady readiness gate (OpenKruise requires it instead)', () => {
    const spec = specOf({ updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } } }, { template: true });
    expect((spec.template as { spec: Record<string, unknown> }).spec.readinessGates).toBeUndefined();
  });

  it('with `template`: the pod template’s defaults (imagePullPolicy Always) and the claim templates’', () => {
    const spec = specOf({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] }, { template: true });
    expect(spec.template).toMatchObject({ spec: { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30, containers: [{ imagePullPolicy: 'Always' }] } });
    // SetDefaults_PersistentVolumeClaim sets the phase only: no volumeMode.
    expect(spec.volumeClaimTemplates).toEqual([{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } }]);
  });

  it('without `template`: the template is untouched', () => {
    expect(specOf({}).template).toEqual(base().spec.template);
  });

  it('does not change its input', () => {
    const input = Object.freeze(base());
    defaultedStatefulSet(input, { template: true });
    expect(input.spec).toEqual(base().spec);
  });
});
