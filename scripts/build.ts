// `npm run build`: deployable bundles in dist/.
//   dist/worker/index.js   the Worker (wrangler deploy bundles functions/worker itself; this is for inspection)
//   dist/lambda/index.mjs  the Lambda webhook handler
//   dist/lambda/reconcile.mjs  the Lambda reconcile handler (infra/aws/template.yaml deploys both)
//   dist/cli.js            the kruise-serverless CLI (bin/kruise-serverless.js prefers it)
//   dist/node/server.mjs   the self-hosted webhook server (functions/node/server.ts), plain `node`
//   dist/node/cli.mjs      the CLI again, for the self-hosted reconcile loop (`node dist/node/cli.mjs reconcile`)
//   dist/node/*.mjs chunks: what both share. dist/node needs no node_modules (the Dockerfile copies only it).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../test/cluster/control-plane.js';
import { bundleWorker } from './local-worker.js';
import { buildLambdaBundles } from './lambda-bundle.js';
import { buildSelfHosted } from './node-bundle.js';

const dist = join(REPO_ROOT, 'dist');
mkdirSync(join(dist, 'worker'), { recursive: true });
const worker = await bundleWorker(undefined, true);
writeFileSync(join(dist, 'worker', 'index.js'), worker);
console.error(`dist/worker/index.js: ${worker.length} bytes, ${gzipSync(worker).length} gzipped`);

// Node bundles: ESM with a require shim for the CommonJS dependencies of @kubernetes/client-node,
// split so that client-node (only for kubeconfigs with exec or auth-provider users, see
// src/kube/kubeconfig.ts) is a chunk of its own, loaded only then: ~20 MB less resident memory.
const nodeBundle = { bundle: true, splitting: true, platform: 'node' as const, format: 'esm' as const, target: 'node20', logLevel: 'warning' as const,
  banner: { js: "import { createRequire as __ksCreateRequire } from 'node:module'; const require = __ksCreateRequire(import.meta.url);" } };
// The Lambda bundles: the settings `sam build` uses (infra/aws/template.yaml), in one file each.
await buildLambdaBundles(REPO_ROOT, join(dist, 'lambda'));
console.error('dist/lambda/index.mjs: handler "index.handler" (Node 22 runtime)');
console.error('dist/lambda/reconcile.mjs: handler "reconcile.handler" (EventBridge schedule and ObjectChanged events)');
await build({ ...nodeBundle, outdir: dist, entryPoints: { cli: join(REPO_ROOT, 'src', 'cli', 'main.ts') } });
console.error('dist/cli.js (and its chunks in dist/)');
await buildSelfHosted(REPO_ROOT, join(dist, 'node'));
console.error('dist/node/server.mjs, dist/node/cli.mjs (and their chunks in dist/node/)');
