// Container launch priority: the feature's registration. Its pod webhook on mutate-pod (placed
// after SidecarSet's injection, as OpenKruise orders them: sidecars get a priority too), and the
// pods it concerns published for the reconciler when they are created. The reconciler itself
// (./controller/reconciler.ts) is listed in src/reconcilers.ts. Web APIs only.
import type { AdmittedRequest } from '../edge-state/admitted.js';
import type { Feature } from '../feature.js';
import { isRecord } from '../kube/validation.js';
import { BARRIER_ENV } from './types.js';
import { POD_CREATE_MATCH, injectLaunchPriorityHandler } from './webhook.js';

/** A pod created with a barrier env → itself, for the launch priority reconciler. */
export function launchPriorityPodOf(a: AdmittedRequest): { apiVersion: string; kind: string; namespace: string; name: string }[] {
  if (a.group !== '' || a.kind !== 'Pod' || a.operation !== 'CREATE' || a.subResource || !isRecord(a.object)) return [];
  const pod = a.object as { metadata?: { name?: string }; spec?: { containers?: { env?: { name?: string }[] }[] } };
  const name = pod.metadata?.name;
  if (!name || !(pod.spec?.containers ?? []).some((c) => (c.env ?? []).some((e) => e?.name === BARRIER_ENV))) return [];
  return [{ apiVersion: 'v1', kind: 'Pod', namespace: a.namespace, name }];
}

export const containerLaunchPriorityFeature: Feature = {
  name: 'containerlaunchpriority',
  handlers: [{ endpoint: 'mutate-pod', handler: { match: POD_CREATE_MATCH, handle: injectLaunchPriorityHandler } }],
  relatedObjects: launchPriorityPodOf,
};
