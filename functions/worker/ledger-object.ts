// One Durable Object per ledger (per budget): the serialized authority of src/edge-state/ledger.ts.
// A shell: load the state once, call the pure reducer, store `next`, answer. The platform delivers
// one request at a time and, through input and output gates, keeps that true across the storage
// awaits: no other request is delivered while a put runs, and the answer leaves only once the put
// is durable (a failed put breaks the object, which restarts from what storage holds).
import { ledgerKey, ledgerReducer, UnknownLedgerOpError, type LedgerKind, type LedgerReducer, type LedgerStep } from '../../src/edge-state/ledger.js';
import { parseLedgerBody, parseLedgerParams, type LedgerErrorBody } from '../../src/edge-state/ledger-http.js';
import type { DurableObjectState } from './platform.js';

const STATE = 'state';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export type LedgerObjectClass = new (state: DurableObjectState) => { fetch(request: Request): Promise<Response> };

/** The Durable Object class serving these ledger kinds (export it from the Worker entry as LedgerObject). */
export function makeLedgerObject(kinds: readonly LedgerKind[]): LedgerObjectClass {
  return class LedgerObject {
    private current: unknown;

    constructor(private readonly ctx: DurableObjectState) {
      void ctx.blockConcurrencyWhile(async () => {
        this.current = await ctx.storage.get(STATE);
      });
    }

    async fetch(request: Request): Promise<Response> {
      // Called with ledger-http.ts's ledgerPath: /ledgers/<kind>/<namespace>/<name>/<op>.
      const [, , kind, namespace, name, op] = new URL(request.url).pathname.split('/').map(decodeURIComponent);
      const target = parseLedgerParams({ kind, namespace, name, op });
      if (typeof target === 'string') return json({ error: target }, 400);
      let reducer: LedgerReducer;
      try {
        reducer = ledgerReducer(kinds, target.ref.kind, target.op);
      } catch (e) {
        if (e instanceof UnknownLedgerOpError) return json({ error: e.message, reason: 'UnknownLedgerOp' } satisfies LedgerErrorBody, 400);
        throw e;
      }
      const body = parseLedgerBody(await request.text());
      if (typeof body === 'string') return json({ error: body }, 400);
      // From here to the put nothing awaits: the state read is the one the reducer's step replaces.
      let step: LedgerStep<unknown, unknown>;
      try {
        step = reducer(this.current, body.req, Date.now());
      } catch (e) {
        const error = `ledger ${ledgerKey(target.ref)}: operation "${target.op}" failed: ${e instanceof Error ? e.message : String(e)}`;
        return json({ error, reason: 'LedgerOpFailed' } satisfies LedgerErrorBody, 500);
      }
      if (step.next !== undefined) {
        this.current = step.next;
        await this.ctx.storage.put({ [STATE]: step.next });
      }
      return json({ result: step.result });
    }
  };
}
