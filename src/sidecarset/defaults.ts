// SidecarSet defaulting, as OpenKruise's mutating webhook does it on CREATE and UPDATE
// (SEMANTICS.md §2.2; apis/apps/defaults/v1alpha1.go SetDefaultsSidecarSet, pod.go
// SetDefaultPodVolumes, and the Kubernetes container/volume defaulters they call). Pure: returns a
// defaulted copy. Only what OpenKruise sets is set; in particular a startupProbe is not defaulted
// (OpenKruise 1.8 defaults only liveness and readiness probes).
import { canonicalQuantity } from '../kube/quantity.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, type SidecarSet } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const unset = (v: unknown) => v === undefined || v === null;
const blank = (v: unknown) => unset(v) || v === '' || v === 0;

/** Sets `o[k]` to a fresh object when missing, and returns it (undefined if `o[k]` is not an object). */
function child(o: Obj, k: string): Obj | undefined {
  if (unset(o[k])) o[k] = {};
  return isObj(o[k]) ? (o[k] as Obj) : undefined;
}

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

function defaultFieldRef(ref: unknown): void {
  if (isObj(ref) && blank(ref.apiVersion)) ref.apiVersion = 'v1';
}

function defaultHTTPGet(handler: unknown): void {
  if (!isObj(handler) || !isObj(handler.httpGet)) return;
  const get = handler.httpGet;
  if (blank(get.path)) get.path = '/';
  if (blank(get.scheme)) get.scheme = 'HTTP';
}

function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  if (blank(probe.timeoutSeconds)) probe.timeoutSeconds = 1;
  if (blank(probe.periodSeconds)) probe.periodSeconds = 10;
  if (blank(probe.successThreshold)) probe.successThreshold = 1;
  if (blank(probe.failureThreshold)) probe.failureThreshold = 3;
  defaultHTTPGet(probe);
}

/** SetDefaults_ResourceList: quantities rounded up to milli precision, written canonically. */
function defaultResourceList(list: unknown): void {
  if (!isObj(list)) return;
  for (const [k, v] of Object.entries(list)) if (typeof v === 'string') list[k] = canonicalQuantity(v, true);
}

/** setDefaultSidecarContainer + setDefaultContainer (v1alpha1.go). */
function defaultSidecarContainer(c: Obj, injectPolicy: string): void {
  if (blank(c.podInjectPolicy)) c.podInjectPolicy = injectPolicy;
  const upgrade = child(c, 'upgradeStrategy');
  if (upgrade && blank(upgrade.upgradeType)) upgrade.upgradeType = 'ColdUpgrade';
  const share = child(c, 'shareVolumePolicy');
  if (share && blank(share.type)) share.type = 'disabled';

  if (blank(c.imagePullPolicy)) c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (blank(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log';
  if (blank(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  for (const p of objects(c.ports)) if (blank(p.protocol)) p.protocol = 'TCP';
  for (const t of objects(c.transferEnv)) if (isObj(t.sourceContainerNameFrom)) defaultFieldRef(t.sourceContainerNameFrom.fieldRef);
  for (const e of objects(c.env)) if (isObj(e.valueFrom)) defaultFieldRef(e.valueFrom.fieldRef);
  if (isObj(c.resources)) {
    defaultResourceList(c.resources.limits);
    defaultResourceList(c.resources.requests);
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  if (isObj(c.lifecycle)) {
    defaultHTTPGet(c.lifecycle.postStart);
    defaultHTTPGet(c.lifecycle.preStop);
  }
}

/** SetDefaultPodVolumes: the volume defaulters OpenKruise applies to a SidecarSet's volumes. */
function defaultVolume(v: Obj): void {
  if (Object.entries(v).every(([k, val]) => k === 'name' || unset(val))) v.emptyDir = {};
  if (isObj(v.hostPath) && unset(v.hostPath.type)) v.hostPath.type = '';
  for (const source of [v.secret, v.configMap, v.downwardAPI, v.projected]) {
    if (isObj(source) && unset(source.defaultMode)) source.defaultMode = 420;
  }
  if (isObj(v.downwardAPI)) for (const item of objects(v.downwardAPI.items)) defaultFieldRef(item.fieldRef);
  if (isObj(v.projected)) {
    for (const s of objects(v.projected.sources)) {
      if (isObj(s.downwardAPI)) for (const item of objects(s.downwardAPI.items)) defaultFieldRef(item.fieldRef);
      if (isObj(s.serviceAccountToken) && unset(s.serviceAccountToken.expirationSeconds)) s.serviceAccountToken.expirationSeconds = 3600;
    }
  }
}

/** A defaulted copy of `set` (§2.2 steps 1–4). Idempotent. */
export function defaultSidecarSet(set: SidecarSet): SidecarSet {
  const out = structuredClone(set);
  const root = out as unknown as Obj;
  const spec = child(root, 'spec');
  if (!spec) return out;

  const strategy = child(spec, 'updateStrategy');
  if (strategy) {
    if (blank(strategy.type)) strategy.type = 'RollingUpdate';
    if (unset(strategy.maxUnavailable)) strategy.maxUnavailable = 1;
    if (unset(strategy.partition)) strategy.partition = 0;
  }
  for (const c of objects(spec.initContainers)) defaultSidecarContainer(c, 'AfterAppContainer');
  for (const c of objects(spec.containers)) defaultSidecarContainer(c, 'BeforeAppContainer');
  for (const v of objects(spec.volumes)) defaultVolume(v);
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  for (const p of objects(spec.patchPodMetadata)) if (blank(p.patchPolicy)) p.patchPolicy = 'Retain';
  const injection = spec.injectionStrategy;
  if (isObj(injection) && isObj(injection.revision) && blank(injection.revision.policy)) injection.revision.policy = 'Always';
  return out;
}

/** A copy with both hash annotations recomputed from its (defaulted) containers (§2.2 step 5). */
export async function withHashAnnotations(set: SidecarSet): Promise<SidecarSet> {
  const [hash, withoutImage] = await Promise.all([sidecarSetHash(set), sidecarSetHashWithoutImage(set)]);
  const metadata = { ...(set.metadata ?? {}) };
  metadata.annotations = { ...(metadata.annotations ?? {}), [HASH_ANNOTATION]: hash, [HASH_WITHOUT_IMAGE_ANNOTATION]: withoutImage };
  return { ...set, metadata };
}
