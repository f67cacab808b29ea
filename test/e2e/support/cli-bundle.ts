// bin/kruise-serverless.js runs dist/cli.js when there is one: e2e tests that run the CLI as users
// do build it from this source first (as `npm run build` does), so they never run a stale bundle.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '../../cluster/control-plane.js';

export async function buildCliBundle(): Promise<void> {
  const out = join(REPO_ROOT, 'dist', 'cli.js');
  await build({
    entryPoints: [join(REPO_ROOT, 'src', 'cli', 'main.ts')], outfile: `${out}.${process.pid}`, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    banner: { js: "import { createRequire as __ksCreateRequire } from 'node:module'; const require = __ksCreateRequire(import.meta.url);" },
  });
  renameSync(`${out}.${process.pid}`, out);
}
