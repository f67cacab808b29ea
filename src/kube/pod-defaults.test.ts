import { describe, expect, it } from 'vitest';
import { defaultPodSpecParts, defaultVolume } from './pod-defaults.js';

type Obj = Record<string, unknown>;
const container = (c: Obj) => (defaultPodSpecParts({ containers: [{ name: 'c', image: 'x:1', ...c }] }).containers as Obj[])[0]!;

describe('defaultPodSpecParts', () => {
  it.each<[string, Obj, Obj]>([
    ['container policies', {}, { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
    ['Always for latest', { image: 'x' }, { imagePullPolicy: 'Always' }],
    ['requests default to limits (pods only)', { resources: { limits: { cpu: '0.5', memory: '1Gi' }, requests: { cpu: '100m' } } },
      { resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '100m', memory: '1Gi' } } }],
    ['startupProbe defaults (the API server sets them)', { startupProbe: { httpGet: { port: 80 } } },
      { startupProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 } }],
    ['port protocol', { ports: [{ containerPort: 80 }] }, { ports: [{ containerPort: 80, protocol: 'TCP' }] }],
  ])('%s', (_name, c, want) => {
    expect(container(c)).toMatchObject(want);
  });

  it('defaults init containers and volumes too', () => {
    const spec = defaultPodSpecParts({ initContainers: [{ name: 'i', image: 'i:1' }], volumes: [{ name: 'v' }] });
    expect(spec).toMatchObject({ initContainers: [{ terminationMessagePolicy: 'File' }], volumes: [{ name: 'v', emptyDir: {} }] });
  });
});

describe('defaultVolume', () => {
  it.each<[string, Obj, Obj]>([
    ['iscsi interface', { iscsi: { targetPortal: 'p', iqn: 'iqn.x', lun: 0 } }, { iscsi: { iscsiInterface: 'default' } }],
    ['rbd pool, user and keyring', { rbd: { monitors: ['m'], image: 'i' } }, { rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } }],
    ['azureDisk caching, kind, fsType, readOnly', { azureDisk: { diskName: 'd', diskURI: 'u' } }, { azureDisk: { cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false } }],
    ['scaleIO storage mode and fsType', { scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'n' } } }, { scaleIO: { storageMode: 'ThinProvisioned', fsType: 'xfs' } }],
    ['values kept', { rbd: { monitors: ['m'], image: 'i', pool: 'p', user: 'u', keyring: 'k' } }, { rbd: { pool: 'p', user: 'u', keyring: 'k' } }],
  ])('%s', (_name, v, want) => {
    const volume = { name: 'v', ...v };
    defaultVolume(volume);
    expect(volume).toMatchObject(want);
  });
});
