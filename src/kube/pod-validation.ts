// The part of Kubernetes' pod validation (pkg/apis/core/validation ValidatePodCreate) that depends
// on containers and volumes: what the API server would reject in a pod built from them. Used to
// refuse objects that would otherwise make every pod they touch fail to create (OpenKruise checks
// SidecarSets the same way, on a synthetic pod). Paths and messages are Kubernetes'. Covered:
// volume names and sources (hostPath, emptyDir, secret, configMap, persistentVolumeClaim,
// downwardAPI items; one source each), container names (unique across init and regular), image,
// ports, env and envFrom, volume mounts and devices, pull and termination-message policies,
// resources, resize policy, probes, lifecycle, securityContext basics, init-container
// restartPolicy. Not covered: CSI/projected/cloud volume details, resource claims, hugepage rules.
import { supportedValues, type FieldError } from './field-errors.js';
import { canonicalQuantity, compareQuantities, formatQuantity, isIntegerQuantity, parseQuantity, QUANTITY_FORMAT_ERROR } from './quantity.js';
import {
  NEGATIVE_ERROR,
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isHTTPHeaderName,
  isQualifiedName,
  isRecord,
  isValidID,
  isValidPortName,
  isValidPortNum,
} from './validation.js';

type Obj = Record<string, unknown>;
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((e) => (isRecord(e) ? e : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const set = (v: unknown) => v !== undefined && v !== null;

export type PodParts = { initContainers?: unknown; containers?: unknown; volumes?: unknown };

// In the order validateVolumeSource checks them: the second source set is the one reported.
const VOLUME_SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'flocker', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap',
  'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO',
  'csi', 'ephemeral', 'image',
] as const;
/** The paths Kubernetes names in "more than 1 volume type" where they differ from the field (its spelling). */
const EXTRA_SOURCE_PATH: Partial<Record<(typeof VOLUME_SOURCES)[number], string>> = { cephfs: 'cephFS', downwardAPI: 'downwarAPI' };
const HOST_PATH_TYPES = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'];
const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

function noBacksteps(p: string, field: string): FieldError[] {
  return p.split('/').includes('..') ? [{ field, type: 'Invalid', value: p, detail: "must not contain '..'" }] : [];
}

function localDescendingPath(p: string, field: string): FieldError[] {
  const errs: FieldError[] = p.startsWith('/') ? [{ field, type: 'Invalid', value: p, detail: 'must be a relative path' }] : [];
  return [...errs, ...noBacksteps(p, field)];
}

function fileMode(mode: unknown, field: string): FieldError[] {
  return set(mode) && (int(mode) > 0o777 || int(mode) < 0) ? [{ field, type: 'Invalid', value: mode, detail: FILE_MODE_ERROR }] : [];
}

function keyToPaths(items: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, kp] of objects(items).entries()) {
    const at = `${field}.items[${i}]`;
    if (!str(kp.key)) errs.push({ field: `${at}.key`, type: 'Required', detail: '' });
    const p = str(kp.path);
    if (!p) errs.push({ field: `${at}.path`, type: 'Required', detail: '' });
    errs.push(...localDescendingPath(p, `${at}.path`));
    if (p.startsWith('..') && !p.startsWith('../')) errs.push({ field: `${at}.path`, type: 'Invalid', value: p, detail: "must not start with '..'" });
    errs.push(...fileMode(kp.mode, `${at}.mode`));
  }
  return errs;
}

function volumeSource(v: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of VOLUME_SOURCES) {
    if (!set(v[kind])) continue;
    if (count++ > 0) {
      errs.push({ field: `${field}.${EXTRA_SOURCE_PATH[kind] ?? kind}`, type: 'Forbidden', detail: 'may not specify more than 1 volume type' });
      continue;
    }
    const src = isRecord(v[kind]) ? (v[kind] as Obj) : {};
    const at = `${field}.${kind}`;
    switch (kind) {
      case 'hostPath':
        if (!str(src.path)) errs.push({ field: `${at}.path`, type: 'Required', detail: '' });
        errs.push(...noBacksteps(str(src.path), `${at}.path`));
        if (set(src.type) && !HOST_PATH_TYPES.includes(str(src.type))) {
          errs.push({ field: `${at}.type`, type: 'NotSupported', value: src.type, detail: supportedValues(HOST_PATH_TYPES) });
        }
        break;
      case 'emptyDir': {
        const limit = typeof src.sizeLimit === 'string' ? parseQuantity(src.sizeLimit) : undefined;
        if (limit && limit.mantissa < 0n) errs.push({ field: `${at}.sizeLimit`, type: 'Forbidden', detail: 'SizeLimit field must be a valid resource quantity' });
        break;
      }
      case 'secret':
        if (!str(src.secretName)) errs.push({ field: `${at}.secretName`, type: 'Required', detail: '' });
        errs.push(...fileMode(src.defaultMode, `${at}.defaultMode`), ...keyToPaths(src.items, at));
        break;
      case 'configMap':
        if (!str(src.name)) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
        errs.push(...fileMode(src.defaultMode, `${at}.defaultMode`), ...keyToPaths(src.items, at));
        break;
      case 'persistentVolumeClaim':
        if (!str(src.claimName)) errs.push({ field: `${at}.claimName`, type: 'Required', detail: '' });
        break;
      case 'downwardAPI':
        errs.push(...fileMode(src.defaultMode, `${at}.defaultMode`));
        for (const [i, item] of objects(src.items).entries()) {
          const p = str(item.path);
          if (!p) errs.push({ field: `${at}.items[${i}].path`, type: 'Required', detail: '' });
          errs.push(...localDescendingPath(p, `${at}.items[${i}].path`), ...fileMode(item.mode, `${at}.items[${i}].mode`));
        }
        break;
    }
  }
  if (count === 0) errs.push({ field, type: 'Required', detail: 'must specify a volume type' });
  return errs;
}

/** ValidateVolumes: errors, and the volumes that validated (mounts may only name those). */
function validateVolumes(volumes: unknown, field: string): { errs: FieldError[]; valid: Map<string, Obj> } {
  const errs: FieldError[] = [];
  const valid = new Map<string, Obj>();
  for (const [i, v] of objects(volumes).entries()) {
    const at = `${field}[${i}]`;
    const name = str(v.name);
    const el = volumeSource(v, at);
    if (!name) el.push({ field: `${at}.name`, type: 'Required', detail: '' });
    else for (const detail of isDNS1123Label(name)) el.push({ field: `${at}.name`, type: 'Invalid', value: name, detail });
    if (valid.has(name)) el.push({ field: `${at}.name`, type: 'Duplicate', value: name, detail: '' });
    if (el.length === 0) valid.set(name, v);
    errs.push(...el);
  }
  return { errs, valid };
}

const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const CONVERTIBLE_FIELD_LABELS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs', 'spec.host',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['k']` → ['metadata.labels', 'k']. */
export function splitSubscriptedPath(p: string): [string, string] | undefined {
  if (!p.endsWith("']")) return undefined;
  const s = p.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

function envFieldRef(ref: Obj, field: string): FieldError[] {
  if (!str(ref.apiVersion)) return [{ field: `${field}.apiVersion`, type: 'Required', detail: '' }];
  const path = str(ref.fieldPath);
  if (!path) return [{ field: `${field}.fieldPath`, type: 'Required', detail: '' }];
  const fail = (why: string): FieldError[] => [{ field: `${field}.fieldPath`, type: 'Invalid', value: path, detail: `error converting fieldPath: ${why}` }];
  if (ref.apiVersion !== 'v1') return fail(`unsupported pod version: ${str(ref.apiVersion)}`);
  const sub = splitSubscriptedPath(path);
  if (sub) {
    const [base, key] = sub;
    if (base !== 'metadata.annotations' && base !== 'metadata.labels') return fail(`field label does not support subscript: ${path}`);
    return isQualifiedName(base === 'metadata.annotations' ? key.toLowerCase() : key).map((detail) => ({ field, type: 'Invalid', value: key, detail }));
  }
  if (!CONVERTIBLE_FIELD_LABELS.has(path)) return fail(`field label not supported: ${path}`);
  const internal = path === 'spec.host' ? 'spec.nodeName' : path;
  return ENV_FIELD_PATHS.includes(internal) ? [] : [{ field: `${field}.fieldPath`, type: 'NotSupported', value: internal, detail: supportedValues(ENV_FIELD_PATHS) }];
}

const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function resourceFieldRef(ref: Obj, field: string): FieldError[] {
  const resource = str(ref.resource);
  if (!resource) return [{ field: `${field}.resource`, type: 'Required', detail: '' }];
  if (!RESOURCE_FIELD_PATHS.includes(resource) && !/^(limits|requests)\.hugepages-/.test(resource)) {
    return [{ field: `${field}.resource`, type: 'NotSupported', value: resource, detail: supportedValues(RESOURCE_FIELD_PATHS) }];
  }
  return [];
}

function keySelector(ref: Obj, field: string): FieldError[] {
  const errs = isDNS1123Subdomain(str(ref.name)).map((detail): FieldError => ({ field: `${field}.name`, type: 'Invalid', value: str(ref.name), detail }));
  const key = str(ref.key);
  if (!key) errs.push({ field: `${field}.key`, type: 'Required', detail: '' });
  else for (const detail of isConfigMapKey(key)) errs.push({ field: `${field}.key`, type: 'Invalid', value: key, detail });
  return errs;
}

function validateEnv(env: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, e] of objects(env).entries()) {
    const at = `${field}[${i}]`;
    const name = str(e.name);
    if (!name) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
    else for (const detail of isEnvVarName(name)) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail });
    if (!isRecord(e.valueFrom)) continue;
    const from = e.valueFrom;
    const vf = `${at}.valueFrom`;
    let sources = 0;
    if (isRecord(from.fieldRef)) (sources++, errs.push(...envFieldRef(from.fieldRef, `${vf}.fieldRef`)));
    if (isRecord(from.resourceFieldRef)) (sources++, errs.push(...resourceFieldRef(from.resourceFieldRef, `${vf}.resourceFieldRef`)));
    if (isRecord(from.configMapKeyRef)) (sources++, errs.push(...keySelector(from.configMapKeyRef, `${vf}.configMapKeyRef`)));
    if (isRecord(from.secretKeyRef)) (sources++, errs.push(...keySelector(from.secretKeyRef, `${vf}.secretKeyRef`)));
    if (sources === 0) errs.push({ field: vf, type: 'Invalid', value: '', detail: 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`' });
    else if (str(e.value)) errs.push({ field: vf, type: 'Invalid', value: '', detail: 'may not be specified when `value` is not empty' });
    else if (sources > 1) errs.push({ field: vf, type: 'Invalid', value: '', detail: 'may not have more than one field specified at a time' });
  }
  return errs;
}

function validateEnvFrom(envFrom: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, e] of objects(envFrom).entries()) {
    const at = `${field}[${i}]`;
    if (str(e.prefix)) for (const detail of isEnvVarName(str(e.prefix))) errs.push({ field: `${at}.prefix`, type: 'Invalid', value: e.prefix, detail });
    let sources = 0;
    for (const ref of ['configMapRef', 'secretRef'] as const) {
      if (!isRecord(e[ref])) continue;
      sources++;
      const name = str((e[ref] as Obj).name);
      if (!name) errs.push({ field: `${at}.${ref}.name`, type: 'Required', detail: 'name is required' });
      else for (const detail of isDNS1123Subdomain(name.replace(/-$/, 'a'))) errs.push({ field: `${at}.${ref}.name`, type: 'Invalid', value: name, detail });
    }
    if (sources === 0) errs.push({ field, type: 'Invalid', value: '', detail: 'must specify one of: `configMapRef` or `secretRef`' });
    else if (sources > 1) errs.push({ field, type: 'Invalid', value: '', detail: 'may not have more than one field specified at a time' });
  }
  return errs;
}

function validatePorts(ports: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, p] of objects(ports).entries()) {
    const at = `${field}[${i}]`;
    const name = str(p.name);
    if (name) {
      const msgs = isValidPortName(name);
      for (const detail of msgs) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail });
      if (msgs.length === 0 && names.has(name)) errs.push({ field: `${at}.name`, type: 'Duplicate', value: name, detail: '' });
      names.add(name);
    }
    if (!int(p.containerPort)) errs.push({ field: `${at}.containerPort`, type: 'Required', detail: '' });
    else for (const detail of isValidPortNum(int(p.containerPort))) errs.push({ field: `${at}.containerPort`, type: 'Invalid', value: p.containerPort, detail });
    if (int(p.hostPort)) for (const detail of isValidPortNum(int(p.hostPort))) errs.push({ field: `${at}.hostPort`, type: 'Invalid', value: p.hostPort, detail });
    const protocol = str(p.protocol);
    if (!protocol) errs.push({ field: `${at}.protocol`, type: 'Required', detail: '' });
    else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push({ field: `${at}.protocol`, type: 'NotSupported', value: protocol, detail: supportedValues(['SCTP', 'TCP', 'UDP']) });
  }
  return errs;
}

/** AccumulateUniqueHostPorts over `containers`, indexed from `field`. */
function hostPortConflicts(containers: Obj[], field: string): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  for (const [ci, c] of containers.entries()) {
    for (const [pi, p] of objects(c.ports).entries()) {
      if (!int(p.hostPort)) continue;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${int(p.hostPort)}`;
      if (seen.has(key)) errs.push({ field: `${field}[${ci}].ports[${pi}].hostPort`, type: 'Duplicate', value: key, detail: '' });
      seen.add(key);
    }
  }
  return errs;
}

function validateMounts(c: Obj, volumes: Map<string, Obj>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPaths = new Set<string>();
  const devices = new Map(objects(c.volumeDevices).map((d) => [str(d.name), str(d.devicePath)]));
  const devicePaths = new Set(devices.values());
  const privileged = isRecord(c.securityContext) && c.securityContext.privileged === true;
  for (const [i, m] of objects(c.volumeMounts).entries()) {
    const at = `${field}[${i}]`;
    const name = str(m.name);
    const path = str(m.mountPath);
    if (!name) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
    if (!volumes.has(name)) errs.push({ field: `${at}.name`, type: 'NotFound', value: name, detail: '' });
    if (!path) errs.push({ field: `${at}.mountPath`, type: 'Required', detail: '' });
    if (mountPaths.has(path)) errs.push({ field: `${at}.mountPath`, type: 'Invalid', value: path, detail: 'must be unique' });
    mountPaths.add(path);
    if (devices.has(name)) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail: 'must not already exist in volumeDevices' });
    if (devicePaths.has(path)) errs.push({ field: `${at}.mountPath`, type: 'Invalid', value: path, detail: 'must not already exist as a path in volumeDevices' });
    // Kubernetes reports these two at the list's path, not the mount's (validation.go quirk).
    if (str(m.subPath)) errs.push(...localDescendingPath(str(m.subPath), `${field}.subPath`));
    if (str(m.subPathExpr)) {
      if (str(m.subPath)) errs.push({ field: `${at}.subPathExpr`, type: 'Invalid', value: m.subPathExpr, detail: 'subPathExpr and subPath are mutually exclusive' });
      errs.push(...localDescendingPath(str(m.subPathExpr), `${field}.subPathExpr`));
    }
    if (set(m.mountPropagation)) {
      const mp = str(m.mountPropagation);
      if (!['None', 'HostToContainer', 'Bidirectional'].includes(mp)) {
        errs.push({ field: `${field}.mountPropagation`, type: 'NotSupported', value: mp, detail: supportedValues(['Bidirectional', 'HostToContainer', 'None']) });
      } else if (mp === 'Bidirectional' && !privileged) {
        errs.push({ field: `${field}.mountPropagation`, type: 'Forbidden', detail: 'Bidirectional mount propagation is available only to privileged containers' });
      }
    }
  }
  return errs;
}

function validateDevices(c: Obj, volumes: Map<string, Obj>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, d] of objects(c.volumeDevices).entries()) {
    const at = `${field}[${i}]`;
    const name = str(d.name);
    if (!name) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
    const vol = volumes.get(name);
    if (name && !vol) errs.push({ field: `${at}.name`, type: 'NotFound', value: name, detail: '' });
    if (name && vol && !set(vol.persistentVolumeClaim) && !set(vol.ephemeral)) {
      errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail: 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode' });
    }
    if (!str(d.devicePath)) errs.push({ field: `${at}.devicePath`, type: 'Required', detail: '' });
  }
  return errs;
}

const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers', 'storage', 'requests.storage',
]);
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const isHugePages = (name: string) => name.startsWith('hugepages-');

function resourceNameErrors(name: string, field: string): FieldError[] {
  const bad = isQualifiedName(name).map((detail): FieldError => ({ field, type: 'Invalid', value: name, detail }));
  if (bad.length > 0) return bad;
  if (!name.includes('/')) {
    if (CONTAINER_RESOURCES.has(name) || isHugePages(name)) return [];
    const detail = STANDARD_RESOURCES.has(name) ? 'must be a standard resource for containers' : 'must be a standard resource type or fully qualified';
    return [{ field, type: 'Invalid', value: name, detail }];
  }
  if (!isNative(name) && (name.startsWith('requests.') || isQualifiedName(`requests.${name}`).length > 0)) {
    return [{ field, type: 'Invalid', value: name, detail: "doesn't follow extended resource name standard" }];
  }
  return [];
}

function validateResources(resources: unknown, field: string): FieldError[] {
  if (!isRecord(resources)) return [];
  const errs: FieldError[] = [];
  const limits = isRecord(resources.limits) ? resources.limits : {};
  const requests = isRecord(resources.requests) ? resources.requests : {};
  const check = (list: Obj, at: string) => {
    for (const [name, text] of Object.entries(list)) {
      const path = `${at}[${name}]`;
      errs.push(...resourceNameErrors(name, path));
      const q = typeof text === 'string' ? parseQuantity(text) : typeof text === 'number' ? parseQuantity(String(text)) : undefined;
      if (!q) {
        errs.push({ field: path, type: 'Invalid', value: text, detail: QUANTITY_FORMAT_ERROR });
        continue;
      }
      if (q.mantissa < 0n) errs.push({ field: path, type: 'Invalid', value: formatQuantity(q), detail: NEGATIVE_ERROR });
      if (!isNative(name) && !isIntegerQuantity(q)) errs.push({ field: path, type: 'Invalid', value: formatQuantity(q), detail: 'must be an integer' });
    }
  };
  check(limits, `${field}.limits`);
  check(requests, `${field}.requests`);
  for (const [name, text] of Object.entries(requests)) {
    const request = parseQuantity(String(text));
    if (!request) continue;
    const overcommit = isNative(name) && !isHugePages(name);
    if (name in limits) {
      const limit = parseQuantity(String(limits[name]));
      if (!limit) continue;
      const cmp = compareQuantities(request, limit);
      const shown = canonicalQuantity(String(text));
      if (cmp !== 0 && !overcommit) errs.push({ field: `${field}.requests`, type: 'Invalid', value: shown, detail: `must be equal to ${name} limit of ${formatQuantity(limit)}` });
      else if (cmp > 0) errs.push({ field: `${field}.requests`, type: 'Invalid', value: shown, detail: `must be less than or equal to ${name} limit of ${formatQuantity(limit)}` });
    } else if (!overcommit) {
      errs.push({ field: `${field}.limits`, type: 'Required', detail: 'Limit must be set for non overcommitable resources' });
    }
  }
  return errs;
}

function portNumOrName(port: unknown, field: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((detail) => ({ field, type: 'Invalid', value: port, detail }));
  if (typeof port === 'string') return isValidPortName(port).map((detail) => ({ field, type: 'Invalid', value: port, detail }));
  return isValidPortNum(0).map((detail) => ({ field, type: 'Invalid', value: 0, detail }));
}

const HANDLER_KINDS = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const;

function validateHandler(h: Obj, field: string, allowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of HANDLER_KINDS) {
    if (!allowed.includes(kind) || !set(h[kind])) continue;
    const at = `${field}.${kind}`;
    if (count++ > 0) {
      errs.push({ field: at, type: 'Forbidden', detail: 'may not specify more than 1 handler type' });
      continue;
    }
    const a = isRecord(h[kind]) ? (h[kind] as Obj) : {};
    if (kind === 'exec' && !(Array.isArray(a.command) && a.command.length > 0)) errs.push({ field: `${at}.command`, type: 'Required', detail: '' });
    if (kind === 'httpGet') {
      if (!str(a.path)) errs.push({ field: `${at}.path`, type: 'Required', detail: '' });
      errs.push(...portNumOrName(a.port, `${at}.port`));
      if (!['HTTP', 'HTTPS'].includes(str(a.scheme))) errs.push({ field: `${at}.scheme`, type: 'NotSupported', value: str(a.scheme), detail: supportedValues(['HTTP', 'HTTPS']) });
      for (const header of objects(a.httpHeaders)) {
        for (const detail of isHTTPHeaderName(str(header.name))) errs.push({ field: `${at}.httpHeaders`, type: 'Invalid', value: str(header.name), detail });
      }
    }
    if (kind === 'tcpSocket') errs.push(...portNumOrName(a.port, `${at}.port`));
    if (kind === 'grpc') for (const detail of isValidPortNum(int(a.port))) errs.push({ field: `${at}.port`, type: 'Invalid', value: int(a.port), detail });
    if (kind === 'sleep' && (int(a.seconds) <= 0 || int(a.seconds) > 30)) {
      errs.push({ field: at, type: 'Invalid', value: a, detail: 'must be greater than 0 and less than terminationGracePeriodSeconds (30)' });
    }
  }
  if (count === 0) errs.push({ field, type: 'Required', detail: 'must specify a handler type' });
  return errs;
}

function validateProbe(probe: unknown, field: string, kind: 'liveness' | 'readiness' | 'startup'): FieldError[] {
  if (!isRecord(probe)) return [];
  const errs = validateHandler(probe, field, ['exec', 'httpGet', 'tcpSocket', 'grpc']);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (int(probe[f]) < 0) errs.push({ field: `${field}.${f}`, type: 'Invalid', value: probe[f], detail: NEGATIVE_ERROR });
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (set(grace) && int(grace) <= 0) errs.push({ field: `${field}.terminationGracePeriodSeconds`, type: 'Invalid', value: grace, detail: 'must be greater than 0' });
  if (kind !== 'readiness' && int(probe.successThreshold) !== 1) {
    errs.push({ field: `${field}.successThreshold`, type: 'Invalid', value: int(probe.successThreshold), detail: 'must be 1' });
  }
  if (kind === 'readiness' && set(grace)) errs.push({ field: `${field}.terminationGracePeriodSeconds`, type: 'Invalid', value: grace, detail: 'must not be set for readinessProbes' });
  return errs;
}

function validateLifecycle(lifecycle: unknown, field: string): FieldError[] {
  if (!isRecord(lifecycle)) return [];
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop']) {
    if (isRecord(lifecycle[hook])) errs.push(...validateHandler(lifecycle[hook] as Obj, `${field}.${hook}`, ['exec', 'httpGet', 'tcpSocket', 'sleep']));
  }
  return errs;
}

function validateSecurityContext(sc: unknown, field: string): FieldError[] {
  if (!isRecord(sc)) return [];
  const errs: FieldError[] = [];
  for (const f of ['runAsUser', 'runAsGroup']) {
    if (set(sc[f])) for (const detail of isValidID(int(sc[f]))) errs.push({ field: `${field}.${f}`, type: 'Invalid', value: sc[f], detail });
  }
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push({ field, type: 'Invalid', value: sc, detail: 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true' });
    const add = isRecord(sc.capabilities) && Array.isArray(sc.capabilities.add) ? sc.capabilities.add : [];
    if (add.includes('CAP_SYS_ADMIN')) errs.push({ field, type: 'Invalid', value: sc, detail: 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN' });
  }
  if (set(sc.procMount) && !['Default', 'Unmasked'].includes(str(sc.procMount))) {
    errs.push({ field: `${field}.procMount`, type: 'NotSupported', value: sc.procMount, detail: supportedValues(['Default', 'Unmasked']) });
  }
  if (isRecord(sc.seccompProfile)) {
    const type = str(sc.seccompProfile.type);
    const at = `${field}.seccompProfile`;
    if (!['RuntimeDefault', 'Unconfined', 'Localhost'].includes(type)) errs.push({ field: `${at}.type`, type: 'NotSupported', value: type, detail: supportedValues(['Localhost', 'RuntimeDefault', 'Unconfined']) });
    if (type === 'Localhost' && !str(sc.seccompProfile.localhostProfile)) errs.push({ field: `${at}.localhostProfile`, type: 'Required', detail: 'must be set when seccomp type is Localhost' });
  }
  return errs;
}

function validateResizePolicy(policies: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, p] of objects(policies).entries()) {
    const name = str(p.resourceName);
    if (!['cpu', 'memory'].includes(name)) errs.push({ field: `${field}[${i}]`, type: 'NotSupported', value: name, detail: supportedValues(['cpu', 'memory']) });
    else if (seen.has(name)) errs.push({ field: `${field}[${i}]`, type: 'Duplicate', value: name, detail: '' });
    seen.add(name);
    if (!['NotRequired', 'RestartContainer'].includes(str(p.restartPolicy))) {
      errs.push({ field: `${field}[${i}]`, type: 'NotSupported', value: str(p.restartPolicy), detail: supportedValues(['NotRequired', 'RestartContainer']) });
    }
  }
  return errs;
}

/** validateContainerCommon: what every container kind must satisfy. */
function validateContainerCommon(c: Obj, volumes: Map<string, Obj>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
  else for (const detail of isDNS1123Label(name)) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail });
  if (!str(c.image)) errs.push({ field: `${at}.image`, type: 'Required', detail: '' });
  const tmp = str(c.terminationMessagePolicy);
  if (!tmp) errs.push({ field: `${at}.terminationMessagePolicy`, type: 'Required', detail: "must be 'File' or 'FallbackToLogsOnError'" });
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push({ field: `${at}.terminationMessagePolicy`, type: 'NotSupported', value: tmp, detail: supportedValues(['File', 'FallbackToLogsOnError']) });
  }
  errs.push(
    ...validatePorts(c.ports, `${at}.ports`),
    ...validateEnv(c.env, `${at}.env`),
    ...validateEnvFrom(c.envFrom, `${at}.envFrom`),
    ...validateMounts(c, volumes, `${at}.volumeMounts`),
    ...validateDevices(c, volumes, `${at}.volumeDevices`),
  );
  const pull = str(c.imagePullPolicy);
  if (!pull) errs.push({ field: `${at}.imagePullPolicy`, type: 'Required', detail: '' });
  else if (!['Always', 'IfNotPresent', 'Never'].includes(pull)) {
    errs.push({ field: `${at}.imagePullPolicy`, type: 'NotSupported', value: pull, detail: supportedValues(['Always', 'IfNotPresent', 'Never']) });
  }
  errs.push(
    ...validateResources(c.resources, `${at}.resources`),
    ...validateResizePolicy(c.resizePolicy, `${at}.resizePolicy`),
    ...validateSecurityContext(c.securityContext, `${at}.securityContext`),
  );
  return errs;
}

/**
 * Validates containers and volumes as they would appear in a pod created with them, returning
 * errors under `spec.volumes`, `spec.containers` and `spec.initContainers`.
 */
export function validatePodParts(parts: PodParts): FieldError[] {
  const { errs, valid } = validateVolumes(parts.volumes, 'spec.volumes');
  const containers = objects(parts.containers);
  const inits = objects(parts.initContainers);
  if (containers.length === 0) errs.push({ field: 'spec.containers', type: 'Required', detail: '' });
  const names = new Set<string>();
  for (const [i, c] of containers.entries()) {
    const at = `spec.containers[${i}]`;
    errs.push(...validateContainerCommon(c, valid, at));
    if (names.has(str(c.name))) errs.push({ field: `${at}.name`, type: 'Duplicate', value: str(c.name), detail: '' });
    names.add(str(c.name));
    errs.push(
      ...validateLifecycle(c.lifecycle, `${at}.lifecycle`),
      ...validateProbe(c.livenessProbe, `${at}.livenessProbe`, 'liveness'),
      ...validateProbe(c.readinessProbe, `${at}.readinessProbe`, 'readiness'),
      ...validateProbe(c.startupProbe, `${at}.startupProbe`, 'startup'),
    );
    if (set(c.restartPolicy)) errs.push({ field: `${at}.restartPolicy`, type: 'Forbidden', detail: 'may not be set for non-init containers' });
  }
  errs.push(...hostPortConflicts(containers, 'spec.containers'));
  for (const [i, c] of inits.entries()) {
    const at = `spec.initContainers[${i}]`;
    errs.push(...validateContainerCommon(c, valid, at));
    const always = c.restartPolicy === 'Always';
    if (set(c.restartPolicy) && !always) errs.push({ field: `${at}.restartPolicy`, type: 'NotSupported', value: c.restartPolicy, detail: supportedValues(['Always']) });
    if (names.has(str(c.name))) errs.push({ field: `${at}.name`, type: 'Duplicate', value: str(c.name), detail: '' });
    else if (str(c.name)) names.add(str(c.name));
    // Init containers run one at a time, so host ports only conflict within one (indexed from 0).
    errs.push(...hostPortConflicts([c], 'spec.initContainers'));
    if (always) {
      errs.push(
        ...validateLifecycle(c.lifecycle, `${at}.lifecycle`),
        ...validateProbe(c.livenessProbe, `${at}.livenessProbe`, 'liveness'),
        ...validateProbe(c.readinessProbe, `${at}.readinessProbe`, 'readiness'),
        ...validateProbe(c.startupProbe, `${at}.startupProbe`, 'startup'),
      );
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (set(c[f])) errs.push({ field: `${at}.${f}`, type: 'Forbidden', detail: 'may not be set for init containers without restartPolicy=Always' });
      }
    }
    if (objects(c.resizePolicy).length > 0) errs.push({ field: `${at}.resizePolicy`, type: 'Invalid', value: c.resizePolicy, detail: 'must not be set for init containers' });
  }
  for (const [list, field] of [[containers, 'spec.containers'], [inits, 'spec.initContainers']] as const) {
    for (const [i, c] of list.entries()) {
      const image = str(c.image);
      if (image !== image.trim()) errs.push({ field: `${field}[${i}].image`, type: 'Invalid', value: image, detail: 'must not have leading or trailing whitespace' });
    }
  }
  return errs;
}
