// The EphemeralJob validating webhook on validate-kruise. OpenKruise answers an invalid job with
// 400 and has no defaulting webhook for it. Reads no cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { isRecord } from '../kube/validation.js';
import { EPHEMERALJOB_GROUP, EPHEMERALJOB_KIND } from './types.js';
import { validateEphemeralJob } from './validate.js';

export const EPHEMERALJOB_MATCH: HandlerMatch = { group: EPHEMERALJOB_GROUP, kind: EPHEMERALJOB_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

export const validateEphemeralJobHandler: AdmissionHandler = (req) => {
  if (!isRecord(req.object) || !isRecord(req.object.spec)) return deny(400, 'the admission request carries no EphemeralJob');
  const err = validateEphemeralJob(req.object);
  if (err) return deny(400, err);
  return allow();
};
