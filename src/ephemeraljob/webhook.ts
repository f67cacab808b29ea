// The EphemeralJob validating webhook on validate-kruise. OpenKruise answers an invalid job with
// 400 and has no defaulting webhook for it. Reads no cluster state. No controller injects
// EphemeralJobs' containers yet, so a valid new job is refused, saying so, rather than accepted
// and silently never run.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { isRecord } from '../kube/validation.js';
import { validateEphemeralJob } from './validate.js';

export const EPHEMERALJOB_GROUP = 'apps.kruise.io';
export const EPHEMERALJOB_KIND = 'EphemeralJob';
export const NOT_RUN_YET = 'EphemeralJob is not run by Kruise Serverless yet: no controller would inject its containers (docs/features/ephemeraljob.md)';
export const EPHEMERALJOB_MATCH: HandlerMatch = { group: EPHEMERALJOB_GROUP, kind: EPHEMERALJOB_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

export const validateEphemeralJobHandler: AdmissionHandler = (req) => {
  if (!isRecord(req.object) || !isRecord(req.object.spec)) return deny(400, 'the admission request carries no EphemeralJob');
  const err = validateEphemeralJob(req.object);
  if (err) return deny(400, err);
  return req.operation === 'CREATE' ? deny(403, NOT_RUN_YET) : allow();
};
