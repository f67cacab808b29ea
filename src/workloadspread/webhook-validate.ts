// The WorkloadSpread validating webhook on validate-kruise (../shared/SEMANTICS.md §3.2). It reads the other
// WorkloadSpreads (conflicts), kruise-configuration (custom kinds) and the target workload (patch
// validation) from cluster state. Stale state is validated against as last known, with a warning;
// missing state refuses the request, since a wrongly admitted WorkloadSpread misplaces every pod
// of its workload.
import { allow, deny, type AdmissionHandler, type HandlerMatch, type StateNeeds } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { KRUISE_CONFIGURATION_COLLECTION, DEFAULT_KRUISE_NAMESPACE, KRUISE_CONFIGURATION } from '../kube/kruise-configuration.js';
import { WORKLOADSPREADS_COLLECTION, workloadCollectionFor } from './collections.js';
import { groupOf, WS_GROUP, WS_KIND, type WorkloadSpread } from './types.js';
import { validateWorkloadSpread, type WorkloadSpreadValidationContext } from './validate.js';
import { parseCustomWorkloadWhitelist } from './workloads.js';

export const VALIDATE_WORKLOADSPREAD_MATCH: HandlerMatch = { group: WS_GROUP, kind: WS_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

export const VALIDATE_WORKLOADSPREAD_NEEDS: StateNeeds = {
  collections: [WORKLOADSPREADS_COLLECTION, KRUISE_CONFIGURATION_COLLECTION],
  maxStalenessMs: 5 * 60_000,
  fallback: 'last-known',
  withoutState: 'deny',
};

type Item = { metadata?: { name?: string; namespace?: string }; data?: unknown; spec?: NonNullable<WorkloadSpreadValidationContext['target']>['spec'] };

export function makeValidateWorkloadSpreadHandler(opts: { kruiseNamespace?: string } = {}): AdmissionHandler<WorkloadSpread> {
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  return async (req, state) => {
    const ws = req.object;
    if (!isRecord(ws) || !isRecord(ws.spec)) return deny(400, 'the admission request carries no WorkloadSpread');
    const namespace = ws.metadata?.namespace || req.namespace;
    const [spreads, configs] = await Promise.all([
      state.collection<WorkloadSpread>(WORKLOADSPREADS_COLLECTION),
      state.collection<Item>(KRUISE_CONFIGURATION_COLLECTION),
    ]);
    // The framework checks `needs` before calling; this only guards a misregistration.
    if (!spreads || !configs) throw new Error('WorkloadSpread validation state is missing');
    const config = configs.items.find((c) => c.metadata?.name === KRUISE_CONFIGURATION && c.metadata?.namespace === kruiseNamespace);
    const parsed = parseCustomWorkloadWhitelist(isRecord(config?.data) ? (config.data as Record<string, string>) : undefined);

    const ref = ws.spec.targetRef;
    const targetCollection = ref ? workloadCollectionFor(groupOf(ref.apiVersion), ref.kind) : undefined;
    const targets = targetCollection ? await state.collection<Item>(targetCollection) : undefined;
    // A target not (yet) in state is treated as absent: OpenKruise skips patch validation then.
    const target = targets?.items.find((t) => t.metadata?.namespace === namespace && t.metadata?.name === ref?.name);

    const errs = validateWorkloadSpread(ws, {
      others: spreads.items.filter((o) => o.metadata?.namespace === namespace),
      whitelist: 'whitelist' in parsed ? parsed.whitelist : parsed,
      ...(target ? { target: { spec: target.spec } } : {}),
      ...(req.operation === 'UPDATE' && isRecord(req.oldObject) ? { old: req.oldObject } : {}),
    });
    return errs.length > 0 ? deny(400, formatFieldErrors(errs)) : allow();
  };
}
