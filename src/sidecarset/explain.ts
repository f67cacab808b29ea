// POST /clusters/<id>/<secret>/explain/sidecarset: which SidecarSets a pod would get, at which
// revision, and why every other SidecarSet would not be injected (kruise#1264, #1465: "works in one
// namespace and not another"). Answers from the same state and code as the pod webhook; admits
// nothing. Body: a Pod manifest, or {"pod": <Pod>, "namespace": "<ns>"}.
import type { V1Pod } from '@kubernetes/client-node';
import type { Explainer } from '../admission/types.js';
import { isRecord } from '../kube/validation.js';
import { decideInjection } from './decide-injection.js';
import { injectSidecarSets } from './inject.js';
import { isInjectable } from './match.js';
import { injectionPlanFor, type InjectionOptions } from './pod-webhook.js';
import { InjectionPlanCache } from './plan.js';
import { DEFAULT_KRUISE_NAMESPACE } from '../kube/kruise-configuration.js';

function readBody(body: unknown): { pod: V1Pod; namespace: string } | string {
  if (!isRecord(body)) return 'body must be a Pod manifest or {"pod": <Pod>, "namespace": "<namespace>"}';
  const pod = isRecord(body.pod) ? body.pod : body;
  if (!isRecord(pod.spec) && !isRecord(pod.metadata)) return 'body must be a Pod manifest or {"pod": <Pod>, "namespace": "<namespace>"}';
  const namespace = typeof body.namespace === 'string' ? body.namespace : '';
  return { pod: pod as V1Pod, namespace };
}

const names = (cs: readonly { name?: string }[] | undefined) => (cs ?? []).map((c) => c.name ?? '');

export function makeSidecarSetExplainer(opts: InjectionOptions = {}): Explainer {
  const plans = opts.plans ?? new InjectionPlanCache();
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  return async (body, state, ctx) => {
    const input = readBody(body);
    if (typeof input === 'string') return { status: 400, body: { error: input } };
    const skipped = isInjectable(input.pod, { operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'pods' } });
    if (skipped !== true) return { status: 200, body: { injected: [], skipped } };
    const plan = await injectionPlanFor(state, ctx.clusterId, plans, kruiseNamespace);
    if (!plan) return { status: 503, body: { error: 'no SidecarSet state has been pushed for this cluster yet' } };
    // Every set, so each gets a reason; a Partial draw is shown as its probability, not rolled.
    const decision = decideInjection(input.pod, input.namespace, plan, { random: () => 1, everySet: true });
    const stateInfo = { observedAt: new Date(plan.observedAt).toISOString(), ageMs: ctx.now - plan.observedAt };
    const sets = decision.results.map((r) => ({ sidecarSet: r.set, injected: r.matched && !r.error, reason: r.reason, ...(r.revisionReason ? { revision: r.revisionReason } : {}) }));
    const base = { namespace: decision.namespace, namespaceLabels: plan.namespaceLabels.get(decision.namespace) ?? null, state: stateInfo, sets };
    if (decision.kind === 'error') return { status: 200, body: { ...base, injected: [], error: `pod creation would fail: ${decision.message}` } };
    const result = injectSidecarSets(input.pod, decision.sets, new Date(ctx.now), decision.namespace, { sortContainersByName: opts.sortSidecarContainersByName ?? false });
    if ('error' in result) return { status: 200, body: { ...base, injected: [], error: `pod creation would fail: ${result.error}` } };
    const injected = decision.sets.map((s) => s.metadata?.name ?? '');
    return {
      status: 200,
      body: { ...base, injected, initContainers: names(result.pod.spec?.initContainers), containers: names(result.pod.spec?.containers), volumes: names(result.pod.spec?.volumes) },
    };
  };
}
