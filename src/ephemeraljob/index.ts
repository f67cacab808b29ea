// EphemeralJob: the feature's registration — its validating webhook. The injection and status
// logic is in ./controller (pure, not yet wired to a reconciler: see docs/features/ephemeraljob.md).
import type { Feature } from '../feature.js';
import { EPHEMERALJOB_MATCH, validateEphemeralJobHandler } from './webhook.js';

export const ephemeralJobFeature: Feature = {
  name: 'ephemeraljob',
  handlers: [{ endpoint: 'validate-kruise', handler: { match: EPHEMERALJOB_MATCH, handle: validateEphemeralJobHandler } }],
};

export { validateEphemeralJob } from './validate.js';
