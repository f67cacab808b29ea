// observed → Plan for ResourceDistributions (OpenKruise: doReconcile in
// pkg/controller/resourcedistribution/resourcedistribution_controller.go). Per distribution, in
// name order: a copy in every target namespace (create, update, or adopt OpenKruise's), no copy
// in namespaces no longer targeted (delete), and the status. A same-named object the
// distribution did not make is never written: it is a conflict, reported in status.
// Pure, Node only (hash.ts).
//
// The status is computed before the writes are applied and counts a planned write as done; a
// write that then fails shows in the next run's status (level-triggered). So the Get/Create/
// Update/DeleteResourceFailed conditions, which OpenKruise sets from failed API calls, stay False
// here; act reports failed writes. OpenKruise records no Events for ResourceDistribution; neither
// do we.
import { emptyPlan, type ObjectRef, type Plan, type Write } from '../reconcile/types.js';
import { desiredCopy, fixFor, isControlledBy, ownershipOf, relabelPatch, rfc3339, sourceResource, updatedCopy, type SourceResource } from './copy.js';
import { hashResource } from './hash.js';
import type { ResourceDistributionObserved } from './observe.js';
import { computeStatus, statusChanged, type Failures } from './status.js';
import { targetNamespaces } from './targets.js';
import { RD_API_VERSION, RD_KIND, type DistributedObject, type NamespaceFacts, type ResourceDistribution } from './types.js';

const REASON_CONFLICT = 'a same-named resource that this ResourceDistribution did not create exists; it is left alone';
const REASON_NOT_EXISTS = 'namespace does not exist or is terminating';

const keyOf = (kind: string, namespace: string, name: string) => `${kind}/${namespace}/${name}`;

function refTo(obj: DistributedObject): ObjectRef {
  return { apiVersion: 'v1', kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace };
}

type Context = {
  objects: Map<string, DistributedObject>;
  namespaces: Map<string, NamespaceFacts>;
  /** Copies created earlier in this plan, by key → distribution: the first distribution in name order wins. */
  claimed: Map<string, string>;
  now: Date;
};

/** Writes for one target namespace; returns false when the namespace conflicts. */
function distribute(rd: ResourceDistribution, src: SourceResource, hash: string, namespace: string, ctx: Context, writes: Write[]): boolean {
  const rdName = rd.metadata.name ?? '';
  const key = keyOf(src.kind, namespace, src.name);
  const existing = ctx.objects.get(key);
  if (!existing) {
    const claimant = ctx.claimed.get(key);
    if (claimant !== undefined && claimant !== rdName) return false;
    ctx.claimed.set(key, rdName);
    writes.push({ op: 'create', object: desiredCopy(rd, src, namespace, hash, ctx.now), reason: `ResourceDistribution ${rdName} targets namespace ${namespace}, which has no copy` });
    return true;
  }
  if (ownershipOf(existing, rd) === 'foreign') return false;
  const fix = fixFor(existing, rd, src, hash);
  if (fix.kind === 'update') {
    writes.push({ op: 'update', object: updatedCopy(existing, rd, src, hash, ctx.now), reason: `ResourceDistribution ${rdName}: ${fix.why}` });
  } else if (fix.kind === 'relabel') {
    writes.push({ op: 'patch', target: refTo(existing), patch: relabelPatch(existing, rd), patchType: 'merge', reason: `ResourceDistribution ${rdName}: ${fix.why}` });
  }
  return true;
}

/** Deletes of this distribution's copies that should no longer exist. */
function cleanUp(rd: ResourceDistribution, src: SourceResource, targeted: Set<string>, ctx: Context, writes: Write[]): void {
  const rdName = rd.metadata.name ?? '';
  for (const obj of ctx.objects.values()) {
    // Only what we or OpenKruise made for this distribution: our label or its controller reference.
    const ownership = ownershipOf(obj, rd);
    if (ownership === 'foreign' || (ownership === 'adoptable' && !isControlledBy(obj, rd))) continue;
    if (obj.metadata.deletionTimestamp) continue;
    const ns = ctx.namespaces.get(obj.metadata.namespace);
    // A namespace being deleted takes its copies with it (OpenKruise skips these too).
    if (!ns || ns.phase === 'Terminating') continue;
    const current = obj.kind === src.kind && obj.metadata.name === src.name;
    if (current && targeted.has(obj.metadata.namespace)) continue;
    const why = current
      ? `namespace ${obj.metadata.namespace} is no longer a target of ResourceDistribution ${rdName}`
      : `ResourceDistribution ${rdName} now distributes ${src.kind} ${src.name}`;
    writes.push({ op: 'delete', target: refTo(obj), preconditions: { uid: obj.metadata.uid ?? '' }, reason: why });
  }
}

function decideOne(rd: ResourceDistribution, ctx: Context, plan: Plan): void {
  // Being deleted: the garbage collector removes the copies.
  if (rd.metadata.deletionTimestamp) return;
  // An unusable resource or selector (the webhook refuses both): OpenKruise does nothing, nor do we.
  const src = sourceResource(rd);
  if (!src) return;
  const { targets, missing, selectorError } = targetNamespaces(rd, [...ctx.namespaces.values()]);
  if (selectorError) return;

  const hash = hashResource(rd.spec.resource);
  const conflicts: string[] = [];
  let succeeded = 0;
  for (const namespace of targets) {
    if (distribute(rd, src, hash, namespace, ctx, plan.writes)) succeeded += 1;
    else conflicts.push(namespace);
  }
  cleanUp(rd, src, new Set(targets), ctx, plan.writes);

  const failures: Failures = {
    ConflictOccurred: { reason: REASON_CONFLICT, namespaces: conflicts },
    NamespaceNotExists: { reason: REASON_NOT_EXISTS, namespaces: missing },
  };
  const desired = targets.length + missing.length;
  const status = computeStatus(rd, { desired, succeeded }, failures, rfc3339(ctx.now));
  if (!statusChanged(rd, status)) return;
  plan.status.push({
    target: { apiVersion: RD_API_VERSION, kind: RD_KIND, name: rd.metadata.name ?? '' },
    status,
    ...(rd.metadata.resourceVersion ? { resourceVersion: rd.metadata.resourceVersion } : {}),
    reason: `${succeeded} of ${desired} namespaces distributed` +
      (conflicts.length ? `; conflicts in ${conflicts.join(', ')}` : '') +
      (missing.length ? `; missing or terminating: ${missing.join(', ')}` : ''),
  });
}

export function decideResourceDistributions(observed: ResourceDistributionObserved, now: Date): Plan {
  const plan = emptyPlan();
  const ctx: Context = {
    objects: new Map(observed.objects.map((o) => [keyOf(o.kind, o.metadata.namespace, o.metadata.name), o])),
    namespaces: new Map(observed.namespaces.map((ns) => [ns.name, ns])),
    claimed: new Map(),
    now,
  };
  const ordered = [...observed.distributions].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const rd of ordered) decideOne(rd, ctx, plan);
  return plan;
}
