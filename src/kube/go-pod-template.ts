// Go's encoding/json output for a core/v1 PodTemplateSpec, as OpenKruise's controllers produce it
// when they encode a typed workload: fields in Go declaration order, `omitempty` zero values
// dropped, the never-omitted ones written as their zero value (`"creationTimestamp":null`,
// `"resources":{}`, `"containers":null`), quantities canonical, Go's string escaping. The struct
// tables are generated from k8s.io/api's struct tags (go-pod-template-types.ts). Fields the
// tables do not know are kept after the known ones (see go-json.ts).
import { encodeGo, struct } from './go-json.js';
import { POD_TEMPLATE_SPEC } from './go-pod-template-types.js';

/** The bytes Go's json.Marshal writes for a `corev1.PodTemplateSpec` holding `template`. */
export function encodePodTemplateSpec(template: unknown): string {
  return encodeGo(struct(POD_TEMPLATE_SPEC), template ?? {});
}

/**
 * The template as it comes out of Go's typed encoding and back into a generic map, as
 * `json.Unmarshal(…, &map[string]interface{})` leaves it: the fields Go keeps, with their values.
 * Spelled again with goJSON, it is what `json.Marshal` of that map writes (keys sorted).
 */
export function podTemplateAsGoMap(template: unknown): Record<string, unknown> {
  return JSON.parse(encodePodTemplateSpec(template)) as Record<string, unknown>;
}
