// Renders a kind's definition into a CustomResourceDefinition (apiextensions.k8s.io/v1) with a
// structural schema. Core types referenced with `core()` are inlined from the API server's
// OpenAPI v2 definitions (a committed snapshot), converted the way controller-gen does it:
// IntOrString and Quantity become int-or-string, Time a date-time string, RawExtension
// free-form. Pure: the caller supplies the definitions.
import { CORE_REF } from './schema.js';
import type { TSchema } from '@sinclair/typebox';
import type { KindDefinition } from './kind.js';

export type JsonSchema = { [key: string]: unknown };
export type CoreDefinitions = Record<string, JsonSchema>;

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const SPECIAL: Record<string, () => JsonSchema> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': () => ({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }),
  [QUANTITY]: () => ({
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': () => ({ type: 'string', format: 'date-time' }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': () => ({ type: 'string', format: 'date-time' }),
  'io.k8s.apimachinery.pkg.runtime.RawExtension': () => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': () => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': () => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
};

/** Names of the core definitions a schema references directly or transitively. */
export function coreReferences(schema: unknown, defs: CoreDefinitions | undefined, seen = new Set<string>()): Set<string> {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const obj = node as JsonSchema;
    const ref = typeof obj[CORE_REF] === 'string' ? (obj[CORE_REF] as string)
      : typeof obj.$ref === 'string' ? (obj.$ref as string).replace('#/definitions/', '') : undefined;
    if (ref && !seen.has(ref)) {
      seen.add(ref);
      if (defs?.[ref] && !SPECIAL[ref]) visit(defs[ref]);
    }
    Object.values(obj).forEach(visit);
  };
  visit(schema);
  return seen;
}

function fromCore(name: string, defs: CoreDefinitions): JsonSchema {
  const special = SPECIAL[name];
  if (special) return special();
  const def = defs[name];
  if (!def) throw new Error(`core definition ${name} is missing from src/api/core-openapi.json (run npm run gen:crds -- --snapshot)`);
  return convertCore(def, defs);
}

function convertCore(node: JsonSchema, defs: CoreDefinitions): JsonSchema {
  if (typeof node.$ref === 'string') return fromCore(node.$ref.replace('#/definitions/', ''), defs);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key.startsWith('x-kubernetes-')) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, convertCore(v, defs)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = typeof value === 'object' ? convertCore(value as JsonSchema, defs) : value;
    } else {
      out[key] = value;
    }
  }
  if (out.properties && !out.type) out.type = 'object';
  if (out.format === 'int-or-string') return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
  return out;
}

/** Merges object schemas (TypeBox Intersect → one object, as Go's inline embedding does). */
function mergeObjects(parts: JsonSchema[]): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const p of parts) {
    Object.assign(properties, (p.properties as Record<string, unknown>) ?? {});
    for (const r of (p.required as string[] | undefined) ?? []) required.add(r);
  }
  const merged: JsonSchema = { type: 'object', properties };
  if (required.size) merged.required = [...required].sort();
  return merged;
}

/** TypeBox schema → structural schema accepted by apiextensions.k8s.io/v1. */
export function toStructural(node: JsonSchema, defs: CoreDefinitions): JsonSchema {
  if (typeof node[CORE_REF] === 'string') {
    const resolved = fromCore(node[CORE_REF] as string, defs);
    const { [CORE_REF]: _ref, ...options } = node;
    return { ...resolved, ...options };
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    const merged = mergeObjects((allOf as JsonSchema[]).map((p) => toStructural(p, defs)));
    return { ...rest, ...merged, ...(rest.description ? { description: rest.description } : {}) };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, toStructural(v, defs)]));
    } else if (key === 'patternProperties') {
      // TypeBox Record → additionalProperties
      const [inner] = Object.values(value as Record<string, JsonSchema>);
      if (inner) out.additionalProperties = toStructural(inner, defs);
    } else if (key === 'items') {
      out.items = toStructural(value as JsonSchema, defs);
    } else if (key === 'anyOf' && !node['x-kubernetes-int-or-string']) {
      throw new Error('unions other than int-or-string are not structural; use openString/oneOf');
    } else if (key === 'additionalProperties' && value === false) {
      continue;
    } else {
      out[key] = value;
    }
  }
  return out;
}

export type Crd = {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: JsonSchema;
};

/**
 * On a CRD whose versions need our conversion webhook: the strategy and the storage version to
 * use once the installer knows the edge's URL (src/install/conversion.ts). Until then the CRD
 * says `strategy: None` and stores the version our features read, so a cluster without the edge
 * loses no field of it.
 */
export const CONVERSION_ANNOTATION = 'kruise-serverless.io/conversion';
export const STORAGE_ANNOTATION = 'kruise-serverless.io/storage-version';
/** The storage version without the webhook, restored when it is removed (uninstall). */
export const STORAGE_WITHOUT_WEBHOOK_ANNOTATION = 'kruise-serverless.io/storage-version-without-webhook';

function openApiSchema(def: KindDefinition, spec: TSchema, status: TSchema, defs: CoreDefinitions): JsonSchema {
  return {
    description: def.description,
    type: 'object',
    properties: {
      apiVersion: { type: 'string', description: 'The versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'The REST resource this object represents.' },
      metadata: { type: 'object' },
      spec: toStructural(spec as unknown as JsonSchema, defs),
      status: toStructural(status as unknown as JsonSchema, defs),
    },
  };
}

/** Every version a kind serves, sorted by name, with its schemas. */
export function servedVersions(def: KindDefinition): { name: string; spec: TSchema; status: TSchema; storage: boolean }[] {
  // Without the webhook, storing another version than the one features write would prune fields.
  const storage = def.conversion === 'Webhook' ? def.version : def.storage ?? def.version;
  if (def.storage && !(def.otherVersions ?? []).some((v) => v.name === def.storage) && def.storage !== def.version) {
    throw new Error(`${def.kind}: storage version ${def.storage} is not served`);
  }
  const all = [{ name: def.version, spec: def.spec, status: def.status }, ...(def.otherVersions ?? []).map((v) => ({ name: v.name, spec: v.spec ?? def.spec, status: v.status ?? def.status }))];
  return all.map((v) => ({ ...v, storage: v.name === storage })).sort((a, b) => a.name.localeCompare(b.name));
}

export function renderCrd(def: KindDefinition, defs: CoreDefinitions): Crd {
  const subresources: JsonSchema = { status: {} };
  if (def.scale) subresources.scale = { ...def.scale };
  const versions = servedVersions(def).map((v) => ({
    name: v.name,
    served: true,
    storage: v.storage,
    schema: { openAPIV3Schema: openApiSchema(def, v.spec, v.status, defs) },
    subresources,
    additionalPrinterColumns: def.printerColumns.map((c) => ({ ...c })),
  }));
  const annotations = def.conversion === 'Webhook'
    ? { [CONVERSION_ANNOTATION]: 'Webhook', [STORAGE_ANNOTATION]: def.storage ?? def.version, [STORAGE_WITHOUT_WEBHOOK_ANNOTATION]: def.version }
    : undefined;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${def.plural}.${def.group}`,
      labels: { 'app.kubernetes.io/part-of': 'kruise-serverless' },
      ...(annotations ? { annotations } : {}),
    },
    spec: {
      group: def.group,
      names: {
        kind: def.kind,
        listKind: def.listKind ?? `${def.kind}List`,
        plural: def.plural,
        singular: def.singular,
        ...(def.shortNames?.length ? { shortNames: def.shortNames } : {}),
        ...(def.categories?.length ? { categories: def.categories } : {}),
      },
      scope: def.scope,
      versions,
      conversion: { strategy: 'None' },
    },
  };
}
