// Renders infra/crds/*.yaml from src/api (the single source of truth).
//   npm run gen:crds                 render from the committed core-openapi.json snapshot
//   npm run gen:crds -- --snapshot   first refresh the snapshot from a real API server's /openapi/v2
//                                    ($KUBECONFIG, or the local control plane "dev")
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_KINDS } from '../src/api/index.js';
import { coreReferences, type CoreDefinitions, type JsonSchema } from '../src/api/crd.js';
import { crdFileName, renderCrdYaml } from '../src/api/crd-files.js';
import { REPO_ROOT, binDir, startControlPlane } from '../test/cluster/control-plane.js';

const SNAPSHOT = join(REPO_ROOT, 'src', 'api', 'core-openapi.json');
const CRD_DIR = join(REPO_ROOT, 'infra', 'crds');

function stripDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripDescriptions);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as JsonSchema)
      .filter(([k]) => k !== 'description')
      .map(([k, v]) => [k, stripDescriptions(v)]),
  );
}

async function snapshot(): Promise<void> {
  const kubeconfig = process.env.KUBECONFIG ?? (await startControlPlane('dev', console.error)).kubeconfig;
  const raw = execFileSync(join(binDir(), 'kubectl'), ['get', '--raw', '/openapi/v2'], {
    env: { ...process.env, KUBECONFIG: kubeconfig },
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
  const all = (JSON.parse(raw) as { definitions: CoreDefinitions }).definitions;
  const wanted = new Set<string>();
  for (const kind of ALL_KINDS) {
    coreReferences(kind.spec, all, wanted);
    coreReferences(kind.status, all, wanted);
  }
  const picked: CoreDefinitions = {};
  for (const name of [...wanted].sort()) {
    if (!all[name]) throw new Error(`API server has no definition ${name}`);
    picked[name] = stripDescriptions(all[name]) as JsonSchema;
  }
  writeFileSync(SNAPSHOT, JSON.stringify(picked, null, 1) + '\n');
  console.error(`wrote ${Object.keys(picked).length} core definitions to ${SNAPSHOT}`);
}

if (process.argv.includes('--snapshot')) await snapshot();
const defs = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as CoreDefinitions;
for (const f of readdirSync(CRD_DIR)) if (f.endsWith('.yaml')) rmSync(join(CRD_DIR, f));
for (const kind of ALL_KINDS) {
  writeFileSync(join(CRD_DIR, crdFileName(kind)), renderCrdYaml(kind, defs));
}
console.error(`wrote ${ALL_KINDS.length} CRDs to ${CRD_DIR}`);
