import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { observeUnitedDeployments } from './observe.js';

const ud = (generation: number, observed: number): KubeObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment',
  metadata: { name: 'u', namespace: 'ns', uid: 'u-1', generation },
  spec: { template: { deploymentTemplate: {} } },
  status: { observedGeneration: observed },
});

function reader(uds: KubeObject[]): { kube: KubeReader; listed: string[] } {
  const listed: string[] = [];
  const kube: KubeReader = {
    list: async <T extends KubeObject>(apiVersion: string, kind: string) => {
      listed.push(`${apiVersion}/${kind}`);
      return { items: (kind === 'UnitedDeployment' ? uds : []) as T[], resourceVersion: '1' };
    },
    get: async () => {
      throw new Error('no get');
    },
  };
  return { kube, listed };
}
const one: Scope = { kind: 'objects', objects: [{ namespace: 'ns', name: 'u' }] };

describe('observeUnitedDeployments', () => {
  it('lists only the kind in use while the spec is unchanged since the status', async () => {
    const { kube, listed } = reader([ud(2, 2)]);
    await observeUnitedDeployments(kube, one);
    expect(listed.filter((k) => !['apps.kruise.io/v1alpha1/UnitedDeployment', 'v1/Pod', 'apps/v1/ControllerRevision'].includes(k))).toEqual(['apps/v1/Deployment']);
  });
  it('lists every subset kind after a spec change, and in a full run', async () => {
    for (const [uds, scope] of [[[ud(3, 2)], one], [[ud(2, 2)], { kind: 'all' }]] as const) {
      const { kube, listed } = reader([...uds]);
      await observeUnitedDeployments(kube, scope);
      expect(listed.filter((k) => !k.endsWith('UnitedDeployment') && (k.endsWith('StatefulSet') || k.endsWith('CloneSet') || k.endsWith('Deployment'))).sort()).toEqual(['apps.kruise.io/v1alpha1/CloneSet', 'apps.kruise.io/v1beta1/StatefulSet', 'apps/v1/Deployment', 'apps/v1/StatefulSet']);
    }
  });
});
