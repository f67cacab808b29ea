// Building blocks for our API definitions. Each kind is written once, as TypeBox schemas: the
// TypeScript types come from `Static<>`, and scripts/gen-crds.ts turns the same schemas into the
// CRDs' structural openAPIV3Schema (infra/crds/). Core Kubernetes types are typed with
// @kubernetes/client-node's models and their schemas are inlined by the generator from the API
// server's own OpenAPI document (src/api/core-openapi.json), so neither is hand-copied.
import { Type, type TSchema, type Static, type SchemaOptions } from '@sinclair/typebox';

export { Type, type Static, type TSchema };

/** Marks a schema as a reference to a core definition, e.g. `io.k8s.api.core.v1.Container`. */
export const CORE_REF = 'x-kruise-serverless-core-ref';

/** A core Kubernetes type: typed by the client-node model T, schema inlined from the API server's OpenAPI. */
export function core<T>(definition: string, options: SchemaOptions = {}) {
  return Type.Unsafe<T>({ ...options, [CORE_REF]: definition });
}

/** int-or-string, as Kubernetes' IntOrString (e.g. `maxUnavailable: 1` or `"10%"`). */
export function intOrString(options: SchemaOptions = {}) {
  return Type.Unsafe<number | string>({
    ...options,
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
  });
}

/** A free-form object kept verbatim (OpenKruise uses this for embedded templates and raw extensions). */
export function preserveUnknown<T = Record<string, unknown>>(options: SchemaOptions = {}) {
  return Type.Unsafe<T>({ type: 'object', ...options, 'x-kubernetes-preserve-unknown-fields': true });
}

/** A map of string to string (labels, annotations, partitions…). */
export function stringMap(options: SchemaOptions = {}) {
  return Type.Record(Type.String(), Type.String(), options);
}

/** An int32/int64 field as OpenKruise declares it. */
export function int32(options: SchemaOptions = {}) {
  return Type.Integer({ format: 'int32', ...options });
}
export function int64(options: SchemaOptions = {}) {
  return Type.Integer({ format: 'int64', ...options });
}

/** An RFC 3339 timestamp (metav1.Time). */
export function time(options: SchemaOptions = {}) {
  return Type.String({ format: 'date-time', ...options });
}

/** A string restricted to the given values (rendered as an `enum` in the CRD). */
export function oneOf<const V extends string[]>(values: V, options: SchemaOptions = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: values, ...options });
}

/** A string typed as a union, without an enum in the CRD (OpenKruise leaves these open). */
export function openString<V extends string>(options: SchemaOptions = {}) {
  return Type.Unsafe<V>({ type: 'string', ...options });
}

export const opt = Type.Optional;
