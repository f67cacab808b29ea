// A production Worker cannot reach a cluster's API server (private CA, no raw IPs; Miniflare
// would let it, production would not). So nothing the Worker bundles may be a Kubernetes client
// or Node networking: it decides only from the review and pushed state. Nor does it carry the
// reconcilers, which run on Node and Lambda only (src/reconcilers.ts, kept apart from src/registry.ts).
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKER_ENTRY } from '../../scripts/local-worker.js';

describe('the Worker bundle', () => {
  it('contains no Kubernetes client, no Node networking and no reconciler', async () => {
    const out = await build({
      entryPoints: [WORKER_ENTRY], bundle: true, format: 'esm', platform: 'neutral', conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'], write: false, metafile: true, logLevel: 'silent',
    });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((i) => i.includes('@kubernetes/client-node') || i.includes('/src/kube/') || i.includes('undici'))).toEqual([]);
    expect(inputs.filter((i) => /(^|\/)(reconciler|reconcilers|runner)\.ts$/.test(i))).toEqual([]);
    const imports = Object.values(out.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports.filter((p) => p.startsWith('node:') || ['http', 'https', 'net', 'tls'].includes(p))).toEqual([]);
    expect(inputs).toContain(join('functions', 'worker', 'index.ts'));
  });
});
