// Renders src/kube/go-pod-template-types.ts: the shape Go's encoding/json gives a core/v1 PodSpec
// and a PersistentVolumeClaim (field order, `omitempty`, pointers, inline structs), read from the struct tags of
// k8s.io/api's core/v1/types.go — the version OpenKruise builds against (k8s.io/api v0.32.10 for
// OpenKruise 1.9). The output is committed; rerun when OpenKruise moves to a newer Kubernetes:
//   git -C <kubernetes/api clone> show v0.32.10:core/v1/types.go > /tmp/types.go
//   git -C <kubernetes/apimachinery clone> show v0.32.10:pkg/apis/meta/v1/types.go > /tmp/metatypes.go
//   npx tsx scripts/gen-go-pod-template.ts /tmp/types.go /tmp/metatypes.go v0.32.10
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Field = { name: string; goType: string; omitEmpty: boolean; inline: boolean };

const [typesPath, metaTypesPath, version] = process.argv.slice(2);
if (!typesPath || !metaTypesPath || !version) {
  throw new Error('usage: gen-go-pod-template.ts <core/v1/types.go> <meta/v1/types.go> <k8s.io/api version>');
}

const structs = new Map<string, Field[]>();
/** Structs this reader could not follow; an error only if a PodSpec reaches them. */
const unreadable = new Map<string, string>();
const aliases = new Map<string, string>();

/** Reads the structs and named types of one Go file; `prefix` is how other packages name them. */
function readGoFile(path: string, prefix: string, elsewhereInPackage: readonly string[] = []): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const local = new Set(lines.map((l) => /^type (\w+) /.exec(l)?.[1]).filter((n): n is string => !!n));
  for (const n of elsewhereInPackage) local.add(n);
  const qualify = (t: string) => t.replace(/\b[A-Z]\w*/g, (n) => (local.has(n) ? prefix + n : n));
  for (let i = 0; i < lines.length; i++) {
    const alias = /^type (\w+) ([^\s{]+)\s*$/.exec(lines[i]!);
    if (alias) aliases.set(prefix + alias[1]!, qualify(alias[2]!));
    const open = /^type (\w+) struct \{\s*$/.exec(lines[i]!);
    if (!open) continue;
    const fields: Field[] = [];
    for (i++; i < lines.length && lines[i] !== '}'; i++) {
      const line = lines[i]!.trim();
      if (line.startsWith('//') || line === '') continue;
      const m = /^([\w.]+)(?:\s+([^\s`]+))?\s+`([^`]*)`/.exec(line);
      const tag = m ? /json:"([^"]*)"/.exec(m[3]!)?.[1] : undefined;
      if (!m || tag === undefined) {
        unreadable.set(prefix + open[1]!, line);
        continue;
      }
      const [name = '', ...opts] = tag.split(',');
      if (name === '-') continue;
      const embedded = m[2] === undefined;
      fields.push({ name, goType: qualify(embedded ? m[1]! : m[2]!), omitEmpty: opts.includes('omitempty'), inline: embedded && opts.includes('inline') });
    }
    structs.set(prefix + open[1]!, fields);
  }
}

// Go's own MarshalJSON decides these, not their fields.
const CUSTOM = new Set(['metav1.Time', 'metav1.MicroTime', 'metav1.FieldsV1']);
readGoFile(metaTypesPath, 'metav1.', ['Time', 'MicroTime']);
readGoFile(typesPath, '');
for (const name of CUSTOM) structs.delete(name);

/** Types from other packages that a PodSpec reaches, and how go-json.ts spells them. */
const FOREIGN: Record<string, string> = {
  'resource.Quantity': "'quantity'",
  'intstr.IntOrString': "'intOrString'",
  'types.UID': 'S',
  'metav1.Time': "'time'",
  'metav1.FieldsV1': "'raw'",
};
const constName = (goType: string) => goType.replace('metav1.', 'Meta');
const PRIMITIVE: Record<string, string> = {
  string: 'S',
  bool: 'B',
  int: 'I',
  int32: 'I',
  int64: 'I',
  uint32: 'I',
  uint64: 'I',
  float64: 'I',
};

const emitted: string[] = [];
const done = new Set<string>();

function kindOf(goType: string): string {
  if (goType.startsWith('*')) return `ptr(${kindOf(goType.slice(1))})`;
  if (goType === '[]byte') throw new Error('[]byte is not expected in a PodSpec');
  if (goType.startsWith('[]')) return `list(${kindOf(goType.slice(2))})`;
  const map = /^map\[[\w.]+\](.+)$/.exec(goType);
  if (map) return `{ map: ${kindOf(map[1]!)} }`;
  if (PRIMITIVE[goType]) return PRIMITIVE[goType];
  if (FOREIGN[goType]) return FOREIGN[goType];
  if (structs.has(goType)) {
    emitStruct(goType);
    return `struct(${constName(goType)})`;
  }
  const underlying = aliases.get(goType);
  if (underlying) return kindOf(underlying);
  throw new Error(`unknown Go type ${goType}`);
}

function emitStruct(name: string): void {
  if (done.has(name)) return;
  done.add(name);
  if (unreadable.has(name)) throw new Error(`${name}: cannot read field line: ${unreadable.get(name)}`);
  const parts: string[] = [];
  for (const f of structs.get(name)!) {
    if (f.inline) {
      if (!structs.has(f.goType)) throw new Error(`${name}: inline ${f.goType} is not a struct`);
      emitStruct(f.goType);
      parts.push(`...${constName(f.goType)}`);
    } else {
      parts.push(`['${f.name}', ${kindOf(f.goType)}, ${f.omitEmpty}]`);
    }
  }
  emitted.push(`const ${constName(name)}: StructDef = [\n${parts.map((p) => `  ${p},\n`).join('')}];`);
}

emitStruct('PodTemplateSpec');
emitStruct('PersistentVolumeClaim');

const out = `// GENERATED by scripts/gen-go-pod-template.ts from k8s.io/api ${version} core/v1/types.go and
// k8s.io/apimachinery ${version} pkg/apis/meta/v1/types.go: do not edit.
// Each struct is [json name, kind, omitempty] in Go declaration order (inline structs spelled out).
import { B, I, S, list, ptr, struct, type StructDef } from './go-json.js';

${emitted.join('\n\n')}

/** core/v1 PodTemplateSpec: metadata (metav1.ObjectMeta) and spec (PodSpec). */
export const POD_TEMPLATE_SPEC: StructDef = PodTemplateSpec;

/** core/v1 Container (SidecarSet's SidecarContainer embeds it). */
export const CONTAINER: StructDef = Container;

/** core/v1 PersistentVolumeClaim (a CloneSet's volume-claim-template hash marshals these). */
export const PERSISTENT_VOLUME_CLAIM: StructDef = PersistentVolumeClaim;
`;
writeFileSync(join(import.meta.dirname, '..', 'src', 'kube', 'go-pod-template-types.ts'), out);
console.log(`${done.size} structs`);
