// The CloneSet webhooks: defaulting on mutate-cloneset, validation on validate-kruise. OpenKruise
// answers invalid CloneSets with 422 (Unprocessable Entity) and the aggregated field errors.
// Neither reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { defaultedCloneSet, type CloneSetLike } from './defaults.js';
import { validateCloneSet } from './validate.js';
import { CLONESET_KIND } from './types.js';

export const VALIDATE_CLONESET_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: CLONESET_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

export const validateCloneSetHandler: AdmissionHandler = (req) => {
  const cs = req.object;
  if (!isRecord(cs) || !isRecord(cs.spec)) return deny(400, 'the admission request carries no CloneSet');
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? (req.oldObject as CloneSetLike) : undefined;
  const errs = validateCloneSet(cs as CloneSetLike, old);
  return errs.length ? deny(422, formatFieldErrors(errs)) : allow();
};

/**
 * SetDefaultsCloneSet: the template's defaults are injected on CREATE, and on UPDATE only when
 * the template changed (so a stored CloneSet is never rewritten by a newer defaulting alone).
 */
export const defaultCloneSetHandler: AdmissionHandler = (req) => {
  const cs = req.object;
  if (!isRecord(cs) || !isRecord(cs.spec)) return deny(400, 'the admission request carries no CloneSet');
  const old = isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? req.oldObject.spec : undefined;
  const template = req.operation === 'CREATE' || JSON.stringify(cs.spec.template) !== JSON.stringify(old?.template);
  return allow(defaultedCloneSet(cs as CloneSetLike, { template }));
};
