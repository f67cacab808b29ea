import jsonpatch from 'fast-json-patch';
import { describe, expect, it, vi } from 'vitest';
import { admit, handlerMatches } from './dispatch.js';
import type { PatchOperation } from './patch.js';
import { admissionReview, type AdmissionReviewResponse } from './respond.js';
import { MAX_REVIEW_BYTES } from './review.js';
import { allow, deny, type AdmissionHandler, type AdmissionInput, type HandlerMatch, type RegisteredHandler, type StateNeeds, type WebhookEndpoint } from './types.js';
import { type ClusterState, type Snapshot } from '../edge-state/contracts.js';

type Pod = { metadata: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };

const NOW = 1_700_000_000_000;

function pod(metadata: Pod['metadata'] = { name: 'web-0', labels: { app: 'web' } }): Pod {
  return { metadata, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
}

function reviewBody(req: Record<string, unknown> = {}, apiVersion = 'admission.k8s.io/v1'): string {
  return JSON.stringify({
    apiVersion,
    kind: 'AdmissionReview',
    request: {
      uid: 'uid-1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'alice' },
      object: pod(),
      ...req,
    },
  });
}

function handler(feature: string, handle: AdmissionHandler<Pod>, extra: { match?: HandlerMatch; needs?: StateNeeds; reads?: string[] } = {}): RegisteredHandler {
  return { feature, match: extra.match ?? { resource: 'pods' }, handle: handle as AdmissionHandler, ...(extra.needs ? { needs: extra.needs } : {}), ...(extra.reads ? { reads: extra.reads } : {}) };
}

function endpoint(type: 'mutating' | 'validating', handlers: RegisteredHandler[], failurePolicy: 'Fail' | 'Ignore' = 'Fail'): WebhookEndpoint {
  return { path: `${type}-pod`, type, name: `${type}.test`, rules: [], failurePolicy, timeoutSeconds: 3, sideEffects: 'None', handlers };
}

function stateOf(collections: Record<string, Snapshot | undefined> = {}): ClusterState & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    collection: async <T,>(name: string) => {
      reads.push(name);
      return collections[name] as Snapshot<T> | undefined;
    },
  };
}

async function run(ep: WebhookEndpoint, body = reviewBody(), opts: { state?: ClusterState; budgetMs?: number } = {}) {
  const res = await admit(ep, body, { clusterId: 'prod', state: opts.state ?? stateOf(), now: NOW, budgetMs: opts.budgetMs ?? 1_000 });
  return { status: res.status, review: res.body as AdmissionReviewResponse, response: (res.body as AdmissionReviewResponse).response };
}

function decodePatch(b64: string | undefined): PatchOperation[] {
  if (b64 === undefined) return [];
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as PatchOperation[];
}

/** Handlers treat the request as read-only and return a changed copy. */
const addLabel = (key: string, value = 'yes'): AdmissionHandler<Pod> => (req) => {
  const p = req.object!;
  return allow({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, [key]: value } } });
};

const never = () => new Promise<never>(() => {});

describe('handlerMatches', () => {
  const input = (over: Partial<AdmissionInput> = {}): AdmissionInput => ({
    uid: 'u',
    kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' },
    resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'sidecarsets' },
    namespace: '',
    operation: 'CREATE',
    userInfo: {},
    dryRun: false,
    clusterId: 'c',
    ...over,
  });
  it.each<[string, HandlerMatch, Partial<AdmissionInput>, boolean]>([
    ['empty match sees everything', {}, {}, true],
    ['group, version and kind', { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' }, {}, true],
    ['other group', { group: 'policy.kruise.io' }, {}, false],
    ['other version', { version: 'v1beta1' }, {}, false],
    ['other kind', { kind: 'CloneSet' }, {}, false],
    ['resource', { resource: 'sidecarsets' }, {}, true],
    ['other resource', { resource: 'pods' }, {}, false],
    ["subResource '' matches the main resource", { subResource: '' }, {}, true],
    ["subResource '' skips subresources", { subResource: '' }, { subResource: 'status' }, false],
    ['subResource undefined matches a subresource', {}, { subResource: 'eviction' }, true],
    ['named subResource', { subResource: 'eviction' }, { subResource: 'eviction' }, true],
    ['named subResource vs main resource', { subResource: 'eviction' }, {}, false],
    ['listed operation', { operations: ['UPDATE', 'CREATE'] }, {}, true],
    ['unlisted operation', { operations: ['DELETE'] }, {}, false],
    ['empty operations list', { operations: [] }, { operation: 'CONNECT' }, true],
  ])('%s', (_name, match, over, want) => {
    expect(handlerMatches(match, input(over))).toBe(want);
  });
});

describe('admit: chaining and verdicts', () => {
  it('allows without a patch when no handler matches', async () => {
    const h = vi.fn(addLabel('x'));
    const { status, response } = await run(endpoint('mutating', [handler('f', h, { match: { resource: 'services' } })]));
    expect(status).toBe(200);
    expect(response).toEqual({ uid: 'uid-1', allowed: true });
    expect(h).not.toHaveBeenCalled();
  });

  it('chains mutating handlers: each sees the previous result, one patch for all', async () => {
    const second = vi.fn<AdmissionHandler<Pod>>((req) => {
      expect(req.object!.metadata.labels).toEqual({ app: 'web', first: 'yes' });
      return addLabel('second')(req, stateOf(), { now: NOW });
    });
    const { response } = await run(endpoint('mutating', [handler('first', addLabel('first')), handler('second', second)]));
    expect(second).toHaveBeenCalledOnce();
    expect(response.allowed).toBe(true);
    expect(response.patchType).toBe('JSONPatch');
    const ops = decodePatch(response.patch);
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'add', path: '/metadata/labels/first', value: 'yes' },
        { op: 'add', path: '/metadata/labels/second', value: 'yes' },
      ]),
    );
    // the patch applies to the object the API server sent
    const patched = jsonpatch.applyPatch(pod(), ops).newDocument;
    expect(patched.metadata.labels).toEqual({ app: 'web', first: 'yes', second: 'yes' });
  });

  it('validating endpoints ignore returned objects', async () => {
    const { response } = await run(endpoint('validating', [handler('v', addLabel('x'))]));
    expect(response).toEqual({ uid: 'uid-1', allowed: true });
  });

  it('the first denial wins and stops the chain; earlier warnings are kept', async () => {
    const third = vi.fn(addLabel('third'));
    const { response } = await run(
      endpoint('mutating', [
        handler('first', (req) => allow(req.object, ['first: heads up'])),
        handler('second', () => deny(403, 'pod "web-0": not allowed here')),
        handler('third', third),
      ]),
    );
    expect(third).not.toHaveBeenCalled();
    expect(response).toEqual({
      uid: 'uid-1',
      allowed: false,
      status: { code: 403, message: 'pod "web-0": not allowed here', reason: 'Forbidden', status: 'Failure' },
      warnings: ['first: heads up'],
    });
  });

  it('accumulates warnings from every handler', async () => {
    const { response } = await run(
      endpoint('validating', [handler('a', () => allow(undefined, ['a1', 'a2'])), handler('b', () => allow(undefined, ['b1']))]),
    );
    expect(response.warnings).toEqual(['a1', 'a2', 'b1']);
  });

  it('keeps a reason a handler gives', async () => {
    const { response } = await run(endpoint('validating', [handler('v', () => deny(422, 'spec.x: Invalid value', 'Invalid'))]));
    expect(response.status).toEqual({ code: 422, message: 'spec.x: Invalid value', reason: 'Invalid', status: 'Failure' });
  });

  it('gives no patch when handlers return the object unchanged', async () => {
    const { response } = await run(endpoint('mutating', [handler('noop', (req) => allow(req.object))]));
    expect(response).toEqual({ uid: 'uid-1', allowed: true });
  });

  it('handlers cannot corrupt the baseline or each other: the request is read-only', async () => {
    let seen: unknown;
    const { response } = await run(
      endpoint(
        'mutating',
        [
          handler('messy', (req) => {
            req.object!.metadata.labels!.leaked = 'yes'; // mutated in place, then nothing returned
            return allow();
          }),
          handler('check', (req) => {
            seen = { ...req.object!.metadata.labels };
            return allow();
          }),
        ],
        'Ignore',
      ),
    );
    expect(seen).toEqual({ app: 'web' });
    expect(response).toEqual({ uid: 'uid-1', allowed: true, warnings: [expect.stringMatching(/^messy: skipped: failed: .*leaked/)] });
  });

  it('a handler writing to the request fails like any other failing handler (failurePolicy Fail)', async () => {
    const { response } = await run(
      endpoint('mutating', [
        handler('messy', (req) => {
          req.object!.metadata.labels!.leaked = 'yes';
          return allow(req.object);
        }),
      ]),
    );
    expect(response).toMatchObject({ uid: 'uid-1', allowed: false, status: { code: 500, message: expect.stringMatching(/^messy: failed: /) } });
  });

  it('a later handler sees the previous result read-only too', async () => {
    const { response } = await run(
      endpoint(
        'mutating',
        [
          handler('first', addLabel('first')),
          handler('messy', (req) => {
            req.object!.metadata.labels!.second = 'yes';
            return allow(req.object);
          }),
        ],
        'Ignore',
      ),
    );
    const ops = JSON.parse(Buffer.from((response as { patch: string }).patch, 'base64').toString()) as unknown[];
    expect(ops).toEqual([{ op: 'add', path: '/metadata/labels/first', value: 'yes' }]);
  });

  it('passes the request through: dryRun, userInfo, clusterId, now', async () => {
    const seen: { input?: AdmissionInput; now?: number } = {};
    await run(
      endpoint('validating', [
        handler('spy', (req, _s, ctx) => {
          seen.input = req as AdmissionInput;
          seen.now = ctx.now;
          return allow();
        }),
      ]),
      reviewBody({ dryRun: true }),
    );
    expect(seen.input).toMatchObject({ dryRun: true, clusterId: 'prod', userInfo: { username: 'alice' }, namespace: 'default' });
    expect(seen.now).toBe(NOW);
  });
});

describe('admit: what was admitted', () => {
  const update = (options: unknown) => reviewBody({ operation: 'UPDATE', oldObject: pod(), options });
  const admitted = async (body: string) => (await admit(endpoint('validating', []), body, { clusterId: 'prod', state: stateOf(), now: NOW, budgetMs: 1_000 })).admitted;

  it('an update sent as a PUT (UpdateOptions) is conditional: it fails rather than being applied again on a conflict', async () => {
    expect(await admitted(update({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' }))).toMatchObject({ operation: 'UPDATE', conditional: true });
  });

  it('a patch (PatchOptions), a create, and an update without options are not', async () => {
    expect((await admitted(update({ kind: 'PatchOptions', apiVersion: 'meta.k8s.io/v1' })))?.conditional).toBeUndefined();
    expect((await admitted(update(undefined)))?.conditional).toBeUndefined();
    expect((await admitted(reviewBody({ options: { kind: 'UpdateOptions' } })))?.conditional).toBeUndefined();
  });
});

describe('admit: namespace fill (../shared/SEMANTICS.md §1.2)', () => {
  const body = reviewBody({ object: pod({ name: 'web-0', labels: { app: 'web' } }) });

  it('handlers see the request namespace on an object without one', async () => {
    let seen: string | undefined;
    await run(
      endpoint('mutating', [
        handler('spy', (req) => {
          seen = req.object!.metadata.namespace;
          return allow(req.object);
        }),
      ]),
      body,
    );
    expect(seen).toBe('default');
  });

  it('the fill alone makes no patch', async () => {
    const { response } = await run(endpoint('mutating', [handler('noop', (req) => allow(req.object))]), body);
    expect(response.patch).toBeUndefined();
  });

  it('a real change patches only what the handler changed', async () => {
    const { response } = await run(endpoint('mutating', [handler('label', addLabel('x'))]), body);
    expect(decodePatch(response.patch)).toEqual([{ op: 'add', path: '/metadata/labels/x', value: 'yes' }]);
  });

  it('an explicit namespace is left alone', async () => {
    let seen: string | undefined;
    const explicit = reviewBody({ object: pod({ name: 'a', namespace: 'other' }) });
    await run(endpoint('validating', [handler('spy', (req) => ((seen = req.object!.metadata.namespace), allow()))]), explicit);
    expect(seen).toBe('other');
  });
});

describe('admit: state needs', () => {
  const needs = (fallback: 'allow' | 'deny', collections = ['pods']): StateNeeds => ({ collections, maxStalenessMs: 60_000, fallback });
  const snap = (ageMs: number): Snapshot => ({ items: [{ name: 'x' }], resourceVersion: '42', observedAt: NOW - ageMs });

  it('runs the handler with fresh state, reading each collection once', async () => {
    const state = stateOf({ pods: snap(1_000) });
    const h = vi.fn<AdmissionHandler<Pod>>(async (_req, s) => {
      const got = await s.collection('pods');
      return got?.resourceVersion === '42' ? deny(403, 'saw state') : allow();
    });
    const { response } = await run(endpoint('validating', [handler('pub', h, { needs: needs('deny') })]), reviewBody(), { state });
    expect(response.status?.message).toBe('saw state');
    expect(state.reads).toEqual(['pods']);
  });

  it.each<[string, Record<string, Snapshot | undefined>, RegExp]>([
    ['missing', {}, /^pub: skipped: state collection "pods" is missing \(never synced for this cluster\)$/],
    ['stale', { pods: snap(95_000) }, /^pub: skipped: state collection "pods" is stale \(95s old, limit 60s\)$/],
  ])('%s state with fallback allow skips the handler with a warning', async (_name, collections, warning) => {
    const h = vi.fn(() => deny(403, 'should not run'));
    const { response } = await run(endpoint('validating', [handler('pub', h, { needs: needs('allow') })]), reviewBody(), { state: stateOf(collections) });
    expect(h).not.toHaveBeenCalled();
    expect(response.allowed).toBe(true);
    expect(response.warnings).toHaveLength(1);
    expect(response.warnings![0]).toMatch(warning);
  });

  it.each<[string, Record<string, Snapshot | undefined>, RegExp]>([
    ['missing', { pods: snap(0) }, /^pub: state collection "nodes" is missing \(never synced for this cluster\); .*retry/],
    ['stale', { pods: snap(0), nodes: snap(61_500) }, /^pub: state collection "nodes" is stale \(61\.5s old, limit 60s\); .*retry/],
  ])('%s state with fallback deny refuses with 503', async (_name, collections, message) => {
    const h = vi.fn(() => allow<Pod>());
    const ep = endpoint('validating', [handler('pub', h, { needs: needs('deny', ['pods', 'nodes']) })]);
    const { response } = await run(ep, reviewBody(), { state: stateOf(collections) });
    expect(h).not.toHaveBeenCalled();
    expect(response.allowed).toBe(false);
    expect(response.status).toMatchObject({ code: 503, reason: 'ServiceUnavailable', status: 'Failure', message: expect.stringMatching(message) });
  });

  it('asks for every matching handler\'s needs and reads in one tick, before the first handler runs', async () => {
    const ticks: string[][] = [];
    let open: string[] | undefined;
    const state: ClusterState = {
      collection: async <T,>(name: string) => {
        if (!open) {
          ticks.push((open = []));
          queueMicrotask(() => (open = undefined));
        }
        open.push(name);
        return snap(0) as Snapshot<T>;
      },
    };
    const seen: string[][] = [];
    const first = handler('sidecarset', () => {
      seen.push(ticks.flat());
      return allow();
    }, { needs: needs('deny', ['sets', 'namespaces']) });
    const second = handler('pub', () => allow(), { needs: needs('deny', ['pubs', 'sets']), reads: ['config', 'spreads'] });
    const unmatched = handler('other', () => allow(), { match: { resource: 'nodes' }, needs: needs('deny', ['nodes']), reads: ['node-config'] });
    const { response } = await run(endpoint('mutating', [first, second, unmatched]), reviewBody(), { state });
    expect(response.allowed).toBe(true);
    expect(ticks).toEqual([['sets', 'namespaces', 'pubs', 'config', 'spreads']]);
    expect(seen).toEqual([['sets', 'namespaces', 'pubs', 'config', 'spreads']]);
  });

  it('handlers see the cluster\'s ledgers through the state they are given', async () => {
    const ledgers = { apply: async <R,>() => 'granted' as R };
    const h = vi.fn<AdmissionHandler<Pod>>(async (_req, s) => deny(429, String(await s.ledgers?.apply({ kind: 'B', namespace: 'default', name: 'b' }, 'take', {}))));
    const { response } = await run(endpoint('validating', [handler('pub', h, { needs: needs('deny') })]), reviewBody(), { state: { ...stateOf({ pods: snap(0) }), ledgers } });
    expect(response.status?.message).toBe('granted');
  });

  it('a skipped handler does not stop the chain', async () => {
    const ep = endpoint('mutating', [handler('ws', addLabel('ws'), { needs: needs('allow') }), handler('label', addLabel('x'))]);
    const { response } = await run(ep);
    expect(response.warnings).toEqual([expect.stringMatching(/^ws: skipped/)]);
    expect(decodePatch(response.patch)).toEqual([{ op: 'add', path: '/metadata/labels/x', value: 'yes' }]);
  });

  it('a state read that throws follows the fallback', async () => {
    const state: ClusterState = { collection: async () => Promise.reject(new Error('storage unavailable')) };
    const deny503 = await run(endpoint('validating', [handler('pub', () => allow(), { needs: needs('deny') })]), reviewBody(), { state });
    expect(deny503.response.status).toMatchObject({ code: 503, message: expect.stringContaining('storage unavailable') });
    const skipped = await run(endpoint('validating', [handler('pub', () => allow(), { needs: needs('allow') })]), reviewBody(), { state });
    expect(skipped.response).toMatchObject({ allowed: true, warnings: [expect.stringContaining('storage unavailable')] });
  });

  it('a state read slower than the budget times out (504)', async () => {
    const state: ClusterState = { collection: never };
    const { response } = await run(endpoint('validating', [handler('pub', () => allow(), { needs: needs('deny') })]), reviewBody(), { state, budgetMs: 20 });
    expect(response.status).toMatchObject({ code: 504, reason: 'Timeout', message: expect.stringMatching(/^pub: exceeded the request's time budget \(20ms\) while reading its state$/) });
  });
});

describe('admit: freshness and last known state', () => {
  const lastKnown = (collections = ['sets'], withoutState?: 'allow' | 'deny'): StateNeeds =>
    ({ collections, maxStalenessMs: 180_000, fallback: 'last-known', ...(withoutState ? { withoutState } : {}) });
  const held = (pushedAgoMs: number, currentAgoMs?: number): Snapshot => ({
    items: [{ name: 'set-a' }], resourceVersion: '7', observedAt: NOW - pushedAgoMs, ...(currentAgoMs === undefined ? {} : { currentAt: NOW - currentAgoMs }),
  });
  /** A mutating handler that labels the pod with the names of the sets it reads (an injection stand-in). */
  const inject: AdmissionHandler<Pod> = async (req, s) => {
    const sets = await s.collection<{ name: string }>('sets');
    const p = req.object!;
    return allow({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, injected: (sets?.items ?? []).map((x) => x.name).join('.') } } });
  };
  const admitWith = async (needs: StateNeeds, collections: Record<string, Snapshot | undefined>, h: AdmissionHandler<Pod> = inject, type: 'mutating' | 'validating' = 'mutating') => {
    const res = await admit(endpoint(type, [handler('sidecarset', h, { needs })]), reviewBody(), { clusterId: 'prod', state: stateOf(collections), now: NOW, budgetMs: 1_000 });
    return { response: (res.body as AdmissionReviewResponse).response, fallbacks: res.fallbacks };
  };

  it('age counts from currentAt (a write-through or observer write after the push), not from the push', async () => {
    // Pushed 227 s ago (over the 180 s limit), written through 5 s ago: current, no warning.
    const { response, fallbacks } = await admitWith(lastKnown(), { sets: held(227_200, 5_000) });
    expect(response.warnings ?? []).toEqual([]);
    expect(decodePatch(response.patch)).toEqual([{ op: 'add', path: '/metadata/labels/injected', value: 'set-a' }]);
    expect(fallbacks).toBeUndefined();
    // The same with fallback deny: admitted, since the state is current.
    expect((await admitWith({ ...lastKnown(), fallback: 'deny' }, { sets: held(227_200, 5_000) })).response.allowed).toBe(true);
  });

  it('a push refreshes: currentAt never counts older than observedAt', async () => {
    const { response } = await admitWith({ ...lastKnown(), fallback: 'deny' }, { sets: held(1_000, 600_000) });
    expect(response.allowed).toBe(true);
  });

  it('stale state with last-known: the handler answers from it, with a warning naming the feature, the collection and its age, counted', async () => {
    const { response, fallbacks } = await admitWith(lastKnown(['sets', 'namespaces']), { sets: held(227_200), namespaces: held(400_000, 1_000) });
    expect(response.allowed).toBe(true);
    expect(decodePatch(response.patch)).toEqual([{ op: 'add', path: '/metadata/labels/injected', value: 'set-a' }]);
    expect(response.warnings).toEqual(['sidecarset: answered from the last known state: state collection "sets" is stale (227.2s old, limit 180s)']);
    expect(fallbacks).toEqual([{ feature: 'sidecarset', reason: 'stale' }]);
  });

  it('the same stale state with fallback deny still refuses (503), and counts', async () => {
    const { response, fallbacks } = await admitWith({ ...lastKnown(), fallback: 'deny' }, { sets: held(227_200) });
    expect(response.status).toMatchObject({ code: 503, message: 'sidecarset: state collection "sets" is stale (227.2s old, limit 180s); the request cannot be checked until the cluster\'s state is synced, retry shortly' });
    expect(fallbacks).toEqual([{ feature: 'sidecarset', reason: 'stale' }]);
  });

  it('missing state with last-known: admitted unchanged with a warning, counted', async () => {
    const { response, fallbacks } = await admitWith(lastKnown(['sets', 'namespaces']), { namespaces: held(0) });
    expect(response).toMatchObject({ allowed: true, warnings: ['sidecarset: skipped: state collection "sets" is missing (never synced for this cluster)'] });
    expect(response.patch).toBeUndefined();
    expect(fallbacks).toEqual([{ feature: 'sidecarset', reason: 'missing' }]);
  });

  it('missing state with last-known and withoutState deny (a validator of our own objects): refused (503)', async () => {
    const { response, fallbacks } = await admitWith(lastKnown(['sets'], 'deny'), {}, () => allow(), 'validating');
    expect(response.status).toMatchObject({ code: 503, message: expect.stringMatching(/^sidecarset: state collection "sets" is missing .*retry shortly$/) });
    expect(fallbacks).toEqual([{ feature: 'sidecarset', reason: 'missing' }]);
    // Stale, the same validator answers from the last known state.
    const stale = await admitWith(lastKnown(['sets'], 'deny'), { sets: held(600_000) }, () => deny(500, 'conflicts with set-a'), 'validating');
    expect(stale.response.status).toMatchObject({ code: 500, message: 'conflicts with set-a' });
    expect(stale.response.warnings).toEqual([expect.stringMatching(/^sidecarset: answered from the last known state: state collection "sets" is stale \(600s old/)]);
  });

  it('a refusal for missing state first waits, within the budget, for the first sync (a restarted edge is pushed again within seconds)', async () => {
    let reads = 0;
    // Never synced for the first three reads, then pushed.
    const state: ClusterState = { collection: async <T,>() => (++reads > 3 ? held(0) : undefined) as Snapshot<T> | undefined };
    const validate = endpoint('validating', [handler('sidecarset', () => deny(409, 'conflicts with set-a'), { needs: lastKnown(['sets'], 'deny') })]);
    const res = await admit(validate, reviewBody(), { clusterId: 'prod', state, now: NOW, budgetMs: 2_000 });
    expect((res.body as AdmissionReviewResponse).response.status).toMatchObject({ code: 409, message: 'conflicts with set-a' });
    expect(res.fallbacks).toBeUndefined();
    expect(reads).toBe(4);
  });

  it('a skip for missing state does not wait (a pod creation is never held for our state)', async () => {
    let reads = 0;
    const state: ClusterState = { collection: async <T,>() => (++reads > 1 ? held(0) : undefined) as Snapshot<T> | undefined };
    const res = await admit(endpoint('mutating', [handler('sidecarset', inject, { needs: lastKnown() })]), reviewBody(), { clusterId: 'prod', state, now: NOW, budgetMs: 2_000 });
    expect((res.body as AdmissionReviewResponse).response.warnings).toEqual([expect.stringMatching(/^sidecarset: skipped: state collection "sets" is missing/)]);
    expect(reads).toBe(1);
  });

  it.each<[string, ClusterState['collection'], number, 'timeout' | 'error']>([
    ['times out', never, 20, 'timeout'],
    ['fails', async () => Promise.reject(new Error('storage unavailable')), 1_000, 'error'],
  ])('a state read that %s with last-known: admitted unchanged with a warning, counted', async (_name, collection, budgetMs, reason) => {
    const res = await admit(endpoint('mutating', [handler('sidecarset', inject, { needs: lastKnown() })]), reviewBody(), { clusterId: 'prod', state: { collection }, now: NOW, budgetMs });
    const { response } = res.body as AdmissionReviewResponse;
    expect(response).toMatchObject({ allowed: true, warnings: [expect.stringMatching(/^sidecarset: skipped: /)] });
    expect(res.fallbacks).toEqual([{ feature: 'sidecarset', reason }]);
  });

  it('a failing handler with last-known is skipped with a warning (withoutState deny: 500), counted', async () => {
    const boom = () => Promise.reject(new Error('boom'));
    const skipped = await admitWith(lastKnown(), { sets: held(0) }, boom);
    expect(skipped.response).toMatchObject({ allowed: true, warnings: ['sidecarset: skipped: failed: boom'] });
    expect(skipped.fallbacks).toEqual([{ feature: 'sidecarset', reason: 'error' }]);
    const refused = await admitWith(lastKnown(['sets'], 'deny'), { sets: held(0) }, boom, 'validating');
    expect(refused.response.status).toMatchObject({ code: 500, message: 'sidecarset: failed: boom' });
  });

  it('a handler\'s own budget refusal is its verdict, not a fallback (PUB disruption keeps refusing an unknown budget)', async () => {
    const unknownBudget = () => deny(503, 'podunavailablebudget "web": its budget is not known yet; retry shortly');
    const { response, fallbacks } = await admitWith(lastKnown(), { sets: held(600_000) }, unknownBudget, 'validating');
    expect(response.status).toMatchObject({ code: 503, message: expect.stringContaining('its budget is not known yet') });
    expect(fallbacks).toEqual([{ feature: 'sidecarset', reason: 'stale' }]);
  });
});

describe('admit: failing handlers', () => {
  it.each<[string, AdmissionHandler<Pod>]>([
    ['throws synchronously', () => {
      throw new Error('boom');
    }],
    ['rejects', async () => {
      throw new Error('boom');
    }],
  ])('a handler that %s is denied with 500, message but no stack', async (_name, h) => {
    const { status, response } = await run(endpoint('mutating', [handler('sidecarset', h)]));
    expect(status).toBe(200);
    expect(response.status).toEqual({ code: 500, reason: 'InternalError', status: 'Failure', message: 'sidecarset: failed: boom' });
  });

  it('a thrown non-Error is described, not dumped', async () => {
    const { response } = await run(
      endpoint('validating', [
        handler('x', () => {
          throw { secret: 'value' };
        }),
      ]),
    );
    expect(response.status?.message).toBe('x: failed: non-Error value thrown (object)');
  });

  it('a handler slower than the budget is denied with 504', async () => {
    const { response } = await run(endpoint('mutating', [handler('workloadspread', never)]), reviewBody(), { budgetMs: 20 });
    expect(response.status).toEqual({
      code: 504,
      reason: 'Timeout',
      status: 'Failure',
      message: "workloadspread: exceeded the request's time budget (20ms) while answering",
    });
  });

  it('the budget is shared: a slow first handler leaves nothing for the second', async () => {
    const slow: AdmissionHandler<Pod> = () => new Promise((resolve) => setTimeout(() => resolve(allow()), 30));
    const second = vi.fn(() => allow<Pod>());
    const { response } = await run(endpoint('validating', [handler('slow', slow), handler('second', second)]), reviewBody(), { budgetMs: 40 });
    // either the second handler ran within what was left, or it was refused for the budget
    if (second.mock.calls.length === 0) expect(response.status?.code).toBe(504);
    else expect(response.allowed).toBe(true);
  });

  it.each<[string, WebhookEndpoint]>([
    ['failurePolicy Ignore', endpoint('mutating', [handler('broken', () => Promise.reject(new Error('boom'))), handler('label', addLabel('x'))], 'Ignore')],
    [
      'needs.fallback allow',
      endpoint('mutating', [
        handler('broken', () => Promise.reject(new Error('boom')), { needs: { collections: [], maxStalenessMs: 1, fallback: 'allow' } }),
        handler('label', addLabel('x')),
      ]),
    ],
  ])('with %s a thrown handler is skipped with a warning', async (_name, ep) => {
    const { response } = await run(ep);
    expect(response.allowed).toBe(true);
    expect(response.warnings).toEqual(['broken: skipped: failed: boom']);
    expect(decodePatch(response.patch)).toEqual([{ op: 'add', path: '/metadata/labels/x', value: 'yes' }]);
  });

  it('with failurePolicy Ignore a slow handler is skipped, and its late changes are lost', async () => {
    const late: AdmissionHandler<Pod> = (req) =>
      new Promise((resolve) =>
        setTimeout(() => {
          const p = req.object!;
          resolve(allow({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, late: 'yes' } } }));
        }, 50),
      );
    const { response } = await run(endpoint('mutating', [handler('late', late)], 'Ignore'), reviewBody(), { budgetMs: 10 });
    expect(response).toEqual({ uid: 'uid-1', allowed: true, warnings: ["late: skipped: exceeded the request's time budget (10ms) while answering"] });
  });

  it.each<[string, unknown, string]>([
    ['nothing', undefined, 'not a verdict'],
    ['a code outside 4xx/5xx', { allowed: false, code: 200, message: 'x' }, 'code 200 is not a 4xx/5xx status'],
    ['a denial without message', { allowed: false, code: 403 }, 'a denial needs a message'],
    ['a non-object object', { allowed: true, object: 'pod' }, 'object must be an object'],
  ])('a handler returning %s is treated as failed', async (_name, verdict, why) => {
    const { response } = await run(endpoint('mutating', [handler('bad', () => verdict as never)]));
    expect(response.status).toMatchObject({ code: 500, message: `bad: returned an invalid verdict: ${why}` });
  });

  it('an object too deeply nested to freeze is an internal error, not a crash', async () => {
    const deep = `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`;
    const body = reviewBody({ object: { metadata: {} } }).replace('"metadata":{}', `"metadata":{},"deep":${deep}`);
    const { status, response } = await run(endpoint('mutating', [handler('label', addLabel('x'))]), body);
    expect(status).toBe(200);
    expect(response).toMatchObject({ uid: 'uid-1', allowed: false, status: { code: 500, message: expect.stringMatching(/^mutating\.test: admission failed: /) } });
  });
});

describe('admit: the review on the wire', () => {
  it('answers v1beta1 in v1beta1 and echoes the uid', async () => {
    const { status, review } = await run(endpoint('validating', []), reviewBody({ uid: 'abc-123' }, 'admission.k8s.io/v1beta1'));
    expect(status).toBe(200);
    expect(review).toEqual({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'abc-123', allowed: true } });
  });

  it('round-trips a non-ASCII patch', async () => {
    const note = 'Größe: 日本語 🚀';
    const { response } = await run(
      endpoint('mutating', [
        handler('note', (req) => allow({ ...req.object!, metadata: { ...req.object!.metadata, annotations: { note } } })),
      ]),
    );
    const patched = jsonpatch.applyPatch(pod(), decodePatch(response.patch)).newDocument;
    expect(patched.metadata.annotations).toEqual({ note });
  });

  it('an invalid review without a uid is HTTP 400 with an error', async () => {
    const res = await admit(endpoint('validating', []), '{"request":', { clusterId: 'c', state: stateOf(), now: NOW, budgetMs: 100 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringMatching(/^body: invalid JSON/) });
  });

  it('an invalid review with a uid is an AdmissionReview with code 400', async () => {
    const { status, review } = await run(endpoint('validating', []), reviewBody({ operation: 'PATCH' }, 'admission.k8s.io/v1beta1'));
    expect(status).toBe(200);
    expect(review).toEqual({
      apiVersion: 'admission.k8s.io/v1beta1',
      kind: 'AdmissionReview',
      response: {
        uid: 'uid-1',
        allowed: false,
        status: { code: 400, reason: 'BadRequest', status: 'Failure', message: 'request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"' },
      },
    });
  });

  it('an oversized body is HTTP 413, unparsed', async () => {
    const res = await admit(endpoint('validating', []), ' '.repeat(MAX_REVIEW_BYTES + 1), { clusterId: 'c', state: stateOf(), now: NOW, budgetMs: 100 });
    expect(res).toEqual({ status: 413, body: { error: expect.stringMatching(/^request entity too large/) } });
  });

  it.each([
    [403, 'Forbidden'],
    [429, 'TooManyRequests'],
    [400, 'BadRequest'],
    [500, 'InternalError'],
    [503, 'ServiceUnavailable'],
    [504, 'Timeout'],
    [418, undefined],
  ])('a %i denial has reason %s', (code, reason) => {
    const status = admissionReview('admission.k8s.io/v1', 'u', { allowed: false, code, message: 'm' }).response.status;
    expect(status).toEqual({ code, message: 'm', status: 'Failure', ...(reason ? { reason } : {}) });
  });

  it('omits the patch when there are no operations', () => {
    expect(admissionReview('admission.k8s.io/v1', 'u', { allowed: true, patch: [] }).response).toEqual({ uid: 'u', allowed: true });
  });
});
