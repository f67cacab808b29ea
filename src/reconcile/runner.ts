// One invocation of one reconciler: lease → observe → decide → act → release. Nothing is cached
// between invocations; the lease only keeps two concurrent invocations from acting together.
import type { KubeHttp } from '../kube/http.js';
import { FIELD_MANAGER } from '../kube/apply.js';
import { applyPlan } from './act.js';
import { acquireLease, releaseLease, renewLease, type HeldLeases, type Lease } from './lease.js';
import { emptyPlan, type Plan, type Reconciler, type RunReport, type Scope, type ServerVersion } from './types.js';
import type { Ledgers } from '../edge-state/ledger.js';
import { describeLedgerWrite } from './plan-format.js';

export const COMPONENT = FIELD_MANAGER;
export const DEFAULT_LEASE_NAMESPACE = 'kruise-system';
export const DEFAULT_LEASE_SECONDS = 60;

export type RunOptions = {
  scope?: Scope;
  /** Observe and decide only: no lease, no writes. */
  dryRun?: boolean;
  /** Who holds the lease while this run acts, e.g. `<host>-<pid>` or a Lambda request id. */
  identity: string;
  leaseNamespace?: string;
  leaseDurationSeconds?: number;
  now?: () => Date;
  /** Reconcilers split by shard take one lease per shard. */
  shard?: string;
  log?: (m: string) => void;
  /** The edge's ledgers: observe may read them, and the plan's ledger writes go there. */
  ledgers?: Ledgers;
  /** A long-running process's leases: kept between runs instead of taken and released each time. */
  heldLeases?: HeldLeases;
};

export function leaseNameFor(kind: string, shard?: string): string {
  return `kruise-serverless-${kind.toLowerCase()}${shard ? `-${shard}` : ''}`;
}

function isEmpty(plan: Plan): boolean {
  return plan.writes.length === 0 && plan.status.length === 0 && plan.events.length === 0 && !plan.ledgers?.length;
}

/** The plan's ledger writes, in order; a failure is reported like a failed API write. */
async function applyLedgerWrites(plan: Plan, ledgers: Ledgers | undefined, log: (m: string) => void): Promise<{ applied: number; failed: RunReport['failed'] }> {
  const writes = plan.ledgers ?? [];
  if (writes.length === 0) return { applied: 0, failed: [] };
  if (!ledgers) {
    log(`${writes.length} ledger writes skipped: this run has no edge (set KS_EDGE_URL/--edge-url and the sync token)`);
    return { applied: 0, failed: [] };
  }
  let applied = 0;
  const failed: RunReport['failed'] = [];
  for (const w of writes) {
    try {
      await ledgers.apply(w.ref, w.op, w.request);
      applied += 1;
    } catch (e) {
      failed.push({ write: describeLedgerWrite(w), error: e instanceof Error ? e.message : String(e) });
    }
  }
  return { applied, failed };
}

function withContext(what: string, e: unknown): Error {
  return new Error(`${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

async function observeAndDecide(kube: KubeHttp, r: Reconciler, scope: Scope, now: Date, ledgers?: Ledgers): Promise<Plan> {
  let observed: unknown;
  try {
    observed = await r.observe(kube, scope, { ...(ledgers ? { ledgers } : {}), serverVersion: () => kube.request<ServerVersion>('GET', '/version') });
  } catch (e) {
    throw withContext(`${r.kind}: observe failed`, e);
  }
  return r.decide(observed, now);
}

export async function runReconciler(kube: KubeHttp, reconciler: Reconciler, opts: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const calls = kube.calls;
  const now = opts.now ?? (() => new Date());
  const log = opts.log ?? (() => undefined);
  const scope = opts.scope ?? { kind: 'all' };
  const report = (acted: boolean, plan: Plan, applied = 0, conflicts = 0, failed: RunReport['failed'] = [], wrote?: string[]): RunReport => ({
    reconciler: reconciler.kind, acted, dryRun: Boolean(opts.dryRun), plan, applied, conflicts, failed,
    apiCalls: kube.calls - calls, durationMs: Date.now() - started, ...(wrote ? { wrote } : {}),
  });

  if (opts.dryRun) return report(false, await observeAndDecide(kube, reconciler, scope, now(), opts.ledgers));

  const durationSeconds = opts.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS;
  const name = leaseNameFor(reconciler.kind, opts.shard);
  const namespace = opts.leaseNamespace ?? DEFAULT_LEASE_NAMESPACE;
  const leaseOpts = { identity: opts.identity, durationSeconds };
  const renewEveryMs = (durationSeconds * 1000) / 3;
  const held = opts.heldLeases;

  let lease: Lease | false = false;
  let renewedAt = 0;
  const renew = async (): Promise<boolean> => {
    if (!lease) return false;
    const at = now();
    try {
      if (!held) lease = await renewLease(kube, lease, { ...leaseOpts, now: at });
      else {
        const current = held.get(namespace, name)?.lease ?? lease;
        const shared = await held.once(namespace, name, 'renew', async () => {
          const next = await renewLease(kube, current, { ...leaseOpts, now: at });
          if (next) held.keep(next, at.getTime());
          return next ? { lease: next, renewedAt: at.getTime() } : false;
        });
        if (shared) return adopt(shared), true;
        lease = false;
      }
    } catch (e) {
      // Unsure whether we still hold it: do not write on that doubt.
      log(`${reconciler.kind}: renewing lease ${namespace}/${name}: ${String(e)}`);
      return false;
    }
    renewedAt = at.getTime();
    return lease !== false;
  };
  const adopt = (h: { lease: Lease; renewedAt: number }) => {
    lease = h.lease;
    renewedAt = h.renewedAt;
  };
  /** Renewed within the last third of its duration: no one else can hold it yet. */
  const fresh = () => {
    // Another run of this process may have renewed it since.
    const shared = held?.get(namespace, name);
    if (lease !== false && shared && shared.renewedAt > renewedAt) adopt(shared);
    return lease !== false && now().getTime() - renewedAt < renewEveryMs;
  };

  const kept = held?.get(namespace, name);
  if (kept) {
    lease = kept.lease;
    renewedAt = kept.renewedAt;
    if (!fresh() && !(await renew())) {
      held?.forget(namespace, name, renewedAt);
      lease = false;
    }
  }
  if (!lease) {
    const at = now();
    const acquire = () => acquireLease(kube, { name, namespace, ...leaseOpts, now: at });
    const attempt = await (held ? held.once(namespace, name, 'acquire', acquire) : acquire()).catch((e: unknown) => {
      throw withContext(`${reconciler.kind}: lease ${namespace}/${name}`, e);
    });
    if (!attempt.acquired) {
      log(`${reconciler.kind}: lease ${namespace}/${name} held by ${attempt.holder}${attempt.until ? ` until ${attempt.until.toISOString()}` : ''}; skipping`);
      return report(false, emptyPlan());
    }
    lease = attempt.lease;
    renewedAt = at.getTime();
  }

  type Outcome = { acted: boolean; plan: Plan; applied?: number; conflicts?: number; failed?: RunReport['failed']; wrote?: string[] };
  const act = async (): Promise<Outcome> => {
    const plan = await observeAndDecide(kube, reconciler, scope, now(), opts.ledgers);
    // Nothing to write: no need to prove we still hold the lease.
    if (isEmpty(plan)) return { acted: true, plan, wrote: [] };
    if (!fresh() && !(await renew())) {
      log(`${reconciler.kind}: lost lease ${namespace}/${name} before acting; the next run decides afresh`);
      return { acted: false, plan };
    }
    // The edge's budgets first: once status shows an allowance, the webhooks that spend it must
    // see it too (a user reads the PUB's status, then drains).
    const ledgerResult = await applyLedgerWrites(plan, opts.ledgers, (m) => log(`${reconciler.kind}: ${m}`));
    const result = await applyPlan(kube, plan, {
      component: COMPONENT,
      now,
      shouldContinue: () => (fresh() ? true : renew()),
    });
    const applied = result.applied + ledgerResult.applied;
    const failed = [...result.failed, ...ledgerResult.failed];
    if (result.stopped) {
      log(`${reconciler.kind}: lost lease ${namespace}/${name}; ${result.stopped} planned writes left for the next run`);
      return { acted: true, plan, ...result, applied, failed };
    }
    if (result.skipped) log(`${reconciler.kind}: ${result.skipped} slow-start writes not sent after a failure in their batch; the next run decides afresh`);
    const clean = result.conflicts === 0 && failed.length === 0 && result.skipped === 0;
    return { acted: true, plan, applied, conflicts: result.conflicts, failed, ...(clean ? { wrote: result.written } : {}) };
  };
  let outcome: Outcome;
  try {
    outcome = await act();
  } finally {
    if (held) {
      if (lease) held.keep(lease, renewedAt);
      else held.forget(namespace, name, renewedAt);
    } else if (lease) {
      // Best effort: if it fails the lease simply expires.
      await releaseLease(kube, lease).catch((e: unknown) => log(`${reconciler.kind}: releasing lease ${namespace}/${name}: ${String(e)}`));
    }
  }
  return report(outcome.acted, outcome.plan, outcome.applied, outcome.conflicts, outcome.failed, outcome.wrote);
}
