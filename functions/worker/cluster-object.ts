// One Durable Object per cluster: the cluster's credentials, every collection pushed for it, and
// the change events held back by debouncing (held-events.ts, whose alarm is this object's).
// A shell around the pure pieces (auth rotation, sync planning): load, decide, store. Requests
// to one object are serialized, so a push's plan and write cannot interleave with another's.
import { applyRotation, type CredentialRotation } from '../../src/app.js';
import type { ClusterCredentials } from '../../src/edge-state/auth.js';
import { parseSyncPayload, type CollectionMeta, type SyncItem } from '../../src/edge-state/sync.js';
import { HeldState } from '../../src/edge-state/held.js';
import { parseAdmittedWrites, parseReadRequest, routeOf } from '../../src/edge-state/routes.js';
import type { AdmittedWrite } from '../../src/edge-state/admitted.js';
import type { DurableObjectState, Env } from './platform.js';
import { HeldEvents, parseDebounceBody } from './held-events.js';
import { eventBridgeSink } from './event-sink.js';

const CREDS = 'creds';
const META = 'meta/';
const ITEM = 'item/';
const ADMITTED = 'admitted/';
const WRITTEN = 'written/'; // per collection: when an admitted write last showed it current
const PUT_BATCH = 128; // the storage API's limit on keys per put or delete

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export class ClusterObject {
  private creds: ClusterCredentials | undefined;
  private readonly held = new HeldState();
  private readonly events: HeldEvents;

  constructor(private readonly state: DurableObjectState, env: Env) {
    this.events = new HeldEvents(state.storage, eventBridgeSink(env));
    void state.blockConcurrencyWhile(() => this.load());
  }

  async alarm(): Promise<void> {
    await this.events.alarm();
  }

  private async load(): Promise<void> {
    this.creds = await this.state.storage.get<ClusterCredentials>(CREDS);
    const metas = await this.state.storage.list<CollectionMeta>({ prefix: META });
    for (const [key, meta] of metas) {
      const name = key.slice(META.length);
      const items = await this.state.storage.list<SyncItem>({ prefix: `${ITEM}${name}/` });
      this.held.restore(name, meta, [...items].map(([k, v]) => [k.slice(`${ITEM}${name}/`.length), v]));
    }
    this.held.admit([...(await this.state.storage.list<AdmittedWrite>({ prefix: ADMITTED })).values()]);
    this.held.wrote([...(await this.state.storage.list<number>({ prefix: WRITTEN }))].map(([k, at]) => [k.slice(WRITTEN.length), at] as const));
    await this.events.load();
  }

  async fetch(request: Request): Promise<Response> {
    const at = routeOf(request.method, new URL(request.url).pathname);
    if (!at) return json({ error: 'no such operation' }, 404);
    const { name } = at;
    switch (at.route) {
      case 'getCredentials':
        return this.creds ? json(this.creds) : json({ error: 'unknown cluster' }, 404);
      case 'putCredentials':
        if (this.creds) return json({ error: 'exists' }, 409);
        this.creds = (await request.json()) as ClusterCredentials;
        await this.state.storage.put({ [CREDS]: this.creds });
        return json(this.creds, 201);
      case 'rotate': {
        if (!this.creds) return json({ error: 'unknown cluster' }, 404);
        this.creds = applyRotation(this.creds, (await request.json()) as CredentialRotation);
        await this.state.storage.put({ [CREDS]: this.creds });
        return json(this.creds);
      }
      case 'deleteCluster':
        await this.state.storage.deleteAll();
        this.creds = undefined;
        this.held.clear();
        await this.events.clear();
        return json({ ok: true });
      case 'collection': {
        const snap = this.held.snapshot(name);
        return snap ? json(snap) : json({ error: 'not pushed' }, 404);
      }
      case 'read': {
        const req = parseReadRequest(await request.json());
        return typeof req === 'string' ? json({ error: req }, 400) : json(this.held.read(req.names, req.have));
      }
      case 'admit': {
        const writes = parseAdmittedWrites(await request.json());
        if (typeof writes === 'string') return json({ error: writes }, 400);
        // In memory first, as merged (a scale lands on the item an earlier write put); a failed
        // storage write resets the object, dropping both.
        const stored = this.held.admit(writes);
        const written = this.held.lastWrites();
        await this.state.storage.put({
          ...Object.fromEntries(stored.map((w) => [`${ADMITTED}${w.collection}/${w.key}`, w])),
          ...Object.fromEntries([...new Set(writes.map((w) => w.collection))].map((c) => [WRITTEN + c, written[c]])),
        });
        return json({ ok: true });
      }
      case 'versions': {
        const v = this.held.versions(name);
        return v ? json(v) : json({ error: 'not pushed' }, 404);
      }
      case 'sync':
        return this.sync(name, await request.json());
      case 'summary':
        return json(this.held.summary());
      case 'debounce': {
        const events = parseDebounceBody(await request.json());
        return typeof events === 'string' ? json({ error: events }, 400) : json(await this.events.offer(events));
      }
    }
  }

  private async sync(name: string, body: unknown): Promise<Response> {
    const payload = parseSyncPayload(body);
    if (typeof payload === 'string') return json({ error: payload }, 400);
    const outcome = this.held.plan(name, payload);
    if (!outcome.ok) return json({ error: outcome.message, ...(outcome.reason ? { reason: outcome.reason } : {}) }, outcome.status);
    const { meta, puts, deletes } = outcome.plan;
    const prefix = `${ITEM}${name}/`;
    await this.deleteKeys(deletes.map((k) => prefix + k));
    for (let i = 0; i < puts.length; i += PUT_BATCH) {
      await this.state.storage.put(Object.fromEntries(puts.slice(i, i + PUT_BATCH).map(([k, v]) => [prefix + k, v])));
    }
    await this.state.storage.put({ [META + name]: meta });
    const settled = this.held.applyPlan(name, outcome.plan);
    await this.deleteKeys(settled.map((k) => `${ADMITTED}${name}/${k}`));
    return json(meta);
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += PUT_BATCH) await this.state.storage.delete(keys.slice(i, i + PUT_BATCH));
  }
}
