// One coordination.k8s.io/v1 Lease per reconciler (shard), so that two invocations started at
// the same time (a cron tick and a trigger, or a retried Lambda) never act together. Every write
// is a create or a PUT carrying the resourceVersion that was read: of two racing invocations the
// API server lets exactly one through, the other gets AlreadyExists or Conflict.
import type { KubeHttp } from '../kube/http.js';
import { isAlreadyExists, isConflict, isNotFound } from '../kube/errors.js';


/** When another invocation holds the lease, try again this soon rather than at the next resync. */
export const LEASE_RETRY_MS = 2_000;

export type LeaseSpec = {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime, e.g. 2026-11-22T14:00:00.000000Z. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
};

export type Lease = {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string; [k: string]: unknown };
  spec: LeaseSpec;
};

export type LeaseDecision = { action: 'create' | 'acquire' | 'renew' | 'wait'; until?: Date };

/** A MicroTime: RFC 3339 with six fractional digits, as the Lease fields are serialised. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** When the holder's claim runs out, judged by the duration the holder itself wrote. */
export function leaseExpiry(lease: Lease, fallbackSeconds: number): Date | undefined {
  const since = lease.spec.renewTime ?? lease.spec.acquireTime;
  if (!since) return undefined;
  const ms = Date.parse(since);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms + (lease.spec.leaseDurationSeconds ?? fallbackSeconds) * 1000);
}

/** Pure: what an invocation with `identity` may do with the lease as read (undefined: none yet). */
export function decideLease(lease: Lease | undefined, identity: string, now: Date, durationSeconds: number): LeaseDecision {
  const ours = { until: new Date(now.getTime() + durationSeconds * 1000) };
  if (!lease) return { action: 'create', ...ours };
  const holder = lease.spec.holderIdentity ?? '';
  if (holder === identity) return { action: 'renew', ...ours };
  if (holder === '') return { action: 'acquire', ...ours };
  const expiry = leaseExpiry(lease, durationSeconds);
  if (!expiry || expiry.getTime() <= now.getTime()) return { action: 'acquire', ...ours };
  return { action: 'wait', until: expiry };
}

/** Pure: the spec to write after `decision` (not for 'wait'). */
export function leaseSpecAfter(decision: LeaseDecision, current: LeaseSpec | undefined, identity: string, now: Date, durationSeconds: number): LeaseSpec {
  const t = microTime(now);
  const base = { holderIdentity: identity, leaseDurationSeconds: durationSeconds, renewTime: t };
  if (decision.action === 'renew') return { ...current, ...base };
  // Like client-go's leader election, any change of holder counts as a transition.
  const transitions = decision.action === 'create' ? 0 : (current?.leaseTransitions ?? 0) + 1;
  return { ...current, ...base, acquireTime: t, leaseTransitions: transitions };
}

export type LeaseOptions = { name: string; namespace: string; identity: string; durationSeconds: number; now: Date };

export type LeaseAttempt =
  | { acquired: true; lease: Lease }
  | { acquired: false; holder: string; until?: Date };

function leaseRef(name: string, namespace: string): Lease {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: {} };
}

async function readLease(kube: KubeHttp, name: string, namespace: string): Promise<Lease | undefined> {
  try {
    return await kube.get<Lease>('coordination.k8s.io/v1', 'Lease', name, namespace);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Reads the lease and takes it if free, expired or already ours. Losing a race is an answer, not an error. */
export async function acquireLease(kube: KubeHttp, opts: LeaseOptions): Promise<LeaseAttempt> {
  const current = await readLease(kube, opts.name, opts.namespace);
  const decision = decideLease(current, opts.identity, opts.now, opts.durationSeconds);
  if (decision.action === 'wait') return { acquired: false, holder: current?.spec.holderIdentity ?? '', until: decision.until };
  const spec = leaseSpecAfter(decision, current?.spec, opts.identity, opts.now, opts.durationSeconds);
  try {
    const lease = current
      ? await kube.replace<Lease>({ ...current, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec })
      : await kube.create<Lease>({ ...leaseRef(opts.name, opts.namespace), spec });
    return { acquired: true, lease };
  } catch (e) {
    // A 404 on create means the namespace is missing: that is an error, not a lost race.
    const lostRace = isAlreadyExists(e) || isConflict(e) || (current !== undefined && isNotFound(e));
    if (lostRace) return { acquired: false, holder: '(another invocation, concurrently)' };
    throw e;
  }
}

/** Extends our hold; false when someone else wrote the lease since (we lost it). */
export async function renewLease(kube: KubeHttp, lease: Lease, opts: { identity: string; durationSeconds: number; now: Date }): Promise<Lease | false> {
  if (lease.spec.holderIdentity !== opts.identity) return false;
  const spec = leaseSpecAfter({ action: 'renew' }, lease.spec, opts.identity, opts.now, opts.durationSeconds);
  try {
    return await kube.replace<Lease>({ ...lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec });
  } catch (e) {
    if (isConflict(e) || isNotFound(e)) return false;
    throw e;
  }
}

/** Gives the lease up (empty holder) so the next invocation need not wait for it to expire. */
export async function releaseLease(kube: KubeHttp, lease: Lease): Promise<boolean> {
  try {
    await kube.replace<Lease>({ ...lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { ...lease.spec, holderIdentity: '' } });
    return true;
  } catch (e) {
    if (isConflict(e) || isNotFound(e)) return false;
    throw e;
  }
}

/**
 * Leases a long-running process keeps between its runs (the Node loop): while one was renewed
 * less than a third of its duration ago, a run acts on it without an API call, and it is renewed
 * rather than taken again. No one else can take it before it expires, so holding it is as safe as
 * re-reading it. `releaseAll` gives them up when the process stops.
 */
export class HeldLeases {
  private readonly held = new Map<string, { lease: Lease; renewedAt: number }>();
  private readonly inFlight = new Map<string, Promise<unknown>>();

  private static key(l: { metadata: { name: string; namespace: string } }): string {
    return `${l.metadata.namespace}/${l.metadata.name}`;
  }

  get(namespace: string, name: string): { lease: Lease; renewedAt: number } | undefined {
    return this.held.get(`${namespace}/${name}`);
  }

  /** Keeps the newest renewal: a run that ends later with an older copy does not undo it. */
  keep(lease: Lease, renewedAt: number): void {
    const key = HeldLeases.key(lease);
    if ((this.held.get(key)?.renewedAt ?? -Infinity) <= renewedAt) this.held.set(key, { lease, renewedAt });
  }

  /** Forgets the lease unless a renewal newer than `renewedAt` is held. */
  forget(namespace: string, name: string, renewedAt = Infinity): void {
    const key = `${namespace}/${name}`;
    if ((this.held.get(key)?.renewedAt ?? -Infinity) <= renewedAt) this.held.delete(key);
  }

  /**
   * One acquisition or renewal of a lease at a time: the process's concurrent runs share its
   * answer instead of racing each other's resourceVersion (the loser would think it lost the lease).
   */
  once<T>(namespace: string, name: string, what: 'acquire' | 'renew', op: () => Promise<T>): Promise<T> {
    const key = `${namespace}/${name}|${what}`;
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const p = op().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  get size(): number {
    return this.held.size;
  }

  /** Best effort: a lease not released simply expires. */
  async releaseAll(kube: KubeHttp): Promise<void> {
    const leases = [...this.held.values()].map((h) => h.lease);
    this.held.clear();
    await Promise.all(leases.map((l) => releaseLease(kube, l).catch(() => false)));
  }
}
