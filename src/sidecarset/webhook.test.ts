import { describe, expect, it } from 'vitest';
import type { AdmissionInput, Operation } from '../admission/types.js';
import type { ClusterState, Snapshot } from '../edge-state/contracts.js';
import { KRUISE_CONFIGURATION_COLLECTION, kruiseConfigurationCollection } from '../kube/kruise-configuration.js';
import { NAMESPACES_COLLECTION, SIDECARSETS_COLLECTION, SIDECARSET_REVISIONS_COLLECTION, namespacesCollection, sidecarSetRevisionsCollection } from './collections.js';
import { defaultSidecarSet } from './defaults.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, type SidecarSet } from './types.js';
import {
  VALIDATE_SIDECARSET_NEEDS,
  defaultSidecarSetHandler,
  makeValidateSidecarSetHandler,
  sidecarSetValidationHandlers,
  validateSidecarSetHandler,
} from './webhook.js';

type Obj = Record<string, any>;
const sidecarSet = (name: string, edit: (spec: Obj) => void = () => {}): SidecarSet => {
  const s = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'sidecar', image: 'busybox:1' }] },
  } as Obj;
  edit(s.spec);
  return s as unknown as SidecarSet;
};

function input(operation: Operation, object?: unknown, oldObject?: unknown): AdmissionInput<SidecarSet> {
  return {
    uid: 'u', kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' },
    resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'sidecarsets' },
    namespace: '', operation, userInfo: {}, dryRun: false, clusterId: 'c', name: 'sc',
    ...(object ? { object: object as SidecarSet } : {}), ...(oldObject ? { oldObject: oldObject as SidecarSet } : {}),
  };
}

const snap = <T>(items: T[]): Snapshot<T> => ({ items, resourceVersion: '1', observedAt: 0 });
function state(collections: Record<string, unknown[]> = {}): ClusterState {
  const all: Record<string, unknown[]> = {
    [SIDECARSETS_COLLECTION]: [], [NAMESPACES_COLLECTION]: [], [KRUISE_CONFIGURATION_COLLECTION]: [], [SIDECARSET_REVISIONS_COLLECTION]: [], ...collections,
  };
  return { collection: async <T>(name: string) => (all[name] ? (snap(all[name]) as Snapshot<T>) : undefined) };
}
const whitelist = (namespace: string) => ({
  metadata: { name: 'kruise-configuration', namespace },
  data: { SidecarSet_PatchPodMetadata_WhiteList: '{"rules":[{"allowedAnnotationKeyExprs":["^ok/"]}]}' },
});
const patched = defaultSidecarSet(sidecarSet('sc', (s) => (s.patchPodMetadata = [{ annotations: { 'ok/x': '1' } }])));

describe('defaultSidecarSetHandler', () => {
  it('returns the defaulted copy with both hash annotations', async () => {
    const v = await defaultSidecarSetHandler(input('CREATE', sidecarSet('sc')), state(), { now: 0 });
    expect(v.allowed).toBe(true);
    const out = (v as { object: Obj }).object;
    expect(out.spec.containers[0]).toMatchObject({ podInjectPolicy: 'BeforeAppContainer', imagePullPolicy: 'IfNotPresent' });
    expect(out.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: 1, partition: 0 });
    expect(Object.keys(out.metadata.annotations)).toEqual([HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION]);
    expect(out.metadata.annotations[HASH_ANNOTATION]).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
  });

  it('recomputes hashes on UPDATE even when the user set them', async () => {
    const forged = sidecarSet('sc');
    forged.metadata.annotations = { [HASH_ANNOTATION]: 'forged' };
    const v = (await defaultSidecarSetHandler(input('UPDATE', forged, sidecarSet('sc')), state(), { now: 0 })) as { object: Obj };
    expect(v.object.metadata.annotations[HASH_ANNOTATION]).not.toBe('forged');
  });

  it('400 without an object', async () => {
    expect(await defaultSidecarSetHandler(input('CREATE'), state(), { now: 0 })).toMatchObject({ allowed: false, code: 400 });
  });
});

describe('validateSidecarSetHandler', () => {
  const defaulted = (name: string, edit?: (spec: Obj) => void) => defaultSidecarSet(sidecarSet(name, edit));
  it.each<[string, AdmissionInput<SidecarSet>, ClusterState, unknown]>([
    ['allows a valid SidecarSet', input('CREATE', defaulted('sc')), state(), { allowed: true }],
    ['denies with 500 and the field error, as OpenKruise', input('CREATE', defaulted('sc', (s) => delete s.selector)), state(),
      { allowed: false, code: 500, message: 'spec.selector: Required value: no selector defined for SidecarSet' }],
    ['several errors in brackets', input('CREATE', defaulted('a.b', (s) => delete s.selector)), state(),
      { allowed: false, code: 500, message: expect.stringMatching(/^\[metadata\.name: Invalid value: "a\.b": .*, spec\.selector: Required value: no selector defined for SidecarSet\]$/) }],
    ['reads other SidecarSets for conflicts', input('CREATE', defaulted('sc')), state({ [SIDECARSETS_COLLECTION]: [defaulted('other')] }),
      { allowed: false, code: 500, message: 'spec.containers: Invalid value: "sidecar": container sidecar already exist in other' }],
    ['reads Namespace labels for namespace overlap', input('CREATE', defaulted('sc', (s) => (s.namespace = 'prod'))),
      state({ [SIDECARSETS_COLLECTION]: [defaulted('other', (s) => (s.namespaceSelector = { matchLabels: { env: 'prod' } }))], [NAMESPACES_COLLECTION]: [{ metadata: { name: 'prod', labels: { env: 'prod' } } }] }),
      { allowed: false, code: 500, message: 'spec.containers: Invalid value: "sidecar": container sidecar already exist in other' }],
    ['uses the whitelist in the Kruise namespace', input('CREATE', patched), state({ [KRUISE_CONFIGURATION_COLLECTION]: [whitelist('kruise-system')] }), { allowed: true }],
    ['ignores a kruise-configuration elsewhere', input('CREATE', patched), state({ [KRUISE_CONFIGURATION_COLLECTION]: [whitelist('default')] }),
      { allowed: false, code: 500, message: 'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found' }],
    ['reads revisions in the Kruise namespace only', input('CREATE', defaulted('sc', (s) => (s.injectionStrategy = { revision: { revisionName: 'r1', policy: 'Always' } }))),
      state({ [SIDECARSET_REVISIONS_COLLECTION]: [{ metadata: { name: 'r1', namespace: 'default' }, revision: 1, data: {} }] }),
      { allowed: false, code: 500, message: 'revision: Invalid value: "null": Cannot find specific ControllerRevision, err: controllerrevisions.apps "r1" not found' }],
    ['checks UPDATE against the old object', input('UPDATE', defaulted('sc', (s) => s.containers.push({ ...s.containers[0], name: 'new' })), defaulted('sc')), state(),
      { allowed: false, code: 500, message: 'spec.containers.name: Invalid value: "new": container new is not found' }],
    ['400 without an object', input('CREATE'), state(), { allowed: false, code: 400, message: 'the admission request carries no SidecarSet' }],
  ])('%s', async (_name, req, st, want) => {
    expect(await validateSidecarSetHandler(req, st, { now: 0 })).toEqual(want);
  });

  it('takes the Kruise namespace and the patch gate as options', async () => {
    const handler = makeValidateSidecarSetHandler({ kruiseNamespace: 'kruise', patchPodMetadataDefaultsAllowed: false });
    expect(await handler(input('CREATE', patched), state({ [KRUISE_CONFIGURATION_COLLECTION]: [whitelist('kruise')] }), { now: 0 })).toEqual({ allowed: true });
    const lenient = makeValidateSidecarSetHandler({ patchPodMetadataDefaultsAllowed: true });
    expect(await lenient(input('CREATE', patched), state(), { now: 0 })).toEqual({ allowed: true });
  });
});

describe('registrations', () => {
  it('mutate-sidecarset without state; validate-kruise needing four collections, 5 minutes, last known, deny without state', () => {
    expect(sidecarSetValidationHandlers.map((r) => [r.endpoint, r.handler.needs])).toEqual([
      ['mutate-sidecarset', undefined],
      ['validate-kruise', VALIDATE_SIDECARSET_NEEDS],
    ]);
    expect(VALIDATE_SIDECARSET_NEEDS).toEqual({
      collections: ['sidecarsets', 'namespaces', 'kruise-configuration', 'sidecarset-revisions'],
      maxStalenessMs: 300_000,
      fallback: 'last-known',
      withoutState: 'deny',
    });
    for (const r of sidecarSetValidationHandlers) {
      expect(r.handler.match).toEqual({ group: 'apps.kruise.io', kind: 'SidecarSet', subResource: '', operations: ['CREATE', 'UPDATE'] });
    }
  });

  it.each<[string, (o: Record<string, unknown>) => Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]>([
    ['Namespaces keep name, labels, resourceVersion', namespacesCollection.project!,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { a: 'b' }, resourceVersion: '7', uid: 'x', managedFields: [] }, spec: {}, status: {} },
      { metadata: { name: 'n', labels: { a: 'b' }, resourceVersion: '7' } }],
    ['ConfigMaps keep name, namespace, data, resourceVersion', kruiseConfigurationCollection.project!,
      { metadata: { name: 'kruise-configuration', namespace: 'k', resourceVersion: '3', uid: 'x' }, data: { a: 'b' }, binaryData: {} },
      { metadata: { name: 'kruise-configuration', namespace: 'k', resourceVersion: '3' }, data: { a: 'b' } }],
    ['ControllerRevisions keep what injection needs', sidecarSetRevisionsCollection.project!,
      { metadata: { name: 'r', namespace: 'k', labels: { l: '1' }, annotations: { h: '2' }, resourceVersion: '4', uid: 'x' }, revision: 3, data: { spec: {} } },
      { metadata: { name: 'r', namespace: 'k', labels: { l: '1' }, annotations: { h: '2' }, resourceVersion: '4' }, data: { spec: {} }, revision: 3 }],
  ])('%s', (_name, project, obj, want) => {
    expect(project(obj)).toEqual(want);
  });
});
