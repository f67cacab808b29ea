// The contracts between the features, the webhook framework and wherever cluster state is held:
// the collections a feature reads (CollectionSpec) and their snapshots, the read-only state
// handlers get (ClusterState: pushed to the edge, or read live), and the change events that make
// reconcilers run. A feature's whole registration, which also names its handlers, is one layer up
// (src/feature.ts): edge state is below the webhook framework and never imports it.
import type { Ledgers } from './ledger.js';
import type { AdmittedRequest, ItemWrite } from './admitted.js';

/** A pushed (or live-read) collection of objects, with how old it is. */
export type Snapshot<T = unknown> = {
  items: T[];
  /** The API server's list resourceVersion the snapshot was taken at. */
  resourceVersion: string;
  /** When the reconciler observed it (ms since epoch): orders pushes (an earlier one is refused). */
  observedAt: number;
  /**
   * When the edge last knew the collection current (ms since epoch): its latest push's
   * `observedAt`, or a later write-through or observer write to it (admitted.ts), whichever is
   * newer. Freshness is measured from here; absent, from `observedAt`.
   */
  currentAt?: number;
};

/** How old a snapshot is: the time since the edge last knew it current (`currentAt`). */
export function snapshotAge(snap: Snapshot, now: number): number {
  return now - Math.max(snap.observedAt, snap.currentAt ?? Number.NEGATIVE_INFINITY);
}

/**
 * Read-only cluster state for handlers. Two implementations: state pushed to the edge by the
 * reconcilers (Workers), and live reads from the API server (Node, Lambda).
 */
export interface ClusterState {
  /** A named collection (see CollectionSpec), or undefined if never pushed for this cluster. */
  /**
   * `reread`: read it again rather than answer what this request already read (a handler waiting,
   * within its time, for a collection never synced yet).
   */
  collection<T = unknown>(name: string, opts?: { reread?: boolean }): Promise<Snapshot<T> | undefined>;
  /**
   * The cluster's strongly consistent budgets (ledger.ts): one serialized authority per ledger.
   * Undefined where the deployment has none; handlers then follow their declared fallback.
   */
  readonly ledgers?: Ledgers;
}

/** Narrows a LIST (all namespaces unless `namespace`). */
export type ListOptions = {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** LISTs drop managedFields; a projection that reads them (who wrote the status) keeps them. */
  managedFields?: 'keep';
};

/** LISTs one kind (paginated, all namespaces unless narrowed). */
export type Lister = (apiVersion: string, kind: string, opts?: ListOptions) => Promise<{ items: Record<string, unknown>[]; resourceVersion: string }>;

/** A kind of object webhooks read, named for the sync API and the live reader. */
export type CollectionSpec = {
  name: string;
  /** The kind LISTed (for a computed collection: what its items describe, for messages). */
  apiVersion: string;
  kind: string;
  /** Only these objects of the kind (e.g. one ConfigMap by name). */
  select?: ListOptions;
  /** Reduce each object to what webhooks need before it is pushed (keeps edge state small). */
  project?: (obj: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Build the items from several LISTs instead (e.g. counts per namespace), already in their
   * pushed shape; each item's metadata.resourceVersion should change only when it does, since
   * pushes diff by it.
   */
  compute?: (list: Lister) => Promise<{ items: Record<string, unknown>[]; resourceVersion: string }>;
  /**
   * For a computed collection, read-your-writes: what a request the observer at `endpoint`
   * admitted changes in its items (src/edge-state/admitted.ts).
   */
  writeThrough?: { endpoint: string; writes: (req: AdmittedRequest) => ItemWrite[] };
  /**
   * Writes through the kind's `status` subresource too (an observer sees `<resource>/status`
   * UPDATE): the projection keeps what handlers read from status (a budget a ledger is seeded
   * from), whoever writes it (another controller, a replica, a user).
   */
  writesStatus?: boolean;
  /**
   * Where the cluster is read live (Node, Lambda), read it afresh for every request instead of
   * sharing a LIST for a moment: for rare decisions that must see the latest state (deletion
   * protection), whose changes this process does not itself admit.
   */
  uncachedLive?: boolean;
};

/** A compact "this object changed" note webhooks publish so reconcilers run promptly. */
export type ChangeEvent = {
  clusterId: string;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  // Open-ended: other publishers (e.g. a scaler) may send their own reasons.
  reason: 'created' | 'updated' | 'deleted' | 'connected' | (string & {});
  /** The write the event reports, when a webhook published it as it admitted the write (not yet committed). */
  admitted?: AdmittedRef;
};

/**
 * A write as a webhook admitted it: the object it changes (for a related event, the pod whose
 * creation concerns the event's object), the operation, and for an update or a delete the
 * resourceVersion it was admitted against. The API server commits the write only after every
 * webhook has answered, so a run an event starts may read the cluster before it: by this it can
 * tell (src/aws/commit-wait.ts).
 */
export type AdmittedRef = {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  basedOn?: string;
};

/** The objects an admitted request concerns beyond itself (a pod → the PUB that protects it). */
export type RelatedObjects = (admitted: AdmittedRequest) => { apiVersion: string; kind: string; namespace?: string; name: string }[];

/** Where change events go: EventBridge in production (src/aws), a queue or a loop locally. */
export interface ChangeSink {
  publish(events: readonly ChangeEvent[]): Promise<void>;
}

/**
 * Coalesces frequent change events per object (src/edge-state/debounce.ts): `offer` returns the
 * events to publish now; the rest are held and published by the debouncer itself when their
 * window closes (an in-process timer, or the cluster's Durable Object alarm on the Worker).
 */
export interface ChangeDebouncer {
  offer(clusterId: string, events: readonly ChangeEvent[]): Promise<ChangeEvent[]>;
}

/**
 * A workload kind whose pods carry `podLabel` (any value) and a controller owner reference to it:
 * a status change of such a pod runs that workload's reconciler (src/edge-state/workload-pods.ts).
 */
export type WorkloadPods = { apiVersion: string; kind: string; podLabel: string };
