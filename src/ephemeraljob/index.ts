// EphemeralJob: the feature's registration — its validating webhook, and the change events that
// run its reconciler on Lambda when a job is admitted. The reconciler (./controller/reconciler.ts)
// is listed in src/reconcilers.ts. Web APIs only.
import type { Feature } from '../feature.js';
import { EPHEMERALJOB_API_VERSION, EPHEMERALJOB_KIND } from './types.js';
import { EPHEMERALJOB_MATCH, validateEphemeralJobHandler } from './webhook.js';

export const ephemeralJobFeature: Feature = {
  name: 'ephemeraljob',
  handlers: [{ endpoint: 'validate-kruise', handler: { match: EPHEMERALJOB_MATCH, handle: validateEphemeralJobHandler } }],
  changeKinds: [`${EPHEMERALJOB_API_VERSION}/${EPHEMERALJOB_KIND}`],
};

export { validateEphemeralJob } from './validate.js';
