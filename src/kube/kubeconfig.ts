// How to reach an API server, read from a kubeconfig (or the pod's service account) without
// loading @kubernetes/client-node: that library and what it pulls in (undici, ws, the generated
// models, the cloud auth providers) add ~20 MB to a reconciler's resident memory (71 → 49 MB idle)
// and ~2.5 MB of code to every cold start. The forms a controller's kubeconfig uses — CA, client
// certificate, bearer token or token file, basic auth, in-cluster — are read here; anything else
// (`exec` and `auth-provider` users, a KUBECONFIG list, any other key) is handed to client-node,
// loaded only then. Neither honours `proxy-url` or impersonation (`as`): KubeHttp uses its own
// agent and client-node has no impersonation, as before this reader existed.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { ClientNodeSource } from './client-node-connection.js';

/** Everything KubeHttp needs to send requests: the server and the TLS and header credentials. */
export type KubeConnection = {
  server: string;
  ca?: string;
  cert?: string;
  key?: string;
  /** false only for `insecure-skip-tls-verify: true`. */
  rejectUnauthorized: boolean;
  servername?: string;
  headers: Record<string, string>;
  /** The current context's namespace, if it names one. */
  namespace?: string;
};

/** `--context NAME` names no context of the kubeconfig. */
export class KubeContextError extends Error {
  override name = 'KubeContextError';
  constructor(context: string, known: readonly string[]) {
    super(`context "${context}" not found in the kubeconfig (contexts: ${known.join(', ') || 'none'})`);
  }
}

/** A kubeconfig this reader leaves to client-node, and why. */
export type Unsupported = { unsupported: string };

type Named<T> = { name?: string } & T;
type RawCluster = Record<string, unknown>;
type RawUser = Record<string, unknown>;
type RawConfig = {
  clusters?: Named<{ cluster?: RawCluster }>[];
  users?: Named<{ user?: RawUser }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string; namespace?: string } }>[];
  'current-context'?: string;
};

const CLUSTER_KEYS = new Set(['server', 'certificate-authority', 'certificate-authority-data', 'insecure-skip-tls-verify', 'tls-server-name', 'extensions']);
const USER_KEYS = new Set(['client-certificate', 'client-certificate-data', 'client-key', 'client-key-data', 'token', 'tokenFile', 'username', 'password', 'extensions']);

const base64 = (data: unknown): string => Buffer.from(String(data), 'base64').toString('utf8');

/**
 * The current context's connection, or why this reader leaves the file to client-node.
 * `readFile` reads the files it names (relative to `dir`, the kubeconfig's folder).
 */
export function parseKubeConfig(text: string, dir: string, readFile: (path: string) => string, contextOverride?: string): KubeConnection | Unsupported {
  const raw = (parse(text) ?? {}) as RawConfig;
  const contextName = contextOverride ?? raw['current-context'];
  if (!contextName) return { unsupported: 'no current-context' };
  const context = raw.contexts?.find((c) => c.name === contextName)?.context;
  if (!context) {
    // A context the user named must be there: client-node would not find it either.
    if (contextOverride !== undefined) throw new KubeContextError(contextOverride, (raw.contexts ?? []).map((c) => String(c.name)));
    return { unsupported: `context ${contextName} not found` };
  }
  const cluster = raw.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster || typeof cluster.server !== 'string') return { unsupported: `cluster ${String(context.cluster)} not found or has no server` };
  const user = (context.user === undefined ? undefined : raw.users?.find((u) => u.name === context.user)?.user) ?? {};
  const foreign = [...Object.keys(cluster).filter((k) => !CLUSTER_KEYS.has(k)), ...Object.keys(user).filter((k) => !USER_KEYS.has(k))];
  if (foreign.length) return { unsupported: `kubeconfig uses ${foreign.join(', ')}` };

  const file = (p: unknown) => readFile(isAbsolute(String(p)) ? String(p) : join(dir, String(p)));
  const dataOrFile = (data: unknown, path: unknown) => (data !== undefined ? base64(data) : path !== undefined ? file(path) : undefined);
  const headers: Record<string, string> = {};
  const token = user.token ?? (user.tokenFile !== undefined ? file(user.tokenFile).trim() : undefined);
  if (token !== undefined) headers['Authorization'] = `Bearer ${String(token)}`;
  else if (user.username !== undefined) headers['Authorization'] = `Basic ${Buffer.from(`${String(user.username)}:${String(user.password ?? '')}`).toString('base64')}`;
  const conn: KubeConnection = {
    server: cluster.server.replace(/\/$/, ''),
    rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
    headers,
  };
  const ca = dataOrFile(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = dataOrFile(user['client-certificate-data'], user['client-certificate']);
  const key = dataOrFile(user['client-key-data'], user['client-key']);
  if (ca !== undefined) conn.ca = ca;
  if (cert !== undefined) conn.cert = cert;
  if (key !== undefined) conn.key = key;
  if (typeof cluster['tls-server-name'] === 'string') conn.servername = cluster['tls-server-name'];
  if (context.namespace) conn.namespace = context.namespace;
  return conn;
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The pod's own service account, as client-go's rest.InClusterConfig reads it. */
export function inClusterConnection(env: Record<string, string | undefined>, readFile: (path: string) => string): KubeConnection {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT ?? '443'}`;
  const namespace = readFile(`${SERVICE_ACCOUNT}/namespace`).trim();
  return {
    server,
    ca: readFile(`${SERVICE_ACCOUNT}/ca.crt`),
    rejectUnauthorized: true,
    headers: { Authorization: `Bearer ${readFile(`${SERVICE_ACCOUNT}/token`).trim()}` },
    ...(namespace ? { namespace } : {}),
  };
}

/** The connection a client-node KubeConfig describes (its auth providers and exec plugins run here). */
export async function connectionOfClientNode(kc: ClientNodeKubeConfig): Promise<KubeConnection> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const opts: { headers?: Record<string, unknown>; auth?: string; ca?: unknown; cert?: unknown; key?: unknown; rejectUnauthorized?: boolean; servername?: string } = { headers: {} };
  await kc.applyToHTTPSOptions(opts);
  const text = (v: unknown) => (v === undefined || v === null ? undefined : Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
  const namespace = kc.getContextObject(kc.getCurrentContext())?.namespace;
  const conn: KubeConnection = {
    server: cluster.server.replace(/\/$/, ''),
    rejectUnauthorized: opts.rejectUnauthorized !== false,
    headers: Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)])),
  };
  // client-node gives basic auth as https' `auth` option; KubeHttp sends headers.
  if (opts.auth && !conn.headers['Authorization']) conn.headers['Authorization'] = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  for (const [k, v] of [['ca', text(opts.ca)], ['cert', text(opts.cert)], ['key', text(opts.key)]] as const) if (v !== undefined) conn[k] = v;
  if (opts.servername) conn.servername = opts.servername;
  if (namespace) conn.namespace = namespace;
  return conn;
}

/** The slice of client-node's KubeConfig used here (a structural type: importing it would load the library). */
export type ClientNodeKubeConfig = {
  getCurrentCluster(): { server: string } | null;
  getCurrentContext(): string;
  getContextObject(name: string): { namespace?: string } | null;
  applyToHTTPSOptions(opts: object): Promise<void>;
};

async function viaClientNode(source: ClientNodeSource, context?: string): Promise<KubeConnection> {
  const { clientNodeConnection } = await import('./client-node-connection.js');
  return clientNodeConnection(source, context);
}

const readText = (path: string) => readFileSync(path, 'utf8');

/** A kubeconfig's text (e.g. from a secret): read here, or by client-node when it needs more. */
export async function connectionFromKubeConfigText(text: string, dir = process.cwd(), readFile = readText): Promise<KubeConnection> {
  const parsed = parseKubeConfig(text, dir, readFile);
  return 'unsupported' in parsed ? viaClientNode({ text }) : parsed;
}

/**
 * What `path` (else $KUBECONFIG, else ~/.kube/config, else the pod's service account) says, in
 * client-go's order of precedence; for `context` (kubectl's --context) instead of the current one.
 */
export async function loadKubeConnection(path?: string, env: Record<string, string | undefined> = process.env, readFile = readText, context?: string): Promise<KubeConnection> {
  if (!path && env.KUBECONFIG?.includes(':')) return viaClientNode('default', context); // a list of files to merge
  const explicit = path ?? env.KUBECONFIG;
  const candidate = explicit || join(homedir(), '.kube', 'config');
  let text: string | undefined;
  try {
    text = readFile(candidate);
  } catch (e) {
    if (explicit || (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== undefined) {
    const parsed = parseKubeConfig(text, dirname(candidate), readFile, context);
    return 'unsupported' in parsed ? viaClientNode({ file: candidate }, context) : parsed;
  }
  if (context !== undefined) throw new KubeContextError(context, []);
  if (env.KUBERNETES_SERVICE_HOST) return inClusterConnection(env, readFile);
  throw new Error(`no kubeconfig: ${candidate} does not exist and this is not a pod (KUBERNETES_SERVICE_HOST unset)`);
}
