// Ledger operations over HTTP: the sync API route reconcilers call, its client, and the Durable
// Object shell all speak this. One operation is
//   POST …/ledgers/<kind>/<namespace>/<name>/<op>   body: the request as JSON (none: undefined)
//   200 { result }
//   400 { error, reason: 'UnknownLedgerOp' }  no such kind or op
//   400 { error }                             a malformed name or body
//   500 { error, reason: 'LedgerOpFailed' }   the operation failed (a reducer that throws changes nothing)
// A cluster-scoped ledger (namespace '') is written "_", which no Kubernetes namespace can be.
import { UnknownLedgerOpError, ledgerKey, type LedgerRef, type Ledgers } from './ledger.js';

export const CLUSTER_SCOPE_SEGMENT = '_';
/** Ledger requests are small (a budget's state or a controller's observation), far below this. */
export const MAX_LEDGER_BODY_BYTES = 1024 * 1024;

// Kinds and ops are identifiers; names are Kubernetes object names (DNS subdomains).
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9.-]{0,62}$/;
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export type LedgerErrorBody = { error: string; reason?: 'UnknownLedgerOp' | 'LedgerOpFailed' };

/** The authority could not run the operation: the reducer threw, or the authority was unreachable. */
export class LedgerOpFailedError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'LedgerOpFailedError';
  }
}

/** The path under /clusters/<id> for one operation. */
export function ledgerPath(ref: LedgerRef, op: string): string {
  const ns = ref.namespace === '' ? CLUSTER_SCOPE_SEGMENT : ref.namespace;
  return `/ledgers/${[ref.kind, ns, ref.name, op].map(encodeURIComponent).join('/')}`;
}

/** The ref and op of a route's (decoded) path parameters, or what is wrong with them. */
export function parseLedgerParams(p: { kind?: string; namespace?: string; name?: string; op?: string }): { ref: LedgerRef; op: string } | string {
  const { kind = '', namespace = '', name = '', op = '' } = p;
  if (!IDENTIFIER.test(kind)) return `invalid ledger kind "${kind}"`;
  if (!IDENTIFIER.test(op)) return `invalid ledger operation "${op}"`;
  if (namespace !== CLUSTER_SCOPE_SEGMENT && !NAMESPACE.test(namespace)) {
    return `invalid namespace "${namespace}" (a DNS label, or "${CLUSTER_SCOPE_SEGMENT}" for a cluster-scoped ledger)`;
  }
  if (!OBJECT_NAME.test(name)) return `invalid ledger name "${name}" (a Kubernetes object name)`;
  return { ref: { kind, namespace: namespace === CLUSTER_SCOPE_SEGMENT ? '' : namespace, name }, op };
}

/** A request body as the reducer sees it: empty is undefined. */
export function parseLedgerBody(text: string): { req: unknown } | string {
  if (text === '') return { req: undefined };
  try {
    return { req: JSON.parse(text) as unknown };
  } catch {
    return 'body is not valid JSON';
  }
}

export function ledgerBody(req: unknown): string | undefined {
  return req === undefined ? undefined : JSON.stringify(req);
}

/** Runs one operation and answers it as the wire format says. */
export async function answerLedgerOp(ledgers: Ledgers, ref: LedgerRef, op: string, req: unknown): Promise<{ status: 200 | 400 | 500; body: { result: unknown } | LedgerErrorBody }> {
  try {
    return { status: 200, body: { result: await ledgers.apply(ref, op, req) } };
  } catch (e) {
    if (e instanceof UnknownLedgerOpError) return { status: 400, body: { error: e.message, reason: 'UnknownLedgerOp' } };
    // A remote authority's failure already says which ledger and operation.
    const error = e instanceof LedgerOpFailedError ? e.message : `ledger ${ledgerKey(ref)}: operation "${op}" failed: ${e instanceof Error ? e.message : String(e)}`;
    return { status: 500, body: { error, reason: 'LedgerOpFailed' } };
  }
}

/** The answer's result, or the error the answer describes (the inverse of answerLedgerOp). */
export async function readLedgerAnswer<R>(res: Response, ref: LedgerRef, op: string): Promise<R> {
  // A body cut short (the call's deadline) fails the call; only a body that is not JSON reads as none.
  const text = await res.text();
  const body = parseJsonOr(text, {}) as Partial<{ result: R } & LedgerErrorBody>;
  if (res.status === 200) return body.result as R;
  if (body.reason === 'UnknownLedgerOp') throw new UnknownLedgerOpError(ref.kind, op);
  if (body.reason === 'LedgerOpFailed' && body.error) throw new LedgerOpFailedError(res.status, body.error);
  const why = res.status === 404 ? 'not found (check the cluster id and the sync token)' : (body.error ?? `status ${res.status}`);
  throw new LedgerOpFailedError(res.status, `ledger ${ledgerKey(ref)}: operation "${op}": ${why}`);
}

function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
