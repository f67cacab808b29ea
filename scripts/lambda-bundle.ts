// The esbuild settings of the two Lambda bundles, shared by `npm run build` (scripts/build.ts) and
// checked against the `sam build` Metadata of infra/aws/template.yaml (template.test.ts), so a
// local build is the code `sam build` deploys.
import { build } from 'esbuild';
import { join } from 'node:path';
/** Handler file (dist/lambda/<name>.mjs) → its source. */
export const LAMBDA_ENTRIES = { index: 'functions/lambda/index.ts', reconcile: 'functions/lambda/reconcile.ts' } as const;

/** The Node 22 runtime ships AWS SDK for JavaScript v3: it is not bundled. */
export const LAMBDA_EXTERNAL = ['@aws-sdk/*'];
export const LAMBDA_TARGET = 'node22';
/** ESM, with a require shim for the CommonJS dependencies of @kubernetes/client-node. */
export const LAMBDA_BANNER = "import { createRequire as __ksCreateRequire } from 'node:module'; const require = __ksCreateRequire(import.meta.url);";

/** Bundles both handlers to <outdir>/<name>.mjs. Without the SDK inside, outdir must be where Node finds @aws-sdk (the runtime has it). */
export async function buildLambdaBundles(repoRoot: string, outdir: string): Promise<void> {
  await build({
    bundle: true, platform: 'node', format: 'esm', target: LAMBDA_TARGET, logLevel: 'warning', external: LAMBDA_EXTERNAL, banner: { js: LAMBDA_BANNER },
    outdir, outExtension: { '.js': '.mjs' },
    entryPoints: Object.fromEntries(Object.entries(LAMBDA_ENTRIES).map(([name, src]) => [name, join(repoRoot, src)])),
  });
}
