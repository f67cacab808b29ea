// Fuzzes the whole admission path (parse → dispatch → respond) with seeded random bodies: random
// JSON, and valid reviews broken in one or more ways. Whatever comes in, the answer must be
// well-formed: an AdmissionReview echoing the uid when one is recoverable, else HTTP 400/413.
import { describe, expect, it } from 'vitest';
import { admit } from './dispatch.js';
import { MAX_REVIEW_BYTES } from './review.js';
import { allow, deny, type WebhookEndpoint } from './types.js';
import { type ClusterState } from '../edge-state/contracts.js';

const SEED = 0x6b727569; // "krui"
const CASES = 6_000;

/** mulberry32: a tiny, well-mixed 32-bit PRNG; the same seed gives the same run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = {
  next: () => number;
  int: (n: number) => number;
  pick: <T>(xs: readonly T[]) => T;
  chance: (p: number) => boolean;
};

function rand(seed: number): Rand {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (xs) => xs[int(xs.length)]!, chance: (p) => next() < p };
}

const ALPHABET = ['a', 'Z', '0', '-', '.', '/', '~', '"', '\\', ' ', '\n', '\u0000', 'é', 'ß', '日', '本', '🚀', '\u200b', '\ud800', '\udfff', '\u2028'];

function randomString(r: Rand, max = 12): string {
  let s = '';
  for (let n = r.int(max); n > 0; n--) s += r.pick(ALPHABET);
  return s;
}

function randomJson(r: Rand, depth = 0): unknown {
  switch (r.int(depth > 3 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, r.int(1000)]);
    case 3:
    case 4:
      return randomString(r);
    case 5:
      return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let n = r.int(4); n > 0; n--) o[r.pick(['uid', 'request', 'kind', 'apiVersion', '__proto__', randomString(r, 5)])] = randomJson(r, depth + 1);
      return o;
    }
  }
}

function validReview(r: Rand): Record<string, unknown> {
  const operation = r.pick(['CREATE', 'CREATE', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT']);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `web-${r.int(100)}`, labels: { app: randomString(r, 6) }, ...(r.chance(0.5) ? { namespace: 'default' } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'X', value: randomString(r) }] }] },
  };
  return {
    apiVersion: r.pick(['admission.k8s.io/v1', 'admission.k8s.io/v1beta1']),
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${r.int(1e9)}${r.chance(0.1) ? randomString(r) : ''}`,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      ...(r.chance(0.1) ? { subResource: 'eviction' } : {}),
      name: pod.metadata.name,
      namespace: 'default',
      operation,
      userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts'] },
      object: operation === 'DELETE' ? null : pod,
      oldObject: operation === 'CREATE' ? null : pod,
      dryRun: r.chance(0.2),
      options: { kind: 'CreateOptions' },
    },
  };
}

const FIELDS = [
  'apiVersion', 'kind', 'request', 'request.uid', 'request.kind', 'request.kind.group', 'request.kind.version', 'request.kind.kind',
  'request.resource', 'request.resource.resource', 'request.subResource', 'request.namespace', 'request.operation', 'request.userInfo',
  'request.userInfo.groups', 'request.userInfo.extra', 'request.object', 'request.object.metadata', 'request.object.metadata.labels',
  'request.object.metadata.namespace', 'request.oldObject', 'request.dryRun', 'request.options',
] as const;

function parentOf(doc: Record<string, unknown>, path: string): [Record<string, unknown> | undefined, string] {
  const keys = path.split('.');
  let at: unknown = doc;
  for (const k of keys.slice(0, -1)) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[k] : undefined;
  return [typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined, keys[keys.length - 1]!];
}

function deepValue(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
}

/** One way to break a valid review, applied to the parsed form. */
const MUTATIONS: ((r: Rand, doc: Record<string, unknown>) => void)[] = [
  (r, doc) => {
    const [parent, key] = parentOf(doc, r.pick(FIELDS));
    if (parent) delete parent[key];
  },
  (r, doc) => {
    const [parent, key] = parentOf(doc, r.pick(FIELDS));
    if (parent) parent[key] = randomJson(r);
  },
  (r, doc) => {
    const [parent, key] = parentOf(doc, r.pick(FIELDS));
    if (parent) parent[key] = r.pick(['x'.repeat(100_000), '日'.repeat(40_000), '🚀'.repeat(25_000)]);
  },
  (r, doc) => {
    const [parent, key] = parentOf(doc, r.pick(['request.object.spec', 'request.options', 'request.userInfo.extra', 'request.kind', 'request.object']));
    if (parent) parent[key] = deepValue(r.pick([50, 500, 3_000]));
  },
  (r, doc) => void (doc.apiVersion = r.pick(['admission.k8s.io/v2', 'v1', 'admission.k8s.io/V1', '', 1])),
  (r, doc) => void (doc.request = r.pick([null, 7, 'request', [], [doc.request], true])),
  (r, doc) => {
    const [parent, key] = parentOf(doc, r.pick(FIELDS));
    if (parent) parent[key] = randomString(r, 30);
  },
  (r, doc) => {
    const req = doc.request as Record<string, unknown> | undefined;
    if (req && typeof req === 'object') req[r.pick(['operation', 'uid', 'namespace'])] = r.pick(['create', 'PATCH', '', ' CREATE', 'ÜPDATE', '\u0000']);
  },
];

/** A request body: random JSON, a valid review, a broken one, or a truncated or padded text. */
function randomBody(r: Rand): string {
  const roll = r.next();
  if (roll < 0.15) return JSON.stringify(randomJson(r)) ?? 'undefined';
  const doc = validReview(r);
  if (roll >= 0.35) for (let n = 1 + r.int(3); n > 0; n--) r.pick(MUTATIONS)(r, doc);
  let body = JSON.stringify(doc);
  if (r.chance(0.08)) body = body.slice(0, r.int(body.length)); // truncated JSON
  if (r.chance(0.02)) body = body.replace(/"(uid-\d+)/, '"$1\\ud83d'); // an escaped lone surrogate in the uid
  if (r.chance(0.003)) body += ' '.repeat(MAX_REVIEW_BYTES); // oversized
  return body;
}

/** The uid a correct parser can recover, computed independently of it. */
function recoverableUid(body: string): string | undefined {
  if (body.length > MAX_REVIEW_BYTES) return undefined;
  try {
    const doc = JSON.parse(body) as unknown;
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
    const req = (doc as Record<string, unknown>).request;
    if (typeof req !== 'object' || req === null || Array.isArray(req)) return undefined;
    const uid = (req as Record<string, unknown>).uid;
    return typeof uid === 'string' && uid !== '' ? uid : undefined;
  } catch {
    return undefined;
  }
}

const base = { rules: [], failurePolicy: 'Fail' as const, timeoutSeconds: 3, sideEffects: 'None' as const };
type Pod = { metadata?: { labels?: Record<string, string> } };

const ENDPOINTS: WebhookEndpoint[] = [
  {
    ...base,
    path: 'mutate-pod',
    type: 'mutating',
    name: 'mpod.test',
    handlers: [
      {
        feature: 'label',
        match: { resource: 'pods', subResource: '', operations: ['CREATE'] },
        handle: (req) => {
          const pod = req.object as Pod | undefined;
          if (!pod?.metadata || typeof pod.metadata !== 'object') return allow();
          return allow({ ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, 'fuzz.kruise.io/seen': 'true' } } });
        },
      },
    ],
  },
  {
    ...base,
    path: 'validate-pod',
    type: 'validating',
    name: 'vpod.test',
    handlers: [
      {
        feature: 'no-delete-in-kube-system',
        match: { resource: 'pods', operations: ['UPDATE', 'DELETE'] },
        handle: (req) => (req.namespace === 'kube-system' ? deny(403, 'protected namespace') : allow(undefined, ['checked'])),
      },
      {
        feature: 'needs-pods',
        match: { resource: 'pods', subResource: 'eviction' },
        needs: { collections: ['pods'], maxStalenessMs: 60_000, fallback: 'deny' },
        handle: () => allow(),
      },
    ],
  },
];

// 'pods' was pushed, long ago: the deny fallback refuses at once (a never-synced collection would
// first be waited for, within the budget, on every eviction review).
const state: ClusterState = { collection: async () => ({ items: [], resourceVersion: '1', observedAt: -3_600_000 }) };

function decodePatch(b64: string): unknown {
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
}

type Answer = 'error' | 'allowed' | 'patched' | 'denied';

/**
 * What kind of answer `res` is, or what is wrong with it. Plain checks rather than expect():
 * twelve thousand answers times a dozen matchers would dominate the run.
 */
function classify(res: { status: number; body: unknown }, uid: string | undefined, body: string): Answer | string {
  if (uid === undefined) {
    if (res.status !== 400 && !(res.status === 413 && body.length > MAX_REVIEW_BYTES)) return `HTTP ${res.status} without a uid`;
    return typeof (res.body as { error?: unknown }).error === 'string' ? 'error' : 'no error string';
  }
  if (res.status !== 200) return `HTTP ${res.status} with uid ${uid}`;
  const review = res.body as { apiVersion?: unknown; kind?: unknown; response?: Record<string, unknown> };
  if (review.apiVersion !== 'admission.k8s.io/v1' && review.apiVersion !== 'admission.k8s.io/v1beta1') return `apiVersion ${String(review.apiVersion)}`;
  if (review.kind !== 'AdmissionReview') return `kind ${String(review.kind)}`;
  const response = review.response;
  if (!response || response.uid !== uid) return `uid ${String(response?.uid)}, want ${uid}`;
  const warnings = response.warnings;
  if (warnings !== undefined && !(Array.isArray(warnings) && warnings.every((w) => typeof w === 'string'))) return 'warnings not strings';
  try {
    JSON.stringify(res.body); // every platform sends it serialised
  } catch (e) {
    return `unserialisable: ${String(e)}`;
  }
  if (response.allowed === true) {
    if (response.status !== undefined) return 'status on an allowed answer';
    if (response.patch === undefined) return 'allowed';
    if (response.patchType !== 'JSONPatch') return `patchType ${String(response.patchType)}`;
    return Array.isArray(decodePatch(response.patch as string)) ? 'patched' : 'patch is not an array';
  }
  if (response.allowed !== false) return `allowed ${String(response.allowed)}`;
  const status = response.status as { code?: unknown; message?: unknown; status?: unknown } | undefined;
  if (typeof status?.code !== 'number') return `status.code ${String(status?.code)}`;
  if (typeof status.message !== 'string') return 'status.message not a string';
  if (status.status !== 'Failure') return `status.status ${String(status.status)}`;
  return response.patch === undefined ? 'denied' : 'patch on a denial';
}

describe('admission fuzz', () => {
  it(`answers ${CASES} random bodies on two endpoints with well-formed responses`, { timeout: 30_000 }, async () => {
    const r = rand(SEED);
    const seen: Record<Answer, number> = { error: 0, allowed: 0, patched: 0, denied: 0 };
    const failures: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const body = randomBody(r);
      const uid = recoverableUid(body);
      for (const ep of ENDPOINTS) {
        let got: Answer | string;
        try {
          got = classify(await admit(ep, body, { clusterId: 'fuzz', state, now: 0, budgetMs: 1_000 }), uid, body);
        } catch (e) {
          got = `threw ${String(e)}`;
        }
        if (got in seen) seen[got as Answer]++;
        else failures.push(`case ${i} on ${ep.path}: ${got}; body: ${body.slice(0, 300)}`);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    // the generator must reach every kind of answer, or the fuzz proves little
    expect(seen.allowed + seen.patched).toBeGreaterThan(CASES * 0.2);
    expect(seen.patched).toBeGreaterThan(CASES * 0.05);
    expect(seen.denied).toBeGreaterThan(CASES * 0.2);
    expect(seen.error).toBeGreaterThan(CASES * 0.1);
  });
});
