// A raw JSON client for the API server (Node only). We use it instead of client-node's typed
// API classes because those re-serialise objects through their models, which silently drops
// fields the models don't know (e.g. `x-kubernetes-int-or-string` in a CRD, or any field newer
// than the client). Credentials and CA come from the kubeconfig (./kubeconfig.ts).
import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { connectionOfClientNode, loadKubeConnection, type KubeConnection } from './kubeconfig.js';
import { KubeApiError } from './errors.js';
import { OwnWritesFloor, isWriteMethod } from './own-writes-floor.js';
import { listPageReader, type BodyReader, type ListPage } from './list-page.js';
import { clientLimitsFromEnv, type ClientLimits } from './client-limits.js';
import { recordApiCall } from '../telemetry/record.js';
import { RequestLimiter, realClock, type Clock, type RequestStats } from './request-limiter.js';
import { KubeTransportError, retryDelayMs, type AttemptOutcome } from './retry-policy.js';

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
  /** Reads a 2xx response's body as it arrives, instead of keeping and parsing it; the request resolves with `end()`. One reader per attempt. */
  read?: () => BodyReader<unknown>;
};

export type WatchEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; object: KubeObject };

export type KubeHttpOptions = {
  /** Defaults: clientLimitsFromEnv() (KS_KUBE_QPS, KS_KUBE_BURST). */
  limits?: ClientLimits;
  /** One attempt's deadline, from sending to the last byte of the answer. */
  requestTimeoutMs?: number;
  /** How long after its timeoutSeconds a watch the server has not ended is given up (WATCH_GRACE_MS). */
  watchGraceMs?: number;
  clock?: Clock;
  random?: () => number;
};

/** One attempt of a request: a LIST page of 500 pods takes well under a second. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How long after its timeoutSeconds a watch the server has not ended is given up. */
export const WATCH_GRACE_MS = 10_000;

type Tls = { ca?: string; cert?: string; key?: string; rejectUnauthorized?: boolean; servername?: string };

interface DiscoveredResource { name: string; namespaced: boolean; kind: string }

export class KubeHttp {
  /** How many API calls this client has made (retries not counted again): reconcilers report it per invocation. */
  calls = 0;
  /** What a `readYourWrites` LIST may read from the API server's watch cache (own-writes-floor.ts). */
  private readonly floor = new OwnWritesFloor();
  private readonly discovery = new Map<string, Promise<DiscoveredResource[]>>();
  private readonly limiter: RequestLimiter;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly requestTimeoutMs: number;
  private readonly watchGraceMs: number;
  private readonly transport: typeof https | typeof http;
  /** Requests: as many sockets as requests may be in flight, so none waits unseen in the agent. */
  private readonly requestAgent: http.Agent;
  /** Watches: their own pool, uncapped, so a watch never holds a request's connection. */
  private readonly watchAgent: http.Agent;

  private constructor(
    private readonly server: string,
    private readonly headers: Record<string, string>,
    tls: Tls,
    opts: KubeHttpOptions,
  ) {
    const limits = opts.limits ?? clientLimitsFromEnv();
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.watchGraceMs = opts.watchGraceMs ?? WATCH_GRACE_MS;
    this.limiter = new RequestLimiter({ ...limits, clock: this.clock });
    const secure = new URL(server).protocol === 'https:';
    this.transport = secure ? https : http;
    const agentOptions = { keepAlive: true, ...(secure ? tls : {}) };
    this.requestAgent = secure ? new https.Agent({ ...agentOptions, maxSockets: limits.maxInFlight }) : new http.Agent({ ...agentOptions, maxSockets: limits.maxInFlight });
    this.watchAgent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  /** Closes pooled connections, so a process can exit promptly. */
  close(): void {
    this.requestAgent.destroy();
    this.watchAgent.destroy();
  }

  static connect(c: KubeConnection, opts: KubeHttpOptions = {}): KubeHttp {
    const tls: Tls = { ca: c.ca, cert: c.cert, key: c.key, rejectUnauthorized: c.rejectUnauthorized, ...(c.servername ? { servername: c.servername } : {}) };
    return new KubeHttp(c.server, { ...c.headers }, tls, opts);
  }

  /** A client for a kubeconfig file (see loadKubeConnection: $KUBECONFIG, ~/.kube/config or in-cluster when absent). */
  static async fromKubeConfigFile(path?: string): Promise<KubeHttp> {
    return KubeHttp.connect(await loadKubeConnection(path));
  }

  /** A client for a client-node KubeConfig (tests and tools that already hold one). */
  static async fromKubeConfig(kc: KubeConfig): Promise<KubeHttp> {
    return KubeHttp.connect(await connectionOfClientNode(kc));
  }

  /** Requests sent (each attempt; watches not counted), in flight, waiting, and how long they waited to be sent. */
  stats(): RequestStats {
    return this.limiter.stats();
  }

  /**
   * One API call: waits its turn (QPS and requests in flight), then sends; tries again after a 429,
   * or a read after a 5xx or a lost connection (see retry-policy.ts).
   */
  async request<T = unknown>(method: string, path: string, init: RequestInit = {}): Promise<T> {
    this.calls += 1;
    if (!isWriteMethod(method)) return this.attempts<T>(method, path, init);
    try {
      const answer = await this.attempts<T>(method, path, init);
      this.floor.wrote(path, answer);
      return answer;
    } catch (e) {
      // Refused (4xx): nothing was written. Otherwise it may have been: the next read asks etcd.
      if (!(e instanceof KubeApiError && e.status >= 400 && e.status < 500)) this.floor.lost(path);
      throw e;
    }
  }

  private async attempts<T>(method: string, path: string, init: RequestInit): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const asked = this.clock.now();
      const release = await this.limiter.acquire();
      const sent = this.clock.now();
      let answer: Awaited<ReturnType<KubeHttp['send']>> | undefined;
      let outcome: AttemptOutcome;
      try {
        answer = await this.send(method, path, init);
        outcome = { status: answer.status, ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) };
      } catch (error) {
        outcome = { error };
      } finally {
        release();
      }
      recordApiCall(method, answer?.status ?? 0, sent - asked, this.clock.now() - sent);
      if (answer && answer.status >= 200 && answer.status < 300) return (answer.read ? answer.read.end() : parseResponse<T>(method, path, answer.status, answer.text)) as T;
      const delay = retryDelayMs(method, outcome, attempt, this.random);
      if (delay === undefined) {
        if ('error' in outcome) throw outcome.error;
        return parseResponse<T>(method, path, outcome.status, answer?.text ?? '');
      }
      await this.clock.sleep(delay);
    }
  }

  private url(path: string, query: RequestInit['query'] = {}): URL {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** One attempt: its status and body text (empty when `init.read` read the body). */
  private send(method: string, path: string, init: RequestInit): Promise<{ status: number; text: string; retryAfter?: string; read?: BodyReader<unknown> }> {
    const url = this.url(path, init.query);
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const headers: Record<string, string> = { ...this.headers, Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = init.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      let timedOut: KubeTransportError | undefined;
      const lost = (why: string, cause?: unknown) => timedOut ?? new KubeTransportError(`${method} ${path}: ${why}`, cause === undefined ? undefined : { cause });
      const req = this.transport.request(url, { method, headers, agent: this.requestAgent }, (res) => {
        // Strings, not Buffers: a page's Buffers are external memory, which V8 collects late.
        res.setEncoding('utf8');
        const status = res.statusCode ?? 0;
        const read = status >= 200 && status < 300 ? init.read?.() : undefined;
        const retryAfter = res.headers['retry-after'];
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
        res.on('end', () => resolve({ status, text: chunks.join(''), ...(retryAfter !== undefined ? { retryAfter } : {}), ...(read ? { read } : {}) }));
        res.on('error', (e) => reject(lost(e.message, e)));
        res.on('close', () => res.complete || reject(lost('connection closed before the answer ended')));
      });
      const deadline = setTimeout(() => {
        timedOut = lost(`no answer within ${this.requestTimeoutMs / 1000}s`);
        req.destroy(timedOut);
      }, this.requestTimeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('error', (e) => reject(e instanceof KubeTransportError ? e : lost(e.message, e)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /**
   * Watches a kind (all namespaces unless given, optionally by label and field selector) from
   * `resourceVersion` for at most `timeoutSeconds`, calling `onEvent` per event. Resolves when the
   * server ends the watch, `signal` aborts it, or nothing arrives for `idleSeconds` (a dead
   * connection looks like that: the caller watches again from the last version it saw). Rejects
   * when the server has not ended it watchGraceMs after its timeout.
   * Watches take no request slot: their own connections, outside the QPS and in-flight limits.
   */
  async watch(
    apiVersion: string,
    kind: string,
    opts: { resourceVersion: string; timeoutSeconds: number; idleSeconds?: number; signal?: AbortSignal; namespace?: string; labelSelector?: string; fieldSelector?: string },
    onEvent: (e: WatchEvent) => void,
  ): Promise<void> {
    this.calls += 1;
    const path = (await this.pathFor(apiVersion, kind, opts.namespace ?? '__all__')).replace('/namespaces/__all__', '');
    const url = this.url(path, {
      watch: 'true', resourceVersion: opts.resourceVersion, timeoutSeconds: opts.timeoutSeconds, allowWatchBookmarks: 'true',
      labelSelector: opts.labelSelector || undefined, fieldSelector: opts.fieldSelector || undefined,
    });
    await new Promise<void>((resolve, reject) => {
      let idle: NodeJS.Timeout | undefined;
      let endedIdle = false;
      const armIdle = () => {
        if (opts.idleSeconds === undefined) return;
        clearTimeout(idle);
        idle = setTimeout(() => {
          endedIdle = true;
          req.destroy();
        }, opts.idleSeconds * 1000);
      };
      const stopped = () => opts.signal?.aborted || endedIdle;
      let overdue: KubeTransportError | undefined;
      const lost = (why: string, cause?: unknown) => overdue ?? new KubeTransportError(`watch ${kind}: ${why}`, cause === undefined ? undefined : { cause });
      const req = this.transport.request(url, { method: 'GET', headers: { ...this.headers, Accept: 'application/json' }, agent: this.watchAgent, signal: opts.signal }, (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          res.resume();
          return reject(new KubeApiError(res.statusCode ?? 0, 'WatchFailed', `watch ${kind}: ${res.statusCode}`));
        }
        armIdle();
        // Decoded by the stream, so a character split between two chunks stays whole.
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (c: string) => {
          armIdle();
          buffer += c;
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            try {
              if (!line) continue;
              const event = JSON.parse(line) as WatchEvent;
              if (event.type !== 'ERROR') this.floor.saw(path, event.object.metadata?.resourceVersion);
              onEvent(event);
            } catch (e) {
              req.destroy();
              return reject(e instanceof Error ? new Error(`watch ${kind}: ${e.message}`, { cause: e }) : e);
            }
          }
        });
        res.on('end', () => resolve());
        // Aborting mid-stream errors the response too ("aborted"): that is the caller's stop.
        res.on('error', (e) => (stopped() ? resolve() : reject(lost(e.message, e))));
        res.on('close', () => (stopped() || res.complete ? resolve() : reject(lost('connection closed'))));
      });
      armIdle();
      const deadline = setTimeout(() => {
        overdue = lost(`not ended by the server ${this.watchGraceMs / 1000}s after its ${opts.timeoutSeconds}s timeout`);
        req.destroy(overdue);
      }, opts.timeoutSeconds * 1000 + this.watchGraceMs);
      req.on('close', () => {
        clearTimeout(deadline);
        clearTimeout(idle);
        if (stopped()) resolve();
      });
      req.on('error', (e) => (stopped() ? resolve() : reject(e instanceof KubeTransportError ? e : lost(e.message, e))));
      req.end();
    });
  }

  /** The REST path of a kind's collection (and of one object, given a name), via discovery. */
  async pathFor(apiVersion: string, kind: string, namespace?: string, name?: string): Promise<string> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const wasCached = this.discovery.has(apiVersion);
    let res = await this.discoverKind(base, apiVersion, kind);
    // A CRD established after the version was first discovered: look once more, as client-go's
    // deferred REST mapper resets on a miss.
    if (!res && wasCached) {
      this.discovery.delete(apiVersion);
      res = await this.discoverKind(base, apiVersion, kind);
    }
    if (!res) throw new KubeApiError(404, 'NotFound', `the API server does not serve ${kind} in ${apiVersion}`);
    const ns = res.namespaced ? `/namespaces/${namespace ?? 'default'}` : '';
    return `${base}${ns}/${res.name}${name ? `/${name}` : ''}`;
  }

  private async discoverKind(base: string, apiVersion: string, kind: string): Promise<DiscoveredResource | undefined> {
    let resources = this.discovery.get(apiVersion);
    if (!resources) {
      resources = this.request<{ resources: DiscoveredResource[] }>('GET', base).then((r) => r.resources);
      this.discovery.set(apiVersion, resources);
      resources.catch(() => this.discovery.delete(apiVersion));
    }
    return (await resources).find((r) => r.kind === kind && !r.name.includes('/'));
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
   * without `metadata.managedFields` unless asked to keep them: few readers need them, they are often the larger part of a
   * pod, and a PUT that leaves them out keeps the server's.
   */
  async list<T extends KubeObject>(apiVersion: string, kind: string, opts: { namespace?: string; labelSelector?: string; fieldSelector?: string; limit?: number; managedFields?: 'keep'; readYourWrites?: boolean } = {}): Promise<{ items: T[]; resourceVersion: string }> {
    let path = await this.pathFor(apiVersion, kind, opts.namespace ?? '__all__');
    path = path.replace('/namespaces/__all__', '');
    const items: T[] = [];
    const strings = new Map<string, string>();
    const keep = opts.managedFields === 'keep';
    const stored = (it: T): T => ({ apiVersion, kind, ...it, ...(it.metadata && !keep ? { metadata: withoutManagedFields(it.metadata) } : {}) });
    let cont: string | undefined;
    let resourceVersion = '';
    // At least as new as this client's own writes, from the watch cache: one request, no pages
    // (the API server sends a LIST with a limit and a resourceVersion to etcd).
    const cached = opts.readYourWrites ? this.floor.version(path) : undefined;
    do {
      const query = cached
        ? { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector, resourceVersion: cached }
        : { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector, limit: opts.limit ?? 500, continue: cont };
      const page = await this.request<ListPage<T>>('GET', path, { query, read: () => listPageReader(strings, stored, { managedFields: opts.managedFields }) });
      for (const it of page.items) items.push(it);
      cont = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion;
    } while (cont && !cached);
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
