// The SidecarSet webhooks (../shared/SEMANTICS.md §2.2, §2.3): defaulting on `mutate-sidecarset`, validation
// on `validate-kruise`. Validation reads other SidecarSets, Namespaces, the kruise-configuration
// ConfigMap and SidecarSet revisions from cluster state; a wrongly admitted SidecarSet can break
// every pod it matches, so state never synced refuses the request; stale state is validated
// against as last known, with a warning.
import type { V1ControllerRevision } from '@kubernetes/client-node';
import { allow, deny, type AdmissionHandler, type HandlerMatch, type RegisteredHandler, type StateNeeds } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord, type Labels } from '../kube/validation.js';
import { KRUISE_CONFIGURATION_COLLECTION, DEFAULT_KRUISE_NAMESPACE, KRUISE_CONFIGURATION } from '../kube/kruise-configuration.js';
import { NAMESPACES_COLLECTION, SIDECARSETS_COLLECTION, SIDECARSET_REVISIONS_COLLECTION } from './collections.js';
import { defaultSidecarSet, withHashAnnotations } from './defaults.js';
import { type SidecarSet } from './types.js';
import { parsePatchMetadataWhitelist, validateSidecarSet, type SidecarSetValidationContext } from './validate.js';

export type SidecarSetWebhookOptions = {
  /** Where kruise-configuration and the SidecarSet revisions live (OpenKruise: POD_NAMESPACE). */
  kruiseNamespace?: string;
  /** Feature gate SidecarSetPatchPodMetadataDefaultsAllowed (default false, as in OpenKruise 1.8). */
  patchPodMetadataDefaultsAllowed?: boolean;
};

const SIDECARSET_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: 'SidecarSet', subResource: '', operations: ['CREATE', 'UPDATE'] };

type Meta = { name?: string; namespace?: string; labels?: Record<string, string> };
type Item = { metadata?: Meta; data?: unknown };

/** Defaults the SidecarSet and (re)computes its hash annotations; on CREATE and UPDATE. */
export const defaultSidecarSetHandler: AdmissionHandler<SidecarSet> = async (req) => {
  if (!isRecord(req.object)) return deny(400, 'the admission request carries no SidecarSet');
  return allow(await withHashAnnotations(defaultSidecarSet(req.object)));
};

/** Validates a SidecarSet against §2.3, with the Kruise namespace and gates given. */
export function makeValidateSidecarSetHandler(opts: SidecarSetWebhookOptions = {}): AdmissionHandler<SidecarSet> {
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  return async (req, state) => {
    const set = req.object;
    if (!isRecord(set)) return deny(400, 'the admission request carries no SidecarSet');
    const [sets, namespaces, configs, revisions] = await Promise.all([
      state.collection<SidecarSet>(SIDECARSETS_COLLECTION),
      state.collection<Item>(NAMESPACES_COLLECTION),
      state.collection<Item>(KRUISE_CONFIGURATION_COLLECTION),
      state.collection<V1ControllerRevision>(SIDECARSET_REVISIONS_COLLECTION),
    ]);
    // The framework checks `needs` before calling; this only guards a misregistration.
    if (!sets || !namespaces || !configs || !revisions) throw new Error('SidecarSet validation state is missing');

    const nsLabels = new Map<string, Labels>(namespaces.items.map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}]));
    const config = configs.items.find((c) => c.metadata?.name === KRUISE_CONFIGURATION && c.metadata?.namespace === kruiseNamespace);
    const ctx: SidecarSetValidationContext = {
      otherSets: sets.items,
      namespaceLabels: (name) => nsLabels.get(name),
      patchMetadataWhitelist: parsePatchMetadataWhitelist(isRecord(config?.data) ? (config.data as Record<string, string>) : undefined),
      revisions: revisions.items.filter((r) => r.metadata?.namespace === kruiseNamespace),
      patchPodMetadataDefaultsAllowed: opts.patchPodMetadataDefaultsAllowed ?? false,
      ...(req.operation === 'UPDATE' && isRecord(req.oldObject) ? { oldSet: req.oldObject } : {}),
    };
    const errs = validateSidecarSet(set, ctx);
    // OpenKruise answers admission.Errored(500, errs.ToAggregate()) (§1.2, §2.3).
    return errs.length > 0 ? deny(500, formatFieldErrors(errs)) : allow();
  };
}

export const validateSidecarSetHandler: AdmissionHandler<SidecarSet> = makeValidateSidecarSetHandler();

/**
 * What validation reads. Older than five minutes: validated against the last known state, with a
 * warning. Never synced: refused (503), since conflicts with sets the edge never saw cannot be checked.
 */
export const VALIDATE_SIDECARSET_NEEDS: StateNeeds = {
  collections: [SIDECARSETS_COLLECTION, NAMESPACES_COLLECTION, KRUISE_CONFIGURATION_COLLECTION, SIDECARSET_REVISIONS_COLLECTION],
  maxStalenessMs: 5 * 60_000,
  fallback: 'last-known',
  withoutState: 'deny',
};

export type SidecarSetHandlerRegistration = { endpoint: string; handler: Omit<RegisteredHandler, 'feature'> };

/** The two registrations, shaped for a Feature's `handlers` (the integrator adds them to src/registry.ts). */
export function sidecarSetWebhookHandlers(opts: SidecarSetWebhookOptions = {}): SidecarSetHandlerRegistration[] {
  return [
    { endpoint: 'mutate-sidecarset', handler: { match: SIDECARSET_MATCH, handle: defaultSidecarSetHandler as AdmissionHandler } },
    {
      endpoint: 'validate-kruise',
      handler: { match: SIDECARSET_MATCH, handle: makeValidateSidecarSetHandler(opts) as AdmissionHandler, needs: VALIDATE_SIDECARSET_NEEDS },
    },
  ];
}

/** The registrations with the default Kruise namespace (kruise-system) and gates. */
export const sidecarSetValidationHandlers: readonly SidecarSetHandlerRegistration[] = sidecarSetWebhookHandlers();
