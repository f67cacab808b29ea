// UnitedDeployment: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages). The reconciler itself (./controller/reconciler.ts)
// is listed in src/reconcile/all.ts. Web APIs only.
import type { Feature } from '../edge-state/contracts.js';
import { UD_API_VERSION, UD_KIND } from './types.js';
import { UD_MATCH, defaultUnitedDeploymentHandler, validateUnitedDeploymentHandler } from './webhook.js';

export const unitedDeploymentFeature: Feature = {
  name: 'uniteddeployment',
  handlers: [
    { endpoint: 'mutate-uniteddeployment', handler: { match: UD_MATCH, handle: defaultUnitedDeploymentHandler } },
    { endpoint: 'validate-kruise', handler: { match: UD_MATCH, handle: validateUnitedDeploymentHandler } },
  ],
  // An admitted UnitedDeployment runs its controller (Lambda: ObjectChanged events).
  changeKinds: [`${UD_API_VERSION}/${UD_KIND}`],
};

export { validateUnitedDeployment } from './validate.js';
export { defaultedUnitedDeployment } from './defaults.js';
