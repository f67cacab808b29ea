// Go's encoding/json output for SidecarSet containers, so that the hashes in §2.2 come out
// byte-identical to OpenKruise's: struct fields in Go declaration order, `omitempty` dropping
// zero values (but never non-pointer structs such as `resources`, which is written as `{}`),
// pointers written even when they point at a zero value, map keys sorted, quantities in their
// canonical form, and Go's string escaping (`<`, `>`, `&`, U+2028/9 as \u escapes).
//
// Field orders follow k8s.io/api/core/v1/types.go (Kubernetes 1.30, the API OpenKruise 1.8 builds
// against) and apis/apps/v1alpha1/sidecarset_types.go. Fields the schema does not know (newer
// Kubernetes fields, typos) are written after the known ones with sorted keys; Go would drop them,
// but OpenKruise's own defaulting drops them from the stored object too, so no object it produces
// differs, while a change to such a field still changes our hash.
import { canonicalQuantity } from './quantity.js';

export type Kind =
  | 'string'
  | 'int'
  | 'bool'
  | 'quantity'
  | 'intOrString'
  | 'time'
  | 'raw'
  | { ptr: Kind }
  | { list: Kind }
  | { map: Kind }
  | { struct: StructDef };

/** [json name, kind, omitempty]. Inline (embedded) structs are spelled out in place. */
export type FieldDef = readonly [string, Kind, boolean];
export type StructDef = readonly FieldDef[];

export const S = 'string' as const;
export const I = 'int' as const;
export const B = 'bool' as const;
export const ptr = (k: Kind): Kind => ({ ptr: k });
export const list = (k: Kind): Kind => ({ list: k });
export const struct = (s: StructDef): Kind => ({ struct: s });
const ptrTo = (s: StructDef): Kind => ptr(struct(s));

const ObjectFieldSelector: StructDef = [['apiVersion', S, true], ['fieldPath', S, false]];
const ResourceFieldSelector: StructDef = [['containerName', S, true], ['resource', S, false], ['divisor', 'quantity', true]];
const KeySelector: StructDef = [['name', S, true], ['key', S, false], ['optional', ptr(B), true]];
const EnvVarSource: StructDef = [
  ['fieldRef', ptrTo(ObjectFieldSelector), true],
  ['resourceFieldRef', ptrTo(ResourceFieldSelector), true],
  ['configMapKeyRef', ptrTo(KeySelector), true],
  ['secretKeyRef', ptrTo(KeySelector), true],
];
const EnvVar: StructDef = [['name', S, false], ['value', S, true], ['valueFrom', ptrTo(EnvVarSource), true]];
const EnvSource: StructDef = [['name', S, true], ['optional', ptr(B), true]];
const EnvFromSource: StructDef = [['prefix', S, true], ['configMapRef', ptrTo(EnvSource), true], ['secretRef', ptrTo(EnvSource), true]];
const ContainerPort: StructDef = [
  ['name', S, true],
  ['hostPort', I, true],
  ['containerPort', I, false],
  ['protocol', S, true],
  ['hostIP', S, true],
];
const ResourceRequirements: StructDef = [
  ['limits', { map: 'quantity' }, true],
  ['requests', { map: 'quantity' }, true],
  ['claims', list(struct([['name', S, false], ['request', S, true]])), true],
];
const ContainerResizePolicy: StructDef = [['resourceName', S, false], ['restartPolicy', S, false]];
const VolumeMount: StructDef = [
  ['name', S, false],
  ['readOnly', B, true],
  ['recursiveReadOnly', ptr(S), true],
  ['mountPath', S, false],
  ['subPath', S, true],
  ['mountPropagation', ptr(S), true],
  ['subPathExpr', S, true],
];
const VolumeDevice: StructDef = [['name', S, false], ['devicePath', S, false]];
const ExecAction: StructDef = [['command', list(S), true]];
const HTTPGetAction: StructDef = [
  ['path', S, true],
  ['port', 'intOrString', false],
  ['host', S, true],
  ['scheme', S, true],
  ['httpHeaders', list(struct([['name', S, false], ['value', S, false]])), true],
];
const TCPSocketAction: StructDef = [['port', 'intOrString', false], ['host', S, true]];
const GRPCAction: StructDef = [['port', I, false], ['service', ptr(S), false]];
const Probe: StructDef = [
  ['exec', ptrTo(ExecAction), true],
  ['httpGet', ptrTo(HTTPGetAction), true],
  ['tcpSocket', ptrTo(TCPSocketAction), true],
  ['grpc', ptrTo(GRPCAction), true],
  ['initialDelaySeconds', I, true],
  ['timeoutSeconds', I, true],
  ['periodSeconds', I, true],
  ['successThreshold', I, true],
  ['failureThreshold', I, true],
  ['terminationGracePeriodSeconds', ptr(I), true],
];
const LifecycleHandler: StructDef = [
  ['exec', ptrTo(ExecAction), true],
  ['httpGet', ptrTo(HTTPGetAction), true],
  ['tcpSocket', ptrTo(TCPSocketAction), true],
  ['sleep', ptrTo([['seconds', I, false]]), true],
];
const Lifecycle: StructDef = [['postStart', ptrTo(LifecycleHandler), true], ['preStop', ptrTo(LifecycleHandler), true], ['stopSignal', ptr(S), true]];
const ProfileDef: StructDef = [['type', S, false], ['localhostProfile', ptr(S), true]];
const SecurityContext: StructDef = [
  ['capabilities', ptrTo([['add', list(S), true], ['drop', list(S), true]]), true],
  ['privileged', ptr(B), true],
  ['seLinuxOptions', ptrTo([['user', S, true], ['role', S, true], ['type', S, true], ['level', S, true]]), true],
  [
    'windowsOptions',
    ptrTo([
      ['gmsaCredentialSpecName', ptr(S), true],
      ['gmsaCredentialSpec', ptr(S), true],
      ['runAsUserName', ptr(S), true],
      ['hostProcess', ptr(B), true],
    ]),
    true,
  ],
  ['runAsUser', ptr(I), true],
  ['runAsGroup', ptr(I), true],
  ['runAsNonRoot', ptr(B), true],
  ['readOnlyRootFilesystem', ptr(B), true],
  ['allowPrivilegeEscalation', ptr(B), true],
  ['procMount', ptr(S), true],
  ['seccompProfile', ptrTo(ProfileDef), true],
  ['appArmorProfile', ptrTo(ProfileDef), true],
];

/** corev1.Container, then the fields SidecarContainer adds. */
export const SidecarContainer: StructDef = [
  ['name', S, false],
  ['image', S, true],
  ['command', list(S), true],
  ['args', list(S), true],
  ['workingDir', S, true],
  ['ports', list(struct(ContainerPort)), true],
  ['envFrom', list(struct(EnvFromSource)), true],
  ['env', list(struct(EnvVar)), true],
  ['resources', struct(ResourceRequirements), true],
  ['resizePolicy', list(struct(ContainerResizePolicy)), true],
  ['restartPolicy', ptr(S), true],
  ['volumeMounts', list(struct(VolumeMount)), true],
  ['volumeDevices', list(struct(VolumeDevice)), true],
  ['livenessProbe', ptrTo(Probe), true],
  ['readinessProbe', ptrTo(Probe), true],
  ['startupProbe', ptrTo(Probe), true],
  ['lifecycle', ptrTo(Lifecycle), true],
  ['terminationMessagePath', S, true],
  ['terminationMessagePolicy', S, true],
  ['imagePullPolicy', S, true],
  ['securityContext', ptrTo(SecurityContext), true],
  ['stdin', B, true],
  ['stdinOnce', B, true],
  ['tty', B, true],
  ['podInjectPolicy', S, true],
  ['upgradeStrategy', struct([['upgradeType', S, true], ['hotUpgradeEmptyImage', S, true]]), true],
  ['shareVolumePolicy', struct([['type', S, true]]), true],
  [
    'transferEnv',
    list(
      struct([
        ['sourceContainerName', S, true],
        ['sourceContainerNameFrom', ptrTo([['fieldRef', ptrTo(ObjectFieldSelector), true]]), true],
        ['envName', S, true],
        ['envNames', list(S), true],
      ]),
    ),
    true,
  ],
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Printable ASCII that Go writes as it is: no quote, backslash, <, > or &. */
const VERBATIM = /^[\x20\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

/** Go's encodeState.string with HTML escaping on. */
export function goString(s: string): string {
  // Names, hashes and timestamps on the injection path: no need to walk them character by character.
  if (VERBATIM.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else out += '\\ufffd'; // invalid UTF-16 becomes U+FFFD, as invalid UTF-8 does in Go
      continue;
    }
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      default:
        if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
          out += `\\u${c.toString(16).padStart(4, '0')}`;
        } else out += s[i]!;
    }
  }
  return `${out}"`;
}

/** Go sorts map keys by their UTF-8 bytes, i.e. by code point. */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const sortedKeys = (o: Record<string, unknown>) => Object.keys(o).sort(byCodePoint);

/** A value of unknown shape, as Go writes an interface{} holding decoded JSON. */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  if (isObject(v)) return `{${sortedKeys(v).map((k) => `${goString(k)}:${goJSON(v[k])}`).join(',')}}`;
  return 'null';
}

function isEmpty(kind: Kind, v: unknown): boolean {
  // Quantity, IntOrString and metav1.Time are structs in Go: `omitempty` never drops them.
  if (v === undefined || v === null) return typeof kind === 'string' ? kind !== 'quantity' && kind !== 'intOrString' && kind !== 'time' : !('struct' in kind);
  if (typeof kind === 'string') {
    if (kind === 'string') return v === '';
    if (kind === 'int') return v === 0;
    if (kind === 'bool') return v === false;
    return false;
  }
  if ('list' in kind) return Array.isArray(v) && v.length === 0;
  if ('map' in kind) return isObject(v) && Object.keys(v).length === 0;
  return false;
}

/** A value as Go's json.Marshal writes it when its Go type is `kind`. */
export function encodeGo(kind: Kind, v: unknown): string {
  return encode(kind, v);
}

function encode(kind: Kind, v: unknown): string {
  if (typeof kind === 'string') {
    switch (kind) {
      case 'string':
        return typeof v === 'string' ? goString(v) : v == null ? '""' : goJSON(v);
      case 'int':
        return v == null ? '0' : goJSON(v);
      case 'bool':
        return v == null ? 'false' : goJSON(v);
      case 'quantity':
        return typeof v === 'string' ? goString(canonicalQuantity(v)) : v == null ? '"0"' : goJSON(v);
      case 'intOrString':
        return v == null ? '0' : goJSON(v);
      case 'time':
        return v == null ? 'null' : goJSON(v); // metav1.Time: the zero time is written as null
      case 'raw':
        return goJSON(v);
    }
  }
  if ('ptr' in kind) return v == null ? 'null' : encode(kind.ptr, v);
  if ('list' in kind) return v == null ? 'null' : Array.isArray(v) ? `[${v.map((e) => encode(kind.list, e)).join(',')}]` : goJSON(v);
  if ('map' in kind) {
    if (v == null) return 'null';
    if (!isObject(v)) return goJSON(v);
    return `{${sortedKeys(v).map((k) => `${goString(k)}:${encode(kind.map, v[k])}`).join(',')}}`;
  }
  return encodeStruct(kind.struct, v);
}

function encodeStruct(def: StructDef, v: unknown): string {
  if (v != null && !isObject(v)) return goJSON(v);
  const obj = (v ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  const known = new Set<string>();
  for (const [name, kind, omitEmpty] of def) {
    known.add(name);
    const value = obj[name];
    if (omitEmpty && isEmpty(kind, value)) continue;
    parts.push(`${goString(name)}:${encode(kind, value)}`);
  }
  for (const k of sortedKeys(obj)) {
    if (!known.has(k) && obj[k] !== null && obj[k] !== undefined) parts.push(`${goString(k)}:${goJSON(obj[k])}`);
  }
  return `{${parts.join(',')}}`;
}

/** A list of SidecarContainers exactly as Go's json.Marshal writes `[]SidecarContainer` (nil → null). */
export function encodeSidecarContainers(containers: unknown): string {
  return encode(list(struct(SidecarContainer)), containers);
}
