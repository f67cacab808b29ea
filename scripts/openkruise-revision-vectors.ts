// Runs OpenKruise 1.9's own revision code with Go, and writes the takeover fixtures
// (test/e2e/fixtures/takeover/*.json): for each input object, the ControllerRevision OpenKruise
// creates (name, labels, annotations, data bytes) and the labels and annotations it puts on pods.
//
// It builds a scratch Go module, offline, from the mirrors:
// - k8s.io/apimachinery v0.32.10: pkg/api/resource, pkg/util/intstr, pkg/util/rand, pkg/util/dump,
//   pkg/types/uid.go and meta/v1's time.go, micro_time.go, duration.go copied whole; the
//   meta/v1 types.go declarations the pod template reaches, verbatim. cbor and klog are stubs
//   (never called: JSON only).
// - k8s.io/api v0.32.10 core/v1 types.go: every declaration PodTemplateSpec, Container and
//   PersistentVolumeClaim reach, verbatim, in package `v1` at its real import path — go-spew's
//   `%#v` (k8s DeepHashObject) prints type and package names and walks fields in order.
// - OpenKruise v1.9.0 apis/apps/v1alpha1: the declarations SidecarContainer reaches, verbatim.
// - github.com/davecgh/go-spew at d8f796a (OpenKruise's go.mod pin) and gopkg.in/inf.v0 v0.9.1.
// main.go then holds, as in OpenKruise and Kubernetes: getPatch (CloneSet, Advanced StatefulSet,
// Advanced DaemonSet), history.NewControllerRevision / HashControllerRevision, DaemonSet's
// snapshot naming with controller.ComputeHash, SidecarSetHash / SidecarSetHashWithoutImage, and
// PatchVCTemplateHash. Only `spec.template` of a workload reaches getPatch's output, so the
// workload structs wrap a verbatim v1.PodTemplateSpec (and the claims).
//
// Before writing anything it checks itself on OpenKruise's own vectors: the tutorial CloneSet
// (docs/tutorial/cloneset.md: guestbook-clone-64598d67b, then 56dfcdfff9), the SidecarSet hashes
// of pkg/control/sidecarcontrol/hash_test.go, and the claim-template hashes of
// pkg/util/volumeclaimtemplate/volume_templates_hash_test.go.
//
// Rerun (needs `go` 1.19+, no network; the mirrors are bare git repositories):
//   npx tsx scripts/openkruise-revision-vectors.ts
// Inputs: scripts/openkruise-revision-inputs.json, written by `node scripts/openkruise-revision-inputs.mjs
// scripts/openkruise-revision-inputs.json`. It also writes src/kube/go-spew-pod-template-types.ts.
// Paths can be overridden with KS_MIRROR_KRUISE, KS_MIRROR_K8S_API, KS_MIRROR_APIMACHINERY,
// KS_MIRROR_GO_SPEW, KS_MIRROR_INF (defaults under /work/.mirror). Inputs are
// scripts/openkruise-revision-inputs.json; outputs are written to test/e2e/fixtures/takeover/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const mirror = (env: string, name: string) => process.env[env] ?? `/work/.mirror/${name}/repo`;
const KRUISE = mirror('KS_MIRROR_KRUISE', 'openkruise+kruise');
const K8S_API = mirror('KS_MIRROR_K8S_API', 'kubernetes+api');
const APIMACHINERY = mirror('KS_MIRROR_APIMACHINERY', 'kubernetes+apimachinery');
const GO_SPEW = mirror('KS_MIRROR_GO_SPEW', 'davecgh+go-spew');
const INF = mirror('KS_MIRROR_INF', 'go-inf+inf');
const K8S_VERSION = 'v0.32.10';
const KRUISE_VERSION = 'v1.9.0';
const SPEW_COMMIT = 'd8f796af33cc';
const INF_VERSION = 'v0.9.1';

const show = (repo: string, rev: string, path: string): string => execFileSync('git', ['-C', repo, 'show', `${rev}:${path}`], { maxBuffer: 64 << 20 }).toString();

const dir = mkdtempSync(join(tmpdir(), 'ok-revisions-'));
const file = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const archive = (repo: string, rev: string, to: string, paths: string[] = []) => {
  mkdirSync(join(dir, to), { recursive: true });
  execFileSync('sh', ['-c', `git -C "${repo}" archive ${rev} ${paths.join(' ')} | tar -x -C "${join(dir, to)}"`]);
};

// ---- Verbatim declarations, by reachability ------------------------------------------------

type GoFile = { imports: Map<string, string>; decls: Map<string, string> };

/** The imports (alias → path) and top-level type declarations (name → text) of a Go file. */
function readGo(text: string): GoFile {
  const lines = text.split('\n');
  const imports = new Map<string, string>();
  const importBlock = /^import \(([\s\S]*?)^\)/m.exec(text)?.[1] ?? '';
  for (const m of importBlock.matchAll(/^\s*(\w+)?\s*"([^"]+)"/gm)) imports.set(m[1] ?? m[2]!.split('/').pop()!, m[2]!);
  const decls = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const struct = /^type (\w+) (struct|interface) \{\s*$/.exec(lines[i]!);
    if (struct) {
      const end = lines.indexOf('}', i);
      decls.set(struct[1]!, lines.slice(i, end + 1).join('\n'));
      i = end;
      continue;
    }
    const named = /^type (\w+) ([^\s{][^{]*)$/.exec(lines[i]!);
    if (named) decls.set(named[1]!, lines[i]!);
  }
  return { imports, decls };
}

/** Identifiers a declaration uses, comments and struct tags left out. */
function references(decl: string): { local: string[]; qualified: [string, string][] } {
  const code = decl
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, '').replace(/`[^`]*`/g, ''))
    .join('\n');
  const qualified = [...code.matchAll(/\b(\w+)\.([A-Z]\w*)/g)].map((m) => [m[1]!, m[2]!] as [string, string]);
  const local = [...code.replace(/\b\w+\.[A-Z]\w*/g, '').matchAll(/\b([A-Z]\w*)\b/g)].map((m) => m[1]!);
  return { local, qualified };
}

type Package = { path: string; name: string; files: GoFile[]; wanted: Set<string> };

/** Adds to each package the declarations its roots reach, across packages. */
function close(packages: Map<string, Package>, roots: [string, string][]): void {
  const queue = [...roots];
  while (queue.length) {
    const [path, name] = queue.pop()!;
    const pkg = packages.get(path);
    if (!pkg || pkg.wanted.has(name)) continue;
    const source = pkg.files.find((f) => f.decls.has(name));
    if (!source) continue; // declared in a file copied whole
    pkg.wanted.add(name);
    const refs = references(source.decls.get(name)!);
    for (const l of refs.local) queue.push([path, l]);
    for (const [alias, n] of refs.qualified) {
      const target = source.imports.get(alias);
      if (target) queue.push([target, n]);
    }
  }
}

/** One Go file per source file: the wanted declarations, with the imports they use. */
function emit(pkg: Package, to: string): void {
  pkg.files.forEach((f, i) => {
    const decls = [...f.decls].filter(([n]) => pkg.wanted.has(n)).map(([, d]) => d);
    if (!decls.length) return;
    const body = decls.join('\n\n');
    const used = [...f.imports].filter(([alias]) => new RegExp(`\\b${alias}\\.`).test(body));
    const imports = used.length ? `import (\n${used.map(([a, p]) => `\t${a} "${p}"`).join('\n')}\n)\n\n` : '';
    file(`${to}/extracted_${i}.go`, `// Verbatim declarations (see scripts/openkruise-revision-vectors.ts).\npackage ${pkg.name}\n\n${imports}${body}\n`);
  });
}

// ---- The module ------------------------------------------------------------------------------

const META = 'k8s.io/apimachinery/pkg/apis/meta/v1';
const CORE = 'k8s.io/api/core/v1';
const KRUISE_ALPHA = 'github.com/openkruise/kruise/apis/apps/v1alpha1';
const KRUISE_PUB = 'github.com/openkruise/kruise/apis/apps/pub';

const kruiseFiles = (dirPath: string) =>
  execFileSync('git', ['-C', KRUISE, 'ls-tree', '--name-only', `${KRUISE_VERSION}:${dirPath}`])
    .toString()
    .trim()
    .split('\n')
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('zz_'))
    .map((f) => readGo(show(KRUISE, KRUISE_VERSION, `${dirPath}/${f}`)));

const packages = new Map<string, Package>([
  [META, { path: META, name: 'v1', files: [readGo(show(APIMACHINERY, K8S_VERSION, 'pkg/apis/meta/v1/types.go'))], wanted: new Set() }],
  [CORE, { path: CORE, name: 'v1', files: [readGo(show(K8S_API, K8S_VERSION, 'core/v1/types.go'))], wanted: new Set() }],
  [KRUISE_ALPHA, { path: KRUISE_ALPHA, name: 'v1alpha1', files: kruiseFiles('apis/apps/v1alpha1'), wanted: new Set() }],
  [KRUISE_PUB, { path: KRUISE_PUB, name: 'pub', files: kruiseFiles('apis/apps/pub'), wanted: new Set() }],
]);
close(packages, [
  [CORE, 'PodTemplateSpec'],
  [CORE, 'PersistentVolumeClaim'],
  [KRUISE_ALPHA, 'SidecarContainer'],
]);

const goMod = (module: string, requires = '') => `module ${module}\n\ngo 1.19\n${requires}`;
// apimachinery: the packages the types need, whole files.
const AM = 'k8s.io/apimachinery';
for (const f of ['amount.go', 'math.go', 'quantity.go', 'scale_int.go', 'suffix.go']) file(`am/pkg/api/resource/${f}`, show(APIMACHINERY, K8S_VERSION, `pkg/api/resource/${f}`));
file('am/pkg/util/intstr/intstr.go', show(APIMACHINERY, K8S_VERSION, 'pkg/util/intstr/intstr.go'));
file('am/pkg/util/rand/rand.go', show(APIMACHINERY, K8S_VERSION, 'pkg/util/rand/rand.go'));
file('am/pkg/util/dump/dump.go', show(APIMACHINERY, K8S_VERSION, 'pkg/util/dump/dump.go'));
file('am/pkg/types/uid.go', show(APIMACHINERY, K8S_VERSION, 'pkg/types/uid.go'));
for (const f of ['time.go', 'micro_time.go', 'duration.go']) file(`am/pkg/apis/meta/v1/${f}`, show(APIMACHINERY, K8S_VERSION, `pkg/apis/meta/v1/${f}`));
file(
  'am/pkg/runtime/serializer/cbor/direct/direct.go',
  '// Stub: the harness marshals JSON only.\npackage direct\n\nimport "errors"\n\nfunc Marshal(src interface{}) ([]byte, error) { return nil, errors.New("cbor: not in this harness") }\n\nfunc Unmarshal(src []byte, dst interface{}) error { return errors.New("cbor: not in this harness") }\n',
);
emit(packages.get(META)!, 'am/pkg/apis/meta/v1');
file('am/go.mod', goMod(AM, '\nrequire (\n\tgithub.com/davecgh/go-spew v1.1.1\n\tgopkg.in/inf.v0 v0.9.1\n\tk8s.io/klog/v2 v2.0.0\n)\n'));
file('klog/klog.go', '// Stub: intstr logs an int32 overflow only.\npackage klog\n\nfunc Errorf(format string, args ...interface{}) {}\n');
file('klog/go.mod', goMod('k8s.io/klog/v2'));
emit(packages.get(CORE)!, 'api/core/v1');
file('api/go.mod', goMod('k8s.io/api', '\nrequire k8s.io/apimachinery v0.32.10\n'));
emit(packages.get(KRUISE_ALPHA)!, 'kruise/apis/apps/v1alpha1');
emit(packages.get(KRUISE_PUB)!, 'kruise/apis/apps/pub');
file('kruise/go.mod', goMod('github.com/openkruise/kruise', '\nrequire (\n\tk8s.io/api v0.32.10\n\tk8s.io/apimachinery v0.32.10\n)\n'));
archive(GO_SPEW, SPEW_COMMIT, 'go-spew', ['spew']);
file('go-spew/go.mod', goMod('github.com/davecgh/go-spew'));
archive(INF, INF_VERSION, 'inf');
file('inf/go.mod', goMod('gopkg.in/inf.v0'));

const replaces: [string, string][] = [
  ['k8s.io/apimachinery', './am'],
  ['k8s.io/api', './api'],
  ['k8s.io/klog/v2', './klog'],
  ['github.com/openkruise/kruise', './kruise'],
  ['github.com/davecgh/go-spew', './go-spew'],
  ['gopkg.in/inf.v0', './inf'],
];
const versions: Record<string, string> = { 'k8s.io/apimachinery': 'v0.32.10', 'k8s.io/api': 'v0.32.10', 'k8s.io/klog/v2': 'v2.0.0', 'github.com/openkruise/kruise': 'v1.9.0', 'github.com/davecgh/go-spew': 'v1.1.1', 'gopkg.in/inf.v0': 'v0.9.1' };
file(
  'go.mod',
  goMod('okrevisions', `\nrequire (\n${replaces.map(([m]) => `\t${m} ${versions[m]}`).join('\n')}\n)\n\n${replaces.map(([m, p]) => `replace ${m} => ${p}`).join('\n')}\n`),
);
for (const sub of ['am', 'api', 'kruise']) {
  const own = { am: 'k8s.io/apimachinery', api: 'k8s.io/api', kruise: 'github.com/openkruise/kruise' }[sub]!;
  const rel = replaces.filter(([m]) => m !== own).map(([m, p]) => `replace ${m} => .${p}`).join('\n');
  writeFileSync(join(dir, sub, 'go.mod'), readFileSync(join(dir, sub, 'go.mod'), 'utf8') + '\n' + rel + '\n');
}
file('main.go', readFileSync(join(repoRoot, 'scripts/openkruise-revision-harness.go'), 'utf8'));

// ---- Run -------------------------------------------------------------------------------------

type Output = Record<string, unknown>;
const run = (inputs: unknown[]): Output[] =>
  JSON.parse(
    execFileSync('go', ['run', '.'], {
      cwd: dir,
      input: JSON.stringify(inputs),
      env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOSUMDB: 'off' },
      stdio: ['pipe', 'pipe', 'inherit'],
      maxBuffer: 64 << 20,
    }).toString(),
  ) as Output[];

const inputsPath = join(repoRoot, 'scripts/openkruise-revision-inputs.json');
const { selfCheck, fixtures } = JSON.parse(readFileSync(inputsPath, 'utf8')) as {
  selfCheck: { input: Record<string, unknown>; expect: Record<string, string> }[];
  fixtures: Record<string, Record<string, unknown>[]>;
};

const checked = run(selfCheck.map((c) => c.input));
selfCheck.forEach((c, i) => {
  for (const [key, want] of Object.entries(c.expect)) {
    const [head, ...rest] = key.split('.');
    const top = checked[i]?.[head!];
    const got = rest.length ? (top as Record<string, unknown> | undefined)?.[rest.join('.')] : top;
    if (got !== want) throw new Error(`the harness does not reproduce OpenKruise's vector ${i} (${key}): got ${String(got)}, OpenKruise ${want}`);
  }
});
console.log(`OpenKruise's ${selfCheck.length} vectors reproduced`);

// The types go-spew walks in a v1.PodTemplateSpec, as reflect reports them (src/kube/go-spew.ts prints with them).
type GoTypeOut = { kind: string; elem?: string; key?: string; fields?: string[][] };
const types = JSON.parse(execFileSync('go', ['run', '.', 'types'], { cwd: dir, env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOSUMDB: 'off' }, stdio: ['pipe', 'pipe', 'inherit'] }).toString()) as Record<string, GoTypeOut>;
const typeLines = Object.keys(types)
  .sort()
  .map((name) => {
    const { kind, elem, key, fields } = types[name]!;
    return `  ${JSON.stringify(name)}: ${JSON.stringify({ kind, ...(elem ? { elem } : {}), ...(key ? { key } : {}), ...(fields ? { fields } : {}) }).replace(/,/g, ', ').replace(/":/g, '": ')},`;
  });
writeFileSync(
  join(repoRoot, 'src/kube/go-spew-pod-template-types.ts'),
  [
    `// GENERATED by scripts/openkruise-revision-vectors.ts (reflect over k8s.io/api ${K8S_VERSION} core/v1`,
    '// PodTemplateSpec, as go-spew walks it): do not edit. Each type: its kind, element / key type,',
    '// and fields as [Go name, json name ("" inline), type].',
    'export type GoType = { kind: string; elem?: string; key?: string; fields?: readonly (readonly [string, string, string])[] };',
    '',
    'export const GO_TYPES: Readonly<Record<string, GoType>> = {',
    ...typeLines,
    '};',
    '',
  ].join('\n'),
);

const outDir = join(repoRoot, 'test/e2e/fixtures/takeover');
mkdirSync(outDir, { recursive: true });
for (const [name, inputs] of Object.entries(fixtures)) {
  const out = run(inputs).map((o, i) => ({ input: inputs[i], ...o }));
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify({ generatedBy: 'scripts/openkruise-revision-vectors.ts', openkruise: KRUISE_VERSION, kubernetes: K8S_VERSION, vectors: out }, null, 2) + '\n');
  console.log(`${name}.json: ${out.map((o) => JSON.stringify((o as { revision?: { name?: string } }).revision?.name ?? (o as { annotations?: unknown }).annotations)).join(', ')}`);
}
