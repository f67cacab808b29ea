import { describe, expect, it } from 'vitest';
import { inferredDeployment } from './deployment-owner.js';

const rs = (name: string, apiVersion = 'apps/v1', kind = 'ReplicaSet') => ({ apiVersion, kind, name, controller: true });

describe('inferredDeployment', () => {
  it.each([
    ['a Deployment’s ReplicaSet', rs('web-5d4f8c'), { 'pod-template-hash': '5d4f8c' }, 'web'],
    ['a dashed Deployment name', rs('my-web-app-77b9'), { 'pod-template-hash': '77b9' }, 'my-web-app'],
    ['no hash label', rs('web-5d4f8c'), {}, undefined],
    ['a name without the hash', rs('standalone'), { 'pod-template-hash': '5d4f8c' }, undefined],
    ['the hash alone is no name', rs('-5d4f8c'), { 'pod-template-hash': '5d4f8c' }, undefined],
    ['not a ReplicaSet', rs('web-5d4f8c', 'apps/v1', 'StatefulSet'), { 'pod-template-hash': '5d4f8c' }, undefined],
    ['another group', rs('web-5d4f8c', 'example.com/v1'), { 'pod-template-hash': '5d4f8c' }, undefined],
  ])('%s', (_n, owner, labels, want) => {
    expect(inferredDeployment(owner, labels)?.name).toBe(want);
  });
});
