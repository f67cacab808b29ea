import { describe, expect, it } from 'vitest';
import type { ResourceDistribution } from './types.js';
import { formatFieldError, formatFieldErrors, type FieldError } from '../kube/field-errors.js';
import { resourceDistributionWarnings, validateResourceDistribution } from './validate.js';

type Spec = { resource?: unknown; targets?: unknown };
const cm = (over: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { color: 'blue' }, ...over });
const secret = (over: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, ...over });
const rd = (spec: Spec, name = 'sample'): ResourceDistribution =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name }, spec: { resource: cm(), targets: { allNamespaces: true }, ...spec } }) as unknown as ResourceDistribution;
const list = (...names: unknown[]) => ({ list: names.map((name) => ({ name })) });

/** The rendered messages, which is what users see. */
const messages = (rd: ResourceDistribution, old?: ResourceDistribution) => validateResourceDistribution(rd, old).map(formatFieldError);

describe('validateResourceDistribution', () => {
  it.each<[string, ResourceDistribution, string[]]>([
    ['a valid ConfigMap distribution', rd({}), []],
    ['a valid Secret distribution', rd({ resource: secret({ data: { password: 'cGFzcw==' }, stringData: { user: 'admin' }, type: 'Opaque' }) }), []],
    ['no targets at all is allowed', rd({ targets: undefined }), []],
    ['name required', rd({}, ''), ['metadata.name: Required value: a name is required']],
    ['name must be a subdomain', rd({}, 'Bad_Name'), [
      'metadata.name: Invalid value: "Bad_Name": must be a lowercase RFC 1123 subdomain: lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit (e.g. \'app-config\')']],
    ['resource required', rd({ resource: undefined }), ['spec.resource: Required value: the complete Secret or ConfigMap to distribute is required']],
    ['empty resource', rd({ resource: {} }), ['spec.resource: Required value: the complete Secret or ConfigMap to distribute is required']],
    ['resource not an object', rd({ resource: 'yaml' }), ['spec.resource: Invalid value: "yaml": must be a Secret or ConfigMap object']],
    ['unsupported kind', rd({ resource: cm({ kind: 'Pod' }) }), ['spec.resource.kind: Invalid value: "Pod": only Secret and ConfigMap can be distributed']],
    ['kind required', rd({ resource: cm({ kind: undefined }) }), ['spec.resource.kind: Required value: set kind: Secret or kind: ConfigMap']],
    ['apiVersion required', rd({ resource: cm({ apiVersion: undefined }) }), ['spec.resource.apiVersion: Required value: set apiVersion: v1']],
    ['apiVersion must be v1', rd({ resource: cm({ apiVersion: 'apps/v1' }) }), [
      'spec.resource.apiVersion: Invalid value: "apps/v1": only v1 Secrets and ConfigMaps can be distributed; set apiVersion: v1']],
    ['nothing else checked for an unsupported kind', rd({ resource: { apiVersion: 'v1', kind: 'Pod', metadata: {}, data: { 'bad key': 1 } } }), [
      'spec.resource.kind: Invalid value: "Pod": only Secret and ConfigMap can be distributed']],
    ['resource name required', rd({ resource: cm({ metadata: {} }) }), ['spec.resource.metadata.name: Required value: a name is required']],
    ['resource name must be a subdomain', rd({ resource: cm({ metadata: { name: 'UP' } }) }), [
      'spec.resource.metadata.name: Invalid value: "UP": must be a lowercase RFC 1123 subdomain: lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit (e.g. \'app-config\')']],
    ['resource metadata not an object', rd({ resource: cm({ metadata: 'x' }) }), ['spec.resource.metadata: Invalid value: "x": must be an object']],
    ['resourceVersion forbidden', rd({ resource: cm({ metadata: { name: 'game-demo', resourceVersion: '12' } }) }), [
      'spec.resource.metadata.resourceVersion: Forbidden: must not be set: every copy is created anew']],
    ['a namespace in the resource is allowed (ignored)', rd({ resource: cm({ metadata: { name: 'game-demo', namespace: 'x' } }) }), []],
    ['ConfigMap data key', rd({ resource: cm({ data: { 'a b': 'x' } }) }), [
      'spec.resource.data: Invalid value: "a b": a key must consist of letters, digits, \'-\', \'_\' or \'.\'']],
    ['ConfigMap data key ..', rd({ resource: cm({ data: { '..x': 'x' } }) }), ['spec.resource.data: Invalid value: "..x": a key must not be \'.\' or \'..\', nor start with \'..\'']],
    ['ConfigMap data value must be a string', rd({ resource: cm({ data: { n: 3 } }) }), ['spec.resource.data[n]: Invalid value: 3: must be a string']],
    ['ConfigMap binaryData must be base64', rd({ resource: cm({ data: {}, binaryData: { b: 'not base64!' } }) }), [
      'spec.resource.binaryData[b]: Invalid value: "not base64!": must be base64-encoded (use stringData for plain text)']],
    ['ConfigMap key in data and binaryData', rd({ resource: cm({ data: { k: 'x' }, binaryData: { k: 'eA==' } }) }), [
      'spec.resource.binaryData: Invalid value: "k": this key is also in data; a key may appear in only one of data and binaryData']],
    ['ConfigMap data not a map', rd({ resource: cm({ data: ['x'] }) }), ['spec.resource.data: Invalid value: ["x"]: must be a map of keys to strings']],
    ['Secret data must be base64', rd({ resource: secret({ data: { password: 'plain text' } }) }), [
      'spec.resource.data[password]: Invalid value: "plain text": must be base64-encoded (use stringData for plain text)']],
    ['Secret stringData key', rd({ resource: secret({ stringData: { 'x/y': 'v' } }) }), ['spec.resource.stringData: Invalid value: "x/y": a key must consist of letters, digits, \'-\', \'_\' or \'.\'']],
    ['Secret type must be a string', rd({ resource: secret({ type: 3 }) }), ['spec.resource.type: Invalid value: 3: must be a string']],
    ['included namespace name required', rd({ targets: { includedNamespaces: { list: [{}] } } }), ['spec.targets.includedNamespaces.list[0].name: Required value: a namespace name is required']],
    ['included namespace name must be a label', rd({ targets: { includedNamespaces: list('ns-1', 'a.b') } }), [
      'spec.targets.includedNamespaces.list[1].name: Invalid value: "a.b": a namespace name must be a lowercase RFC 1123 label: lowercase letters, digits and \'-\', starting and ending with a letter or digit (e.g. \'team-a\')']],
    ['excluded namespace name too long', rd({ targets: { excludedNamespaces: list('n'.repeat(64)) } }), [
      `spec.targets.excludedNamespaces.list[0].name: Invalid value: "${'n'.repeat(64)}": a namespace name must be at most 63 characters`]],
    ['namespace list not a list', rd({ targets: { includedNamespaces: { list: 'ns-1' } } }), [
      'spec.targets.includedNamespaces.list: Invalid value: "ns-1": must be a list of {name: <namespace>}']],
    ['included and excluded overlap', rd({ targets: { includedNamespaces: list('ns-1', 'ns-2', 'ns-3'), excludedNamespaces: list('ns-3', 'ns-1') } }), [
      'spec.targets: Invalid value: ["ns-3","ns-1"]: namespaces ns-3, ns-1 are both included and excluded; remove them from one of the two lists']],
    ['forbidden namespaces may be listed (OpenKruise v1.0+)', rd({ targets: { includedNamespaces: list('kube-system', 'kube-public') } }), []],
    ['selector operator', rd({ targets: { namespaceLabelSelector: { matchExpressions: [{ key: 'env', operator: 'Equals', values: ['x'] }] } } }), [
      'spec.targets.namespaceLabelSelector.matchExpressions[0].operator: Invalid value: "Equals": the operator must be In, NotIn, Exists or DoesNotExist']],
    ['selector In without values', rd({ targets: { namespaceLabelSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] } } }), [
      'spec.targets.namespaceLabelSelector.matchExpressions[0].values: Invalid value: []: operator In needs at least one value']],
    ['selector label value', rd({ targets: { namespaceLabelSelector: { matchLabels: { env: 'a b' } } } }), [
      'spec.targets.namespaceLabelSelector.matchLabels[env]: Invalid value: "a b": a label value must be empty or alphanumeric characters, \'-\', \'_\' or \'.\', starting and ending with an alphanumeric character']],
    ['selector not an object', rd({ targets: { namespaceLabelSelector: 'env=prod' } }), ['spec.targets.namespaceLabelSelector: Invalid value: "env=prod": must be a label selector']],
    ['errors from several places together', rd({ resource: cm({ kind: 'Pod' }), targets: { includedNamespaces: list('A') } }, ''), [
      'metadata.name: Required value: a name is required',
      'spec.resource.kind: Invalid value: "Pod": only Secret and ConfigMap can be distributed',
      'spec.targets.includedNamespaces.list[0].name: Invalid value: "A": a namespace name must be a lowercase RFC 1123 label: lowercase letters, digits and \'-\', starting and ending with a letter or digit (e.g. \'team-a\')',
    ]],
  ])('%s', (_name, obj, want) => {
    expect(messages(obj)).toEqual(want);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['same resource identity, new data', cm({ data: { color: 'green' } }), []],
    ['renamed resource', cm({ metadata: { name: 'other' } }), [
      'spec.resource.metadata.name: Invalid value: "other": is immutable (was "game-demo"); create another ResourceDistribution to distribute a different resource']],
    ['changed kind', secret({ metadata: { name: 'game-demo' } }), [
      'spec.resource.kind: Invalid value: "Secret": is immutable (was "ConfigMap"); create another ResourceDistribution to distribute a different resource']],
  ])('on update: %s', (_name, resource, want) => {
    expect(messages(rd({ resource }), rd({}))).toEqual(want);
  });
});

describe('resourceDistributionWarnings', () => {
  it.each<[string, ResourceDistribution, string[]]>([
    ['none', rd({}), []],
    ['a namespace in the resource is ignored', rd({ resource: cm({ metadata: { name: 'game-demo', namespace: 'team-a' } }) }), [
      'spec.resource.metadata.namespace "team-a" is ignored: each copy goes into its target namespace']],
  ])('%s', (_name, obj, want) => {
    expect(resourceDistributionWarnings(obj)).toEqual(want);
  });
});

describe('formatting', () => {
  const e = (over: Partial<FieldError>): FieldError => ({ field: 'spec.x', type: 'Invalid', detail: 'bad', ...over });
  it.each<[string, FieldError, string]>([
    ['string value quoted', e({ value: 'Pod' }), 'spec.x: Invalid value: "Pod": bad'],
    ['number value bare', e({ value: 3 }), 'spec.x: Invalid value: 3: bad'],
    ['boolean value bare', e({ value: true }), 'spec.x: Invalid value: true: bad'],
    ['missing value is null', e({}), 'spec.x: Invalid value: null: bad'],
    ['object value as JSON', e({ value: { a: 1 } }), 'spec.x: Invalid value: {"a":1}: bad'],
    ['required shows no value', e({ type: 'Required', value: 'x' }), 'spec.x: Required value: bad'],
    ['forbidden shows no value', e({ type: 'Forbidden' }), 'spec.x: Forbidden: bad'],
    ['no detail', e({ type: 'Required', detail: '' }), 'spec.x: Required value'],
  ])('%s', (_name, err, want) => {
    expect(formatFieldError(err)).toBe(want);
  });

  it.each<[string, FieldError[], string]>([
    ['one error alone', [e({ value: 1 })], 'spec.x: Invalid value: 1: bad'],
    ['several in brackets', [e({ value: 1 }), e({ field: 'spec.y', type: 'Required' })], '[spec.x: Invalid value: 1: bad, spec.y: Required value: bad]'],
    ['repeats once', [e({ value: 1 }), e({ value: 1 })], 'spec.x: Invalid value: 1: bad'],
  ])('%s', (_name, errs, want) => {
    expect(formatFieldErrors(errs)).toBe(want);
  });
});
