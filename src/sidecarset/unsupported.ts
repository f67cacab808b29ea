// SidecarSet fields OpenKruise 1.9 acts on that are not implemented here yet: native sidecar
// containers (`initContainers` with `restartPolicy: Always`, injected in OpenKruise's order),
// `resourcesPolicy` and `shareVolumeDevicePolicy`. Kept silently they would be ignored, so the
// validating webhook refuses them, saying so. Pure.
import type { FieldError } from '../kube/field-errors.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const NOT_YET = 'is not supported by Kruise Serverless yet (it would be ignored)';

export function unsupportedFieldErrors(spec: unknown): FieldError[] {
  if (!isRecord(spec)) return [];
  const errs: FieldError[] = [];
  const inits = Array.isArray(spec['initContainers']) ? spec['initContainers'] : [];
  inits.forEach((c, i) => {
    if (isRecord(c) && c['restartPolicy'] === 'Always') {
      errs.push({ field: `spec.initContainers[${i}].restartPolicy`, type: 'Forbidden', detail: `a native sidecar container (restartPolicy: Always) ${NOT_YET}` });
    }
  });
  for (const field of ['resourcesPolicy', 'shareVolumeDevicePolicy']) {
    if (spec[field] !== undefined && spec[field] !== null) errs.push({ field: `spec.${field}`, type: 'Forbidden', detail: `${field} ${NOT_YET}` });
  }
  return errs;
}
