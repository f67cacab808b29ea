// Who wrote what, for `npm run bench:cloneset`: every request a KubeHttp client sends, keyed
// `<VERB> <resource>[/<subresource>]` (LIST for a GET of a collection, LIST+ for its continuation
// pages, DISCOVERY for API discovery), and the kube-apiserver's own count (apiserver_request_total
// from /metrics) under the same keys, so a controller we cannot wrap (kube-controller-manager) is
// counted as what the API server saw minus the writers we can count.
import { readFileSync } from 'node:fs';
import type { KubeHttp } from '../../src/kube/http.js';

/**
 * This process's peak RSS in MB: Linux's VmHWM, which belongs to the process image. Not
 * process.resourceUsage().maxRSS: Linux carries that high-water mark across exec, so a child
 * spawned by a large parent reports at least the parent's RSS at the fork (a child of a 343 MB
 * parent reported 304 MB with a VmHWM of 41 MB).
 */
export function peakRssMb(): number {
  try {
    const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** Requests by key, e.g. `{ "PATCH pods/status": 200, "LIST pods": 1 }`. */
export type Tally = Record<string, number>;

const WRITE_VERBS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'DELETECOLLECTION', 'APPLY', 'CREATE', 'UPDATE']);

/** `resource[/subresource]` of an API path; events.k8s.io's events keep their group (the scheduler's). */
export function resourceOf(path: string): { resource: string; named: boolean } | undefined {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  let group = '';
  let rest: string[];
  if (segments[0] === 'api') rest = segments.slice(2);
  else if (segments[0] === 'apis') {
    group = segments[1] ?? '';
    rest = segments.slice(3);
  } else return undefined;
  if (rest.length === 0) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [resource = '', name, sub] = rest;
  const prefix = group === 'events.k8s.io' ? `${group}/` : '';
  return { resource: `${prefix}${resource}${sub ? `/${sub}` : ''}`, named: name !== undefined };
}

export function requestKey(method: string, path: string, query?: Record<string, unknown>): string {
  const r = resourceOf(path);
  if (!r) return path.startsWith('/api') ? 'DISCOVERY' : `${method} ${path}`;
  if (method === 'GET' && !r.named) return `${query?.continue ? 'LIST+' : 'LIST'} ${r.resource}`;
  return `${method} ${r.resource}`;
}

/**
 * Counts every request `kube` sends from now on (watches are not requests here); writes are also
 * counted by namespace in `writesByNamespace` ('' for cluster-scoped objects).
 */
export function countRequests(kube: KubeHttp, writesByNamespace: Tally = {}): Tally {
  const tally: Tally = {};
  const send = kube.request.bind(kube);
  kube.request = <T>(...args: Parameters<KubeHttp['request']>): Promise<T> => {
    const [method, path, init] = args;
    const key = requestKey(method, path, init?.query);
    tally[key] = (tally[key] ?? 0) + 1;
    if (isWriteKey(key)) {
      const ns = /\/namespaces\/([^/?]+)\/./.exec(path)?.[1] ?? '';
      writesByNamespace[ns] = (writesByNamespace[ns] ?? 0) + 1;
    }
    return send<T>(...args);
  };
  return tally;
}

/**
 * Prints each request `kube` sends to stderr: start (wall-clock ms, so that processes line up),
 * duration, key and HTTP path.
 */
export function traceRequests(kube: KubeHttp, label = 'http'): void {
  const send = kube.request.bind(kube);
  kube.request = async <T>(...args: Parameters<KubeHttp['request']>): Promise<T> => {
    const [method, path, init] = args;
    const start = Date.now();
    try {
      return await send<T>(...args);
    } finally {
      console.error(`[${label}] ${start % 1_000_000} +${Date.now() - start} ms ${requestKey(method, path, init?.query)} ${path.split('/').slice(-2).join('/')}`);
    }
  };
}

export const isWriteKey = (key: string) => WRITE_VERBS.has(key.split(' ')[0]!);

export function minus(after: Tally, before: Tally): Tally {
  const out: Tally = {};
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0);
    if (d !== 0) out[k] = d;
  }
  for (const [k, v] of Object.entries(before)) if (!(k in after) && v !== 0) out[k] = -v;
  return out;
}

export const writesOf = (t: Tally): Tally => Object.fromEntries(Object.entries(t).filter(([k]) => isWriteKey(k)));
export const total = (t: Tally, keep: (key: string) => boolean = () => true) => Object.entries(t).reduce((n, [k, v]) => n + (keep(k) ? v : 0), 0);

/** The writes in `t` grouped by resource (verbs summed), largest first: `pods/status 200, leases 80`. */
export function describeWrites(t: Tally): string {
  const byResource = new Map<string, number>();
  for (const [k, v] of Object.entries(writesOf(t))) {
    const resource = k.split(' ')[1] ?? k;
    byResource.set(resource, (byResource.get(resource) ?? 0) + v);
  }
  const parts = [...byResource].filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1]).map(([r, v]) => `${r} ${v}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** apiserver_request_total from the API server's /metrics, summed over codes, keyed as above. */
export async function apiserverRequests(kube: KubeHttp): Promise<Tally> {
  const text = await kube.request<string>('GET', '/metrics');
  const tally: Tally = {};
  for (const line of String(text).split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const close = line.lastIndexOf('}');
    const labels = Object.fromEntries([...line.slice(line.indexOf('{') + 1, close).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (!labels.resource || labels.dry_run) continue;
    const prefix = labels.group === 'events.k8s.io' ? 'events.k8s.io/' : '';
    const key = `${labels.verb} ${prefix}${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''}`;
    tally[key] = (tally[key] ?? 0) + Number(line.slice(close + 1).trim());
  }
  return tally;
}
