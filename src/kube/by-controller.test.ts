import { describe, expect, it } from 'vitest';
import { byController } from './by-controller.js';

const pod = (name: string, ...refs: object[]) => ({ metadata: { name, ownerReferences: refs } });

describe('byController', () => {
  it('groups by the controller reference of the given kind and group only', () => {
    const items = [
      pod('a', { uid: 'u1', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', controller: true }),
      pod('b', { uid: 'u1', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', controller: true }),
      pod('c', { uid: 'u2', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1' }),
      pod('d', { uid: 'u3', kind: 'StatefulSet', apiVersion: 'apps/v1', controller: true }),
      pod('e', { uid: 'u4', kind: 'StatefulSet', apiVersion: 'apps.kruise.io/v1beta1', controller: true }),
      { metadata: { name: 'f' } },
    ];
    expect([...byController(items, 'CloneSet')].map(([u, l]) => [u, l.map((i) => i.metadata.name)])).toEqual([['u1', ['a', 'b']]]);
    expect([...byController(items, 'StatefulSet', 'apps.kruise.io').keys()]).toEqual(['u4']);
    expect([...byController(items, 'StatefulSet').keys()]).toEqual(['u3', 'u4']);
  });
});
