import { describe, expect, it } from 'vitest';
import { reconcilersFromEnv } from './reconcilers.js';

describe('reconcilersFromEnv', () => {
  it('lists one reconciler per kind, PUB before the controllers that ask its budgets', () => {
    expect(reconcilersFromEnv({}).map((r) => r.kind)).toEqual([
      'ResourceDistribution', 'PodUnavailableBudget', 'WorkloadSpread', 'SidecarSet', 'CloneSet', 'StatefulSet',
      'DaemonSet', 'BroadcastJob', 'AdvancedCronJob', 'UnitedDeployment', 'ImagePullJob', 'ImageListPullJob', 'Pod', 'PersistentPodState', 'PodProbeMarker', 'EphemeralJob',
    ]);
  });

  it('refuses a feature gate $KS_FEATURE_GATES does not know', () => {
    expect(() => reconcilersFromEnv({ KS_FEATURE_GATES: 'Nope=true' })).toThrow(/unknown feature gate "Nope"/);
  });
});
