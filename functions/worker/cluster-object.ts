// One Durable Object per cluster: the cluster's credentials and every collection pushed for it.
// A shell around the pure pieces (auth rotation, sync planning): load, decide, store. Requests
// to one object are serialized, so a push's plan and write cannot interleave with another's.
import { applyRotation, type CredentialRotation } from '../../src/app.js';
import type { ClusterCredentials } from '../../src/admission/auth.js';
import { parseSyncPayload, planSyncWrite, type CollectionMeta, type EdgeVersions, type SyncItem } from '../../src/admission/sync.js';
import type { DurableObjectState } from './platform.js';

type Held = { meta: CollectionMeta; items: Map<string, SyncItem> };

const CREDS = 'creds';
const META = 'meta/';
const ITEM = 'item/';
const PUT_BATCH = 128; // the storage API's limit on keys per put

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export class ClusterObject {
  private creds: ClusterCredentials | undefined;
  private readonly held = new Map<string, Held>();

  constructor(private readonly state: DurableObjectState) {
    void state.blockConcurrencyWhile(() => this.load());
  }

  private async load(): Promise<void> {
    this.creds = await this.state.storage.get<ClusterCredentials>(CREDS);
    const metas = await this.state.storage.list<CollectionMeta>({ prefix: META });
    for (const [key, meta] of metas) {
      const name = key.slice(META.length);
      const items = await this.state.storage.list<SyncItem>({ prefix: `${ITEM}${name}/` });
      this.held.set(name, { meta, items: new Map([...items].map(([k, v]) => [k.slice(`${ITEM}${name}/`.length), v])) });
    }
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const [, op = '', name = ''] = url.pathname.split('/');
    switch (`${request.method} ${op}`) {
      case 'GET credentials':
        return this.creds ? json(this.creds) : json({ error: 'unknown cluster' }, 404);
      case 'PUT credentials':
        if (this.creds) return json({ error: 'exists' }, 409);
        this.creds = (await request.json()) as ClusterCredentials;
        await this.state.storage.put({ [CREDS]: this.creds });
        return json(this.creds, 201);
      case 'POST rotate': {
        if (!this.creds) return json({ error: 'unknown cluster' }, 404);
        this.creds = applyRotation(this.creds, (await request.json()) as CredentialRotation);
        await this.state.storage.put({ [CREDS]: this.creds });
        return json(this.creds);
      }
      case 'DELETE cluster':
        await this.state.storage.deleteAll();
        this.creds = undefined;
        this.held.clear();
        return json({ ok: true });
      case 'GET collection': {
        const h = this.held.get(name);
        if (!h) return json({ error: 'not pushed' }, 404);
        return json({ items: [...h.items.values()], resourceVersion: h.meta.resourceVersion, observedAt: h.meta.observedAt });
      }
      case 'GET meta': {
        const h = this.held.get(name);
        return h ? json(h.meta) : json({ error: 'not pushed' }, 404);
      }
      case 'GET versions': {
        const v = this.versions(name);
        return v ? json(v) : json({ error: 'not pushed' }, 404);
      }
      case 'PUT sync':
        return this.sync(name, await request.json());
      case 'GET summary':
        return json(Object.fromEntries([...this.held].map(([k, h]) => [k, h.meta])));
      default:
        return json({ error: 'no such operation' }, 404);
    }
  }

  private versions(name: string): EdgeVersions | undefined {
    const h = this.held.get(name);
    if (!h) return undefined;
    const items: Record<string, string> = {};
    for (const [k, v] of h.items) items[k] = v.metadata?.resourceVersion ?? '';
    return { meta: h.meta, items };
  }

  private async sync(name: string, body: unknown): Promise<Response> {
    const payload = parseSyncPayload(body);
    if (typeof payload === 'string') return json({ error: payload }, 400);
    const outcome = planSyncWrite(this.versions(name), payload);
    if (!outcome.ok) return json({ error: outcome.message }, outcome.status);
    const { meta, puts, deletes } = outcome.plan;
    const prefix = `${ITEM}${name}/`;
    if (deletes.length) await this.state.storage.delete(deletes.map((k) => prefix + k));
    for (let i = 0; i < puts.length; i += PUT_BATCH) {
      await this.state.storage.put(Object.fromEntries(puts.slice(i, i + PUT_BATCH).map(([k, v]) => [prefix + k, v])));
    }
    await this.state.storage.put({ [META + name]: meta });
    const h = this.held.get(name) ?? { meta, items: new Map<string, SyncItem>() };
    for (const k of deletes) h.items.delete(k);
    for (const [k, v] of puts) h.items.set(k, v);
    h.meta = meta;
    this.held.set(name, h);
    return json(meta);
  }
}
