// Pushed state held in memory: for tests, benchmarks and single-process Node deployments.
import type { Snapshot } from './contracts.js';
import type { EdgeVersions, SyncPayload } from './sync.js';
import type { StateStore } from './state-store.js';
import { HeldState, type CollectionSummary, type ReadAnswer } from './held.js';
import type { AdmittedWrite } from './admitted.js';

export class MemoryStateStore implements StateStore {
  private readonly held = new HeldState();

  async collection<T>(name: string): Promise<Snapshot<T> | undefined> {
    return this.held.snapshot<T>(name);
  }

  async read(names: readonly string[], have: Readonly<Record<string, string>>): Promise<Record<string, ReadAnswer>> {
    return this.held.read(names, have);
  }

  async versions(name: string): Promise<EdgeVersions | undefined> {
    return this.held.versions(name);
  }

  async sync(name: string, payload: SyncPayload) {
    const outcome = this.held.plan(name, payload);
    if (!outcome.ok) return outcome;
    this.held.applyPlan(name, outcome.plan);
    return { ok: true as const, meta: outcome.plan.meta };
  }

  async admit(writes: readonly AdmittedWrite[]): Promise<void> {
    this.held.admit(writes);
  }

  async summary(): Promise<Record<string, CollectionSummary>> {
    return this.held.summary();
  }
}
