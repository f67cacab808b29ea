// UnitedDeployment: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages), and the observer of its subset workloads' status
// changes: a subset workload scaled, or whose pods became ready or updated, runs the
// UnitedDeployment that controls it (on Lambda, as a related-object change event; the Node loop
// watches the workloads itself). The reconciler (./controller/reconciler.ts) is listed in
// src/reconcilers.ts. Web APIs only.
import { allow, type HandlerMatch } from '../admission/types.js';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import type { Feature } from '../feature.js';
import { isRecord } from '../kube/validation.js';
import { SUBSET_STATUS_OBSERVER } from './observer.js';
import { UD_API_VERSION, UD_KIND, type Meta } from './types.js';
import { UD_MATCH, defaultUnitedDeploymentHandler, validateUnitedDeploymentHandler } from './webhook.js';

const statusOf = (group: string, kind: string): HandlerMatch => ({ group, kind, subResource: 'status', operations: ['UPDATE'] });
const SUBSET_KINDS = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps.kruise.io/StatefulSet', 'apps.kruise.io/CloneSet']);

/** A subset workload admitted (its status, or itself) → the UnitedDeployment that controls it. */
export function owningUnitedDeploymentOf(a: AdmittedRequest): { apiVersion: string; kind: string; namespace: string; name: string }[] {
  if (!SUBSET_KINDS.has(`${a.group}/${a.kind}`)) return [];
  const obj = isRecord(a.object) ? a.object : isRecord(a.oldObject) ? a.oldObject : undefined;
  const meta = (isRecord(obj?.metadata) ? obj.metadata : {}) as Meta;
  const owner = meta.ownerReferences?.find((o) => o.controller);
  if (!owner?.name || owner.kind !== UD_KIND || owner.apiVersion?.split('/')[0] !== 'apps.kruise.io') return [];
  return [{ apiVersion: UD_API_VERSION, kind: UD_KIND, namespace: a.namespace, name: owner.name }];
}

export const unitedDeploymentFeature: Feature = {
  name: 'uniteddeployment',
  handlers: [
    { endpoint: 'mutate-uniteddeployment', handler: { match: UD_MATCH, handle: defaultUnitedDeploymentHandler } },
    { endpoint: 'validate-kruise', handler: { match: UD_MATCH, handle: validateUnitedDeploymentHandler } },
    // The observer decides nothing: every status change is allowed, and published for its owner (relatedObjects).
    ...[statusOf('apps', 'Deployment'), statusOf('apps', 'StatefulSet'), statusOf('apps.kruise.io', 'CloneSet'), statusOf('apps.kruise.io', 'StatefulSet')].map((match) => ({
      endpoint: SUBSET_STATUS_OBSERVER,
      handler: { match, handle: () => allow() },
    })),
  ],
  // An admitted UnitedDeployment runs its controller (Lambda: ObjectChanged events).
  changeKinds: [`${UD_API_VERSION}/${UD_KIND}`],
  relatedObjects: owningUnitedDeploymentOf,
};

export { validateUnitedDeployment } from './validate.js';
export { defaultedUnitedDeployment } from './defaults.js';
