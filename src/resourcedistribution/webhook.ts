// The validating webhook for ResourceDistributions (CREATE, UPDATE). OpenKruise answers invalid
// objects with admission.Errored(422, errors.ToAggregate()): allowed false, code 422, the
// aggregated field errors as the message. Web-only: the Worker runs this.
import { allow, deny, type AdmissionHandler } from '../admission/types.js';
import type { ResourceDistribution } from './types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { resourceDistributionWarnings, validateResourceDistribution } from './validate.js';

export const validateResourceDistributionHandler: AdmissionHandler<ResourceDistribution> = (req) => {
  const rd = req.object;
  if (!rd || typeof rd !== 'object') return deny(400, 'the admission request carries no ResourceDistribution');
  const old = req.operation === 'UPDATE' ? req.oldObject : undefined;
  const errs = validateResourceDistribution(rd, old);
  if (errs.length > 0) {
    return deny(422, `resourcedistribution ${JSON.stringify(rd.metadata?.name ?? req.name ?? '')}: ${formatFieldErrors(errs)}`);
  }
  return allow(undefined, resourceDistributionWarnings(rd));
};
