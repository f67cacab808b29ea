// The mutate-pod handler: injects the barrier env (./inject.ts). OpenKruise answers a
// KRUISE_CONTAINER_PRIORITY that is not an integer with 500 and strconv's message. The
// generateName suffix is random, as the API server's would be; nothing else reads the clock or state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { injectLaunchPriority, type LaunchPod } from './inject.js';

export const POD_CREATE_MATCH: HandlerMatch = { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['CREATE'] };

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

function nameSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return [...bytes].map((b) => ALPHANUMS[b % ALPHANUMS.length]).join('');
}

export const injectLaunchPriorityHandler: AdmissionHandler = (req) => {
  const pod = req.object;
  if (typeof pod !== 'object' || pod === null) return allow();
  const result = injectLaunchPriority(pod as LaunchPod, nameSuffix());
  if ('error' in result) return deny(500, result.error);
  return 'pod' in result ? allow(result.pod) : allow();
};
