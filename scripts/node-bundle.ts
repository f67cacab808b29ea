// The self-hosted bundle (dist/node): the webhook server and the CLI (for `reconcile`) as ESM for
// plain `node`, every dependency bundled, with a require shim for the CommonJS ones; split so that
// client-node (only for kubeconfigs with exec or auth-provider users, see src/kube/kubeconfig.ts)
// is a chunk of its own, loaded only then. .mjs, so that it runs without a package.json.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export async function buildSelfHosted(repoRoot: string, outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    banner: { js: "import { createRequire as __ksCreateRequire } from 'node:module'; const require = __ksCreateRequire(import.meta.url);" },
    outdir, outExtension: { '.js': '.mjs' }, chunkNames: 'chunks/[name]-[hash]',
    entryPoints: { server: join(repoRoot, 'functions', 'node', 'server.ts'), cli: join(repoRoot, 'src', 'cli', 'main.ts') },
  });
}
