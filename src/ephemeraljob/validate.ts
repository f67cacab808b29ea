// EphemeralJob validation (OpenKruise: pkg/webhook/ephemeraljob/validating): each template
// container as the API server checks an ephemeral container — a DNS-1123 name unique in the list,
// an image without surrounding spaces, and none of the fields an ephemeral container may not set.
// Messages are Kubernetes' field errors under `ephemeralContainers[i]`. Pure.
import { formatFieldErrors, type FieldError } from '../kube/field-errors.js';
import { isDNS1123Label, isRecord } from '../kube/validation.js';

const FORBIDDEN = 'cannot be set for an Ephemeral Container';
/** EphemeralContainerCommon fields outside OpenKruise's allowedEphemeralContainerFields. */
const NOT_ALLOWED = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

function containerErrors(c: Record<string, unknown>, at: string, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof c.name === 'string' ? c.name : '';
  if (!name) errs.push({ field: `${at}.name`, type: 'Required', detail: '' });
  else for (const detail of isDNS1123Label(name)) errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail });
  const image = typeof c.image === 'string' ? c.image : '';
  if (!image) errs.push({ field: `${at}.image`, type: 'Required', detail: '' });
  else if (image !== image.trim()) errs.push({ field: `${at}.image`, type: 'Invalid', value: image, detail: 'must not have leading or trailing whitespace' });
  if (seen.has(name)) errs.push({ field: `${at}.name`, type: 'Duplicate', value: name, detail: '' });
  seen.add(name);
  for (const key of NOT_ALLOWED) {
    const v = c[key];
    const set = v !== undefined && v !== null && !(isRecord(v) && Object.keys(v).length === 0) && !(Array.isArray(v) && v.length === 0);
    if (set) errs.push({ field: `${at}.${key}`, type: 'Forbidden', detail: FORBIDDEN });
  }
  const mounts = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
  mounts.forEach((m, i) => {
    if (!isRecord(m)) return;
    if (m.subPath) errs.push({ field: `${at}.volumeMounts[${i}].subPath`, type: 'Forbidden', detail: FORBIDDEN });
    if (m.subPathExpr) errs.push({ field: `${at}.volumeMounts[${i}].subPathExpr`, type: 'Forbidden', detail: FORBIDDEN });
  });
  return errs;
}

/** The message OpenKruise answers an invalid EphemeralJob with, or undefined when it is valid. */
export function validateEphemeralJob(job: unknown): string | undefined {
  const spec = isRecord(job) && isRecord(job.spec) ? job.spec : undefined;
  const template = spec && isRecord(spec.template) ? spec.template : undefined;
  const list = template?.ephemeralContainers;
  if (list !== undefined && list !== null && !Array.isArray(list)) return 'spec.template.ephemeralContainers: must be a list';
  const seen = new Set<string>();
  const errs = (list ?? []).flatMap((c, i) => (isRecord(c) ? containerErrors(c, `ephemeralContainers[${i}]`, seen) : [{ field: `ephemeralContainers[${i}]`, type: 'Invalid' as const, value: c, detail: 'must be an object' }]));
  return errs.length ? formatFieldErrors(errs) : undefined;
}
