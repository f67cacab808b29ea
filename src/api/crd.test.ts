import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { core, intOrString, preserveUnknown, stringMap } from './schema.js';
import { renderCrd, toStructural, type CoreDefinitions, type JsonSchema } from './crd.js';
import { crdFileName, renderCrdYaml } from './crd-files.js';
import { ALL_KINDS } from './index.js';

const defs: CoreDefinitions = {
  'io.k8s.api.core.v1.Thing': {
    description: 'dropped',
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', description: 'dropped too' },
      size: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' },
      port: { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
      at: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time' },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    },
  },
};

describe('toStructural', () => {
  it.each<[string, JsonSchema, JsonSchema]>([
    ['int-or-string stays as is', intOrString() as unknown as JsonSchema, { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    ['a record becomes additionalProperties', stringMap() as unknown as JsonSchema, { type: 'object', additionalProperties: { type: 'string' } }],
    ['free-form keeps unknown fields', preserveUnknown() as unknown as JsonSchema, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
  ])('%s', (_name, input, want) => {
    expect(toStructural(input, defs)).toEqual(want);
  });

  it('inlines a core definition, converting Quantity, IntOrString and Time, without descriptions', () => {
    const out = toStructural(core('io.k8s.api.core.v1.Thing', { description: 'ours' }) as unknown as JsonSchema, defs);
    expect(out.description).toBe('ours');
    const props = out.properties as Record<string, JsonSchema>;
    expect(props.name).toEqual({ type: 'string' });
    expect(props.size?.['x-kubernetes-int-or-string']).toBe(true);
    expect(props.port).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(props.at).toEqual({ type: 'string', format: 'date-time' });
    expect(props.tags).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('merges an intersection into one object, as Go inlines embedded structs', () => {
    const schema = Type.Intersect([core('io.k8s.api.core.v1.Thing'), Type.Object({ extra: Type.Optional(Type.String()) })]);
    const out = toStructural(schema as unknown as JsonSchema, defs);
    expect(Object.keys(out.properties as object).sort()).toEqual(['at', 'extra', 'name', 'port', 'size', 'tags']);
    expect(out.required).toEqual(['name']);
  });

  it('refuses a core type missing from the snapshot', () => {
    expect(() => toStructural(core('io.k8s.api.core.v1.Nope') as unknown as JsonSchema, defs)).toThrow(/missing/);
  });

  it('refuses unions that are not int-or-string', () => {
    expect(() => toStructural(Type.Union([Type.String(), Type.Number()]) as unknown as JsonSchema, defs)).toThrow(/structural/);
  });
});

const snapshot = JSON.parse(readFileSync(join(import.meta.dirname, 'core-openapi.json'), 'utf8')) as CoreDefinitions;

/** The parts of the structural-schema rules that are easy to break by accident. */
function structuralProblems(node: JsonSchema, path: string): string[] {
  const problems: string[] = [];
  const free = node['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrStr = node['x-kubernetes-int-or-string'] === true;
  if (!node.type && !free && !intOrStr) problems.push(`${path}: no type`);
  if (node.$ref) problems.push(`${path}: $ref`);
  if (node.anyOf && !intOrStr) problems.push(`${path}: anyOf`);
  if (node.properties && node.additionalProperties) problems.push(`${path}: properties and additionalProperties`);
  for (const [k, v] of Object.entries((node.properties as Record<string, JsonSchema>) ?? {})) problems.push(...structuralProblems(v, `${path}.${k}`));
  if (node.items) problems.push(...structuralProblems(node.items as JsonSchema, `${path}[]`));
  if (node.additionalProperties && typeof node.additionalProperties === 'object') problems.push(...structuralProblems(node.additionalProperties as JsonSchema, `${path}{}`));
  return problems;
}

describe.each(ALL_KINDS.map((k) => [k.kind, k] as const))('%s CRD', (_kind, def) => {
  const crd = renderCrd(def, snapshot);
  it('has a structural schema', () => {
    for (const v of crd.spec.versions as { schema: { openAPIV3Schema: JsonSchema } }[]) {
      expect(structuralProblems(v.schema.openAPIV3Schema, def.kind)).toEqual([]);
    }
  });
  it('has the status subresource, and scale where declared', () => {
    const v = (crd.spec.versions as { subresources: JsonSchema }[])[0]!;
    expect(v.subresources.status).toEqual({});
    expect(v.subresources.scale).toEqual(def.scale);
  });
  it('matches the committed infra/crds file (run npm run gen:crds)', () => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', 'infra', 'crds', crdFileName(def)), 'utf8');
    expect(committed).toBe(renderCrdYaml(def, snapshot));
  });
});

describe('versions, as OpenKruise 1.9 serves them', () => {
  const versionsOf = (kind: string) => {
    const def = ALL_KINDS.find((k) => k.kind === kind)!;
    const crd = renderCrd(def, snapshot);
    return { crd, names: (crd.spec.versions as { name: string; served: boolean }[]).filter((v) => v.served).map((v) => v.name) };
  };
  it.each(['StatefulSet', 'DaemonSet', 'SidecarSet', 'BroadcastJob', 'AdvancedCronJob', 'ImagePullJob'])('%s serves v1alpha1 and v1beta1', (kind) => {
    expect(versionsOf(kind).names).toEqual(['v1alpha1', 'v1beta1']);
  });
  it.each(['StatefulSet', 'DaemonSet', 'SidecarSet'])('%s is marked for the conversion webhook, stored as v1beta1 once installed', (kind) => {
    const { crd } = versionsOf(kind);
    expect(crd.metadata.annotations).toMatchObject({ 'kruise-serverless.io/conversion': 'Webhook', 'kruise-serverless.io/storage-version': 'v1beta1' });
    expect(crd.spec.conversion).toEqual({ strategy: 'None' });
  });
  it.each(['BroadcastJob', 'AdvancedCronJob', 'ImagePullJob'])('%s stores v1beta1 with conversion None', (kind) => {
    const { crd } = versionsOf(kind);
    expect((crd.spec.versions as { name: string; storage: boolean }[]).find((v) => v.storage)?.name).toBe('v1beta1');
    expect(crd.metadata.annotations).toBeUndefined();
  });
  it('gives SidecarSet v1beta1 customVersion and no namespace', () => {
    const [alpha, beta] = versionsOf('SidecarSet').crd.spec.versions as { schema: { openAPIV3Schema: { properties: { spec: { properties: object } } } } }[];
    expect(Object.keys(alpha!.schema.openAPIV3Schema.properties.spec.properties)).toContain('namespace');
    expect(Object.keys(beta!.schema.openAPIV3Schema.properties.spec.properties)).not.toContain('namespace');
    expect(Object.keys(beta!.schema.openAPIV3Schema.properties.spec.properties)).toContain('customVersion');
  });
});
