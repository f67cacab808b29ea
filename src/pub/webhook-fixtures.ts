// Test fixtures for the PUB handlers: admission inputs and a ClusterState with pushed collections
// and in-memory ledgers.
import { MemoryLedgers } from '../edge-state/ledger.js';
import type { AdmissionInput } from '../admission/types.js';
import type { ClusterState, Snapshot } from '../edge-state/contracts.js';
import { PODS_COLLECTION, PUBS_COLLECTION, REPLICASETS_COLLECTION } from './collections.js';
import { pubLedgerKind } from './ledger.js';

export const NOW = 1_000_000;

export function input(over: Partial<AdmissionInput>): AdmissionInput {
  return {
    uid: 'u1',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: 'default',
    operation: 'DELETE',
    userInfo: {},
    dryRun: false,
    clusterId: 'c1',
    ...over,
  };
}

export function eviction(pod: string, dryRun = false): AdmissionInput {
  return input({
    kind: { group: 'policy', version: 'v1beta1', kind: 'Eviction' },
    subResource: 'eviction',
    operation: 'CREATE',
    name: pod,
    object: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: pod, namespace: 'default' }, ...(dryRun ? { deleteOptions: { dryRun: ['All'] } } : {}) },
    dryRun,
  });
}

export type FakeState = ClusterState & { ledgers: MemoryLedgers; clock: { t: number }; set(name: string, items: unknown[], observedAt?: number): void };

export function fakeState(collections: Record<string, unknown[]> = {}, withLedgers = true): FakeState {
  const snaps = new Map<string, Snapshot>();
  const clock = { t: NOW };
  const set = (name: string, items: unknown[], observedAt = NOW) => snaps.set(name, { items, resourceVersion: '1', observedAt });
  for (const name of [PUBS_COLLECTION, REPLICASETS_COLLECTION, PODS_COLLECTION]) set(name, collections[name] ?? []);
  const ledgers = new MemoryLedgers([pubLedgerKind], () => clock.t);
  return {
    collection: async <T>(name: string) => snaps.get(name) as Snapshot<T> | undefined,
    ...(withLedgers ? { ledgers } : {}),
    clock,
    set,
  } as FakeState;
}
