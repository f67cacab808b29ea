// The Worker bundles this feature through src/registry.ts: its entry must reach no node: module
// (the reconciler, which does, is imported from ./reconciler.ts by the Node and Lambda entries).
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webhookEndpoints } from '../registry.js';
import { resourceDistributionFeature } from './index.js';
import { resourceDistributionReconciler } from './reconciler.js';

describe('resourcedistribution feature', () => {
  it('bundles for the Worker without node: imports', async () => {
    const out = await build({
      entryPoints: [join(import.meta.dirname, 'index.ts')], bundle: true, format: 'esm', platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], write: false, metafile: true, logLevel: 'silent',
    });
    const imports = Object.values(out.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports.filter((p) => p.startsWith('node:'))).toEqual([]);
  });

  it('registers the validating handler on validate-kruise for ResourceDistribution CREATE and UPDATE', () => {
    const [endpoint] = webhookEndpoints([resourceDistributionFeature]);
    expect(endpoint?.path).toBe('validate-kruise');
    expect(endpoint?.handlers.map((h) => [h.feature, h.match])).toEqual([
      ['resourcedistribution', { group: 'apps.kruise.io', kind: 'ResourceDistribution', subResource: '', operations: ['CREATE', 'UPDATE'] }],
    ]);
    expect(endpoint?.handlers[0]?.needs).toBeUndefined();
  });

  it('wires the reconciler', () => {
    expect(resourceDistributionReconciler).toMatchObject({ kind: 'ResourceDistribution', apiVersion: 'apps.kruise.io/v1alpha1', triggers: [{ apiVersion: 'v1', kind: 'Namespace' }] });
  });
});
