// ResourceDistribution: the feature's registration (its validating webhook) and its Web-safe
// pure functions. The Worker bundles this file through src/registry.ts, so it must not reach
// node: modules: the reconciler (which hashes with node:crypto) is exported from ./reconciler.ts,
// which src/reconcilers.ts imports.
import type { AdmissionHandler } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { RD_API_VERSION, RD_GROUP, RD_KIND } from './types.js';
import { validateResourceDistributionHandler } from './webhook.js';

export const resourceDistributionFeature: Feature = {
  name: 'resourcedistribution',
  handlers: [
    {
      endpoint: 'validate-kruise',
      handler: {
        match: { group: RD_GROUP, kind: RD_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] },
        handle: validateResourceDistributionHandler as AdmissionHandler,
      },
    },
  ],
  changeKinds: [`${RD_API_VERSION}/${RD_KIND}`],
};

export { validateResourceDistributionHandler } from './webhook.js';
export { formatFieldErrors, type FieldError } from '../kube/field-errors.js';
export { resourceDistributionWarnings, validateResourceDistribution } from './validate.js';
export { targetNamespaces, type TargetResult } from './targets.js';
export { matchesLabelSelector } from '../kube/selectors.js';
export * from './types.js';
