// Kubernetes' defaulting of pod parts (k8s.io/kubernetes pkg/apis/core/v1 defaults.go, the
// SetDefaults_* functions the generated SetObjectDefaults_Pod calls): what the API server fills in
// on a pod's containers and volumes before validating it. SidecarSet defaulting applies the
// container and volume defaulters as OpenKruise's SetDefaultsSidecarSet does; WorkloadSpread
// applies the pod's to a template with a subset patch merged in, to judge the pods it will give.
// All functions default in place: callers pass their own copies.
import { canonicalQuantity } from './quantity.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const unset = (v: unknown) => v === undefined || v === null;
const blank = (v: unknown) => unset(v) || v === '' || v === 0;

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const NAME_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
const REFERENCE = new RegExp(
  `^((?:${DOMAIN}/)?${NAME_COMPONENT}(?:/${NAME_COMPONENT})*)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`,
);

/**
 * The tag Kubernetes reads from an image reference (parsers.ParseImageName over docker's
 * ParseNormalizedNamed): `latest` when there is neither tag nor digest, '' when the reference does
 * not parse or carries only a digest.
 */
export function imageTag(image: string): string {
  if (/^[a-f0-9]{64}$/.test(image)) return '';
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasDomain = slash >= 0 && (/[.:]/.test(first) || first === 'localhost');
  const remainder = hasDomain ? image.slice(slash + 1) : image;
  const repo = remainder.split(':')[0]!;
  if (repo.toLowerCase() !== repo) return '';
  const m = REFERENCE.exec(hasDomain ? image : `docker.io/${image}`);
  if (!m || m[1]!.length > 255) return '';
  if (m[2] !== undefined) return m[2];
  return m[3] !== undefined ? '' : 'latest';
}

/** SetDefaults_ObjectFieldSelector. */
export function defaultFieldRef(ref: unknown): void {
  if (isObj(ref) && blank(ref.apiVersion)) ref.apiVersion = 'v1';
}

/** SetDefaults_HTTPGetAction, on a probe or lifecycle handler. */
export function defaultHTTPGet(handler: unknown): void {
  if (!isObj(handler) || !isObj(handler.httpGet)) return;
  const get = handler.httpGet;
  if (blank(get.path)) get.path = '/';
  if (blank(get.scheme)) get.scheme = 'HTTP';
}

/** SetDefaults_Probe, and its HTTPGet action. */
export function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  if (blank(probe.timeoutSeconds)) probe.timeoutSeconds = 1;
  if (blank(probe.periodSeconds)) probe.periodSeconds = 10;
  if (blank(probe.successThreshold)) probe.successThreshold = 1;
  if (blank(probe.failureThreshold)) probe.failureThreshold = 3;
  defaultHTTPGet(probe);
}

/** SetDefaults_ResourceList: quantities rounded up to milli precision, written canonically. */
export function defaultResourceList(list: unknown): void {
  if (!isObj(list)) return;
  for (const [k, v] of Object.entries(list)) if (typeof v === 'string') list[k] = canonicalQuantity(v, true);
}

export type ContainerDefaultOptions = {
  /** Default startupProbe too (the API server does; OpenKruise 1.8's SidecarSet defaulting does not). */
  startupProbe: boolean;
};

/** SetDefaults_Container plus the defaulters of its parts (ports, env, resources, probes, lifecycle). */
export function defaultContainer(c: Obj, opts: ContainerDefaultOptions): void {
  if (blank(c.imagePullPolicy)) c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (blank(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log';
  if (blank(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  for (const p of objects(c.ports)) if (blank(p.protocol)) p.protocol = 'TCP';
  for (const e of objects(c.env)) if (isObj(e.valueFrom)) defaultFieldRef(e.valueFrom.fieldRef);
  if (isObj(c.resources)) {
    defaultResourceList(c.resources.limits);
    defaultResourceList(c.resources.requests);
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  if (opts.startupProbe) defaultProbe(c.startupProbe);
  if (isObj(c.lifecycle)) {
    defaultHTTPGet(c.lifecycle.postStart);
    defaultHTTPGet(c.lifecycle.preStop);
  }
}

/** SetDefaults_Volume and the defaulters of its source (OpenKruise's SetDefaultPodVolumes calls the same). */
export function defaultVolume(v: Obj): void {
  if (Object.entries(v).every(([k, val]) => k === 'name' || unset(val))) v.emptyDir = {};
  if (isObj(v.hostPath) && unset(v.hostPath.type)) v.hostPath.type = '';
  for (const source of [v.secret, v.configMap, v.downwardAPI, v.projected]) {
    if (isObj(source) && unset(source.defaultMode)) source.defaultMode = 420;
  }
  if (isObj(v.iscsi) && blank(v.iscsi.iscsiInterface)) v.iscsi.iscsiInterface = 'default';
  if (isObj(v.rbd)) {
    if (blank(v.rbd.pool)) v.rbd.pool = 'rbd';
    if (blank(v.rbd.user)) v.rbd.user = 'admin';
    if (blank(v.rbd.keyring)) v.rbd.keyring = '/etc/ceph/keyring';
  }
  if (isObj(v.azureDisk)) {
    if (unset(v.azureDisk.cachingMode)) v.azureDisk.cachingMode = 'ReadWrite';
    if (unset(v.azureDisk.kind)) v.azureDisk.kind = 'Shared';
    if (unset(v.azureDisk.fsType)) v.azureDisk.fsType = 'ext4';
    if (unset(v.azureDisk.readOnly)) v.azureDisk.readOnly = false;
  }
  if (isObj(v.scaleIO)) {
    if (blank(v.scaleIO.storageMode)) v.scaleIO.storageMode = 'ThinProvisioned';
    if (blank(v.scaleIO.fsType)) v.scaleIO.fsType = 'xfs';
  }
  if (isObj(v.downwardAPI)) for (const item of objects(v.downwardAPI.items)) defaultFieldRef(item.fieldRef);
  if (isObj(v.projected)) {
    for (const s of objects(v.projected.sources)) {
      if (isObj(s.downwardAPI)) for (const item of objects(s.downwardAPI.items)) defaultFieldRef(item.fieldRef);
      if (isObj(s.serviceAccountToken) && unset(s.serviceAccountToken.expirationSeconds)) s.serviceAccountToken.expirationSeconds = 3600;
    }
  }
}

/** SetDefaults_Pod's rule for containers: requests left out default to the limits (pods only, not templates). */
function requestsFromLimits(c: Obj): void {
  if (!isObj(c.resources) || !isObj(c.resources.limits)) return;
  const requests = isObj(c.resources.requests) ? c.resources.requests : (c.resources.requests = {});
  for (const [k, v] of Object.entries(c.resources.limits)) if (!Object.hasOwn(requests, k)) requests[k] = v;
}

/**
 * The API server's defaults for a pod's containers, init containers and volumes, in place on
 * `spec` (a pod spec, or the parts of one). Pod-level fields (restartPolicy, dnsPolicy, …) are
 * not touched: pod parts are all the validation that uses this checks.
 */
export function defaultPodSpecParts(spec: Obj): Obj {
  for (const list of [spec.initContainers, spec.containers]) {
    for (const c of objects(list)) {
      requestsFromLimits(c);
      defaultContainer(c, { startupProbe: true });
    }
  }
  for (const v of objects(spec.volumes)) defaultVolume(v);
  return spec;
}
