// The Advanced StatefulSet webhooks, for apps.kruise.io v1beta1 and v1alpha1 alike: defaulting on
// mutate-statefulset, validation on validate-kruise. OpenKruise answers an invalid StatefulSet with
// 422 (Unprocessable Entity) and the aggregated field errors; an UPDATE that breaks InPlaceOnly's
// images-only rule gets its own message, checked only once the fields are valid. Neither handler
// reads cluster state.
import { allow, deny, type AdmissionHandler, type HandlerMatch } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { defaultedStatefulSet, type StatefulSetLike } from './defaults.js';
import { STATEFULSET_KIND } from './types.js';
import { inPlaceOnlyChange, validateStatefulSet, withoutEmpty } from './validate.js';

export const STATEFULSET_GROUP = 'apps.kruise.io';

/** Both served versions; the `apps` group's StatefulSet is not ours. */
export const STATEFULSET_MATCH: HandlerMatch = { group: STATEFULSET_GROUP, kind: STATEFULSET_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

const NO_STATEFULSET = 'the admission request carries no StatefulSet';

/** The object with its namespace, which a CREATE may leave to the request. */
function admitted(object: Record<string, unknown>, namespace: string): StatefulSetLike {
  const meta = isRecord(object.metadata) ? object.metadata : {};
  return { ...object, metadata: { ...meta, ...(meta.namespace ? {} : { namespace }) }, spec: isRecord(object.spec) ? object.spec : {} } as StatefulSetLike;
}

export const validateStatefulSetHandler: AdmissionHandler = (req) => {
  if (!isRecord(req.object)) return deny(400, NO_STATEFULSET);
  const sts = admitted(req.object, req.namespace);
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) ? admitted(req.oldObject, req.namespace) : undefined;
  const errs = validateStatefulSet(sts, old);
  if (errs.length) return deny(422, formatFieldErrors(errs));
  const change = old && inPlaceOnlyChange(sts, old);
  if (change) return deny(422, `invalid template modified with InPlaceOnly strategy: ${change}, currently only image update is allowed for InPlaceOnly`);
  return allow();
};

const sameTemplate = (a: unknown, b: unknown) => JSON.stringify(withoutEmpty(a)) === JSON.stringify(withoutEmpty(b));

/**
 * SetDefaultsStatefulSet: the template's defaults are injected on CREATE, and on UPDATE only when
 * the template changed (so a stored StatefulSet is never rewritten by a newer defaulting alone).
 */
export const defaultStatefulSetHandler: AdmissionHandler = (req) => {
  const sts = req.object;
  if (!isRecord(sts)) return deny(400, NO_STATEFULSET);
  // A spec of the wrong type is left for the API server's schema check to refuse.
  if (sts.spec !== undefined && sts.spec !== null && !isRecord(sts.spec)) return allow();
  const spec = isRecord(sts.spec) ? sts.spec : {};
  const old = isRecord(req.oldObject) && isRecord(req.oldObject.spec) ? req.oldObject.spec : undefined;
  const template = req.operation === 'CREATE' || !sameTemplate(spec.template, old?.template);
  return allow(defaultedStatefulSet({ ...sts, spec } as StatefulSetLike, { template }));
};
