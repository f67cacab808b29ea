// Strongly consistent budgets at the edge (PUB allowances, WorkloadSpread subset room). Each budget
// is a ledger: a small JSON state owned by one serialized authority per (cluster, kind, namespace,
// name) — a Durable Object on Workers, a per-key queue in one Node process. A feature contributes
// pure reducers, `(state, request, now) → { result, next }`; the authority loads the state, calls
// the reducer and stores `next` before answering, so two requests never read the same state.
//
// Webhook handlers reach ledgers through ClusterState.ledgers; reconcilers through the sync API
// (POST /clusters/:id/ledgers/:kind/:namespace/:name/:op, sync token), with ops such as "resync"
// (replace the authority's view with what the controller observed) and "read".

/** What one operation on a ledger answers, and the state it leaves behind (undefined: unchanged). */
export type LedgerStep<S, R> = { result: R; next?: S };

/**
 * One operation on a ledger of some kind. `state` is undefined for a ledger never written. Must be
 * pure and deterministic given `now`: it may run again after a crash before the store.
 */
export type LedgerReducer<S = unknown, Req = unknown, R = unknown> = (state: S | undefined, req: Req, now: number) => LedgerStep<S, R>;

/**
 * The object whose status shows a ledger (OpenKruise's webhooks write that status as they admit),
 * and which operations' results change what it shows: each such change is published as a change
 * event for that object, so its reconciler mirrors it into status at once.
 */
export type LedgerMirror = { apiVersion: string; kind: string; changes(op: string, result: unknown): boolean };

/** A feature's ledger kind: its operations by name. */
export type LedgerKind = { kind: string; ops: Record<string, LedgerReducer>; mirror?: LedgerMirror };

/**
 * Identifies one ledger within a cluster. `namespace` is '' for a cluster-scoped ledger, as in
 * AdmissionInput (the sync API writes it "_" in URLs: ledger-http.ts).
 */
export type LedgerRef = { kind: string; namespace: string; name: string };

/** The serialized authority, as handlers and the sync API see it. */
export interface Ledgers {
  /** Runs `op` of `ref.kind` on the ledger, serialized with every other op on the same ledger. */
  apply<R = unknown>(ref: LedgerRef, op: string, req: unknown): Promise<R>;
}

export class UnknownLedgerOpError extends Error {
  constructor(kind: string, op: string) {
    super(`no ledger operation "${op}" for kind "${kind}"`);
    this.name = 'UnknownLedgerOpError';
  }
}

/** Finds the reducer for `op` of `kind`, or throws UnknownLedgerOpError. */
export function ledgerReducer(kinds: readonly LedgerKind[], kind: string, op: string): LedgerReducer {
  const ops = kinds.find((k) => k.kind === kind)?.ops;
  // Own properties only: op names come from URLs, and "constructor" is not an operation.
  const reducer = ops && Object.hasOwn(ops, op) ? ops[op] : undefined;
  if (!reducer) throw new UnknownLedgerOpError(kind, op);
  return reducer;
}

/** The storage key of a ledger inside one cluster's authority. */
export function ledgerKey(ref: LedgerRef): string {
  return `${ref.kind}/${ref.namespace}/${ref.name}`;
}

/**
 * Ledgers held in this process: one promise chain per ledger serializes its operations. Right for
 * tests, benchmarks and a single Node process; several processes need the Durable Object.
 */
export class MemoryLedgers implements Ledgers {
  private readonly states = new Map<string, unknown>();
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly kinds: readonly LedgerKind[],
    private readonly now: () => number = Date.now,
  ) {}

  // async: an unknown op rejects like every other failure instead of throwing at the call.
  async apply<R = unknown>(ref: LedgerRef, op: string, req: unknown): Promise<R> {
    const reducer = ledgerReducer(this.kinds, ref.kind, op);
    const key = ledgerKey(ref);
    // Stored states and results are copies, as over the wire: no caller holds a reference into a state.
    const run = async (): Promise<R> => {
      const step = reducer(this.states.get(key), req, this.now());
      if (step.next !== undefined) this.states.set(key, structuredClone(step.next));
      return structuredClone(step.result) as R;
    };
    const prev = this.tails.get(key) ?? Promise.resolve();
    const result = prev.then(run, run);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
