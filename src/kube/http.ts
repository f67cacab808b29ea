// A raw JSON client for the API server (Node only). We use it instead of client-node's typed
// API classes because those re-serialise objects through their models, which silently drops
// fields the models don't know (e.g. `x-kubernetes-int-or-string` in a CRD, or any field newer
// than the client). Credentials and CA come from the kubeconfig (./kubeconfig.ts).
import { Agent, request, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { connectionOfClientNode, loadKubeConnection, type KubeConnection } from './kubeconfig.js';
import { KubeApiError } from './errors.js';
import { listPageReader, type BodyReader, type ListPage } from './list-page.js';

export type KubeObject = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; [k: string]: unknown };
  [k: string]: unknown;
};

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';
const PATCH_CONTENT: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

type RequestInit = {
  body?: unknown;
  contentType?: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Reads a 2xx response's body as it arrives, instead of keeping and parsing it; the request resolves with `end()`. */
  read?: BodyReader<unknown>;
};

export class KubeHttp {
  /** How many requests this client has sent: reconcilers report it per invocation. */
  calls = 0;
  private readonly discovery = new Map<string, Promise<{ name: string; namespaced: boolean; kind: string }[]>>();

  private constructor(
    private readonly server: string,
    private readonly base: RequestOptions,
  ) {}

  /** Closes pooled connections, so a process can exit promptly. */
  close(): void {
    (this.base.agent as Agent | undefined)?.destroy();
  }

  static connect(c: KubeConnection): KubeHttp {
    const tls = { ca: c.ca, cert: c.cert, key: c.key, rejectUnauthorized: c.rejectUnauthorized, ...(c.servername ? { servername: c.servername } : {}) };
    return new KubeHttp(c.server, { headers: { ...c.headers }, ...tls, agent: new Agent({ keepAlive: true, maxSockets: 32, ...tls }) });
  }

  /** A client for a kubeconfig file (see loadKubeConnection: $KUBECONFIG, ~/.kube/config or in-cluster when absent). */
  static async fromKubeConfigFile(path?: string): Promise<KubeHttp> {
    return KubeHttp.connect(await loadKubeConnection(path));
  }

  /** A client for a client-node KubeConfig (tests and tools that already hold one). */
  static async fromKubeConfig(kc: KubeConfig): Promise<KubeHttp> {
    return KubeHttp.connect(await connectionOfClientNode(kc));
  }

  async request<T = unknown>(method: string, path: string, init: RequestInit = {}): Promise<T> {
    const { status, text, read } = await this.send(method, path, init);
    if (read) return read.end() as T;
    return parseResponse<T>(method, path, status, text);
  }

  /** One request's status and body text (empty when `init.read` read the body). */
  private send(method: string, path: string, init: RequestInit = {}): Promise<{ status: number; text: string; read?: BodyReader<unknown> }> {
    this.calls += 1;
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const headers: Record<string, string> = { ...(this.base.headers as Record<string, string>), Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = init.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const req = request(url, { ...this.base, method, headers }, (res) => {
        // Strings, not Buffers: a page's Buffers are external memory, which V8 collects late.
        res.setEncoding('utf8');
        const status = res.statusCode ?? 0;
        const read = status >= 200 && status < 300 ? init.read : undefined;
        const chunks: string[] = [];
        res.on('data', (c: string) => {
          if (!read) return void chunks.push(c);
          try {
            read.write(c);
          } catch (e) {
            res.destroy();
            reject(e instanceof Error ? new Error(`${method} ${path}: ${e.message}`, { cause: e }) : e);
          }
        });
        res.on('end', () => resolve({ status, text: chunks.join(''), ...(read ? { read } : {}) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path}: timed out`)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /**
   * Watches a kind (all namespaces unless given, optionally by label and field selector) from
   * `resourceVersion` for at most `timeoutSeconds`, calling `onEvent` per event. Resolves when the
   * server ends the watch (or `signal` aborts it).
   */
  async watch(
    apiVersion: string,
    kind: string,
    opts: { resourceVersion: string; timeoutSeconds: number; signal?: AbortSignal; namespace?: string; labelSelector?: string; fieldSelector?: string },
    onEvent: (e: { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; object: KubeObject }) => void,
  ): Promise<void> {
    this.calls += 1;
    const path = (await this.pathFor(apiVersion, kind, opts.namespace ?? '__all__')).replace('/namespaces/__all__', '');
    const url = new URL(this.server + path);
    url.searchParams.set('watch', 'true');
    url.searchParams.set('resourceVersion', opts.resourceVersion);
    url.searchParams.set('timeoutSeconds', String(opts.timeoutSeconds));
    url.searchParams.set('allowWatchBookmarks', 'true');
    if (opts.labelSelector) url.searchParams.set('labelSelector', opts.labelSelector);
    if (opts.fieldSelector) url.searchParams.set('fieldSelector', opts.fieldSelector);
    await new Promise<void>((resolve, reject) => {
      const req = request(url, { ...this.base, method: 'GET', headers: { ...(this.base.headers as Record<string, string>), Accept: 'application/json' }, signal: opts.signal }, (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          res.resume();
          return reject(new KubeApiError(res.statusCode ?? 0, 'WatchFailed', `watch ${kind}: ${res.statusCode}`));
        }
        let buffer = '';
        res.on('data', (c: Buffer) => {
          buffer += c.toString('utf8');
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (line) onEvent(JSON.parse(line) as Parameters<typeof onEvent>[0]);
          }
        });
        res.on('end', () => resolve());
        // Aborting mid-stream errors the response too ("aborted"): that is the caller's stop.
        res.on('error', (e) => (opts.signal?.aborted ? resolve() : reject(e)));
      });
      req.on('error', (e) => (opts.signal?.aborted ? resolve() : reject(e)));
      req.end();
    });
  }

  /** The REST path of a kind's collection (and of one object, given a name), via discovery. */
  async pathFor(apiVersion: string, kind: string, namespace?: string, name?: string): Promise<string> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    let resources = this.discovery.get(apiVersion);
    if (!resources) {
      resources = this.request<{ resources: { name: string; namespaced: boolean; kind: string }[] }>('GET', base).then((r) => r.resources);
      this.discovery.set(apiVersion, resources);
      resources.catch(() => this.discovery.delete(apiVersion));
    }
    const res = (await resources).find((r) => r.kind === kind && !r.name.includes('/'));
    if (!res) throw new KubeApiError(404, 'NotFound', `the API server does not serve ${kind} in ${apiVersion}`);
    const ns = res.namespaced ? `/namespaces/${namespace ?? 'default'}` : '';
    return `${base}${ns}/${res.name}${name ? `/${name}` : ''}`;
  }

  private async objectPath(obj: KubeObject, subresource?: string): Promise<string> {
    if (!obj.apiVersion || !obj.kind || !obj.metadata?.name) throw new Error('object needs apiVersion, kind and metadata.name');
    const p = await this.pathFor(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
    return subresource ? `${p}/${subresource}` : p;
  }

  get<T extends KubeObject>(apiVersion: string, kind: string, name: string, namespace?: string): Promise<T> {
    return this.pathFor(apiVersion, kind, namespace, name).then((p) => this.request<T>('GET', p));
  }

  /**
   * LISTs every object of a kind (all namespaces unless given), following `continue` pages, each
   * without `metadata.managedFields`: no reader needs them, they are often the larger part of a
   * pod, and a PUT that leaves them out keeps the server's.
   */
  async list<T extends KubeObject>(apiVersion: string, kind: string, opts: { namespace?: string; labelSelector?: string; fieldSelector?: string; limit?: number } = {}): Promise<{ items: T[]; resourceVersion: string }> {
    let path = await this.pathFor(apiVersion, kind, opts.namespace ?? '__all__');
    path = path.replace('/namespaces/__all__', '');
    const items: T[] = [];
    const strings = new Map<string, string>();
    const stored = (it: T): T => ({ apiVersion, kind, ...it, ...(it.metadata ? { metadata: withoutManagedFields(it.metadata) } : {}) });
    let cont: string | undefined;
    let resourceVersion = '';
    do {
      const query = { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector, limit: opts.limit ?? 500, continue: cont };
      const page = await this.request<ListPage<T>>('GET', path, { query, read: listPageReader(strings, stored) });
      for (const it of page.items) items.push(it);
      cont = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion;
    } while (cont);
    return { items, resourceVersion };
  }

  /** The collection's current resourceVersion (one page of one item), e.g. to start a watch. */
  async collectionVersion(apiVersion: string, kind: string): Promise<string> {
    const path = (await this.pathFor(apiVersion, kind, '__all__')).replace('/namespaces/__all__', '');
    const page = await this.request<{ metadata: { resourceVersion: string } }>('GET', path, { query: { limit: 1 } });
    return page.metadata.resourceVersion;
  }

  async create<T extends KubeObject>(obj: T, query?: RequestInit['query']): Promise<T> {
    const p = await this.pathFor(obj.apiVersion!, obj.kind!, obj.metadata?.namespace);
    return this.request<T>('POST', p, { body: obj, query });
  }

  /** PUT; with metadata.resourceVersion set this is a precondition (409 Conflict if stale). */
  async replace<T extends KubeObject>(obj: T, subresource?: string): Promise<T> {
    return this.request<T>('PUT', await this.objectPath(obj, subresource), { body: obj });
  }

  async patch<T extends KubeObject>(target: KubeObject, patch: unknown, type: PatchType = 'merge', subresource?: string, query?: RequestInit['query']): Promise<T> {
    return this.request<T>('PATCH', await this.objectPath(target, subresource), { body: patch, contentType: PATCH_CONTENT[type], query });
  }

  /** Server-side apply: creates or merges, owning only the fields in `obj`. */
  async apply<T extends KubeObject>(obj: T, fieldManager: string, force = true): Promise<T> {
    return this.patch<T>(obj, obj, 'apply', undefined, { fieldManager, force });
  }

  async delete(target: KubeObject, opts: { gracePeriodSeconds?: number; propagationPolicy?: string; preconditions?: { uid?: string; resourceVersion?: string } } = {}): Promise<void> {
    await this.request('DELETE', await this.objectPath(target), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...opts },
    });
  }
}

/** A response's JSON (its text when not JSON), or the KubeApiError of a status outside 2xx. */
function parseResponse<T>(method: string, path: string, status: number, text: string): T {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  if (status >= 200 && status < 300) return json as T;
  const s = (json ?? {}) as { reason?: string; message?: string };
  throw new KubeApiError(status, s.reason ?? 'Unknown', `${method} ${path}: ${status} ${s.message ?? text}`, json);
}

function withoutManagedFields<M extends object>(metadata: M): M {
  if (!('managedFields' in metadata)) return metadata;
  const { managedFields: _dropped, ...rest } = metadata as M & { managedFields?: unknown };
  return rest as M;
}
