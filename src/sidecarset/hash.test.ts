import { describe, expect, it } from 'vitest';
import { hashInput, sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import { safeEncodeString } from '../workload/revisions.js';
import type { SidecarSet } from './types.js';

const set = (spec: Record<string, unknown>) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's' }, spec }) as unknown as SidecarSet;

/** The containers of OpenKruise's mutating-webhook test, after its defaulting. */
const dnsF = {
  name: 'dns-f', image: 'dns:1.0', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent', podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, shareVolumePolicy: { type: 'disabled' },
};
const nginx = { ...dnsF, name: 'app', image: 'nginx', imagePullPolicy: 'Always' };
const plain = { name: 'container1', image: 'test-image' };

describe('OpenKruise hash vectors', () => {
  it('hashes the text §2.2 quotes', () => {
    expect(hashInput(set({ containers: [dnsF] }))).toBe(
      '{"containers":[{"name":"dns-f","image":"dns:1.0","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent","podInjectPolicy":"BeforeAppContainer","upgradeStrategy":{"upgradeType":"ColdUpgrade"},"shareVolumePolicy":{"type":"disabled"}}]}',
    );
  });

  // pkg/webhook/sidecarset/mutating/sidecarset_mutating_test.go and pkg/control/sidecarcontrol/hash_test.go
  it.each<[string, Record<string, unknown>, string, string | undefined]>([
    ['dns-f (§2.2)', { containers: [dnsF] }, '6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684', '82684vwf9d4cb4wz4vffx4ddfbb47ww4z4wwxdbwb8w2zbb7zvf4524cdd49bv94'],
    ['app/nginx', { containers: [nginx] }, '4fcz55z67f6w69czcvd5vdbxv2bw9fxd7w75x4c8x6688x7678xw262wbvdfxcff', 'c2c27xwzzv626x4d8ddb5544d99d8c4dd49x5c67zd5cbdfx2f5b2726x58b7xzw'],
    ['containers only', { containers: [plain] }, 'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78', undefined],
    ['ordinary init containers are not hashed', { containers: [plain], initContainers: [plain] },
      'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78', '8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759'],
    ['native sidecar init containers are', { containers: [plain], initContainers: [{ ...plain, restartPolicy: 'Always' }] },
      '4xwx4d4844vd4v9x79wb4xbxf4xb29475cc4446v8cz2c2f2f5c5bw448vd42z8w', '5725fw8bwbx249bw57v5892c847dzf48bww9zb7c86xb95264fdz26654847b2c8'],
  ])('%s', async (_name, spec, hash, withoutImage) => {
    expect(await sidecarSetHash(set(spec))).toBe(hash);
    if (withoutImage) expect(await sidecarSetHashWithoutImage(set(spec))).toBe(withoutImage);
  });

  it('the without-image hash ignores images, of init containers too', async () => {
    const a = set({ containers: [plain], initContainers: [{ ...plain, restartPolicy: 'Always' }] });
    const b = set({ containers: [{ ...plain, image: 'new' }], initContainers: [{ ...plain, image: 'new', restartPolicy: 'Always' }] });
    expect(await sidecarSetHashWithoutImage(b)).toBe(await sidecarSetHashWithoutImage(a));
    expect(await sidecarSetHash(b)).not.toBe(await sidecarSetHash(a));
  });

  it('shareVolumeDevicePolicy and resourcesPolicy are hashed in Go field order, absent when unset', () => {
    const c = { name: 'a', image: 'x', transferEnv: [{ envName: 'E', sourceContainerName: 'main' }], shareVolumeDevicePolicy: { type: 'enabled' },
      resourcesPolicy: { resourcesExpr: { requests: { memory: 'memory' }, limits: { cpu: 'cpu*50%' } }, targetContainersNameRegex: '.*', targetContainersMode: 'sum' } };
    expect(hashInput(set({ containers: [c] }))).toBe(
      '{"containers":[{"name":"a","image":"x","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{},"shareVolumeDevicePolicy":{"type":"enabled"},' +
        '"transferEnv":[{"sourceContainerName":"main","envName":"E"}],' +
        '"resourcesPolicy":{"targetContainersMode":"sum","targetContainersNameRegex":".*","resourcesExpr":{"limits":{"cpu":"cpu*50%"},"requests":{"memory":"memory"}}}}]}',
    );
    expect(hashInput(set({ containers: [{ name: 'a', image: 'x' }] }))).toBe('{"containers":[{"name":"a","image":"x","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}]}');
  });

  it('no containers hashes {"containers":null}', () => {
    expect(hashInput(set({}))).toBe('{"containers":null}');
  });
});

describe('safeEncodeString', () => {
  it('maps each character through the 27-letter alphabet', () => {
    // '0' is 48, 48 % 27 = 21 → '4'; 'a' is 97, 97 % 27 = 16 → 'v'.
    expect(safeEncodeString('0a')).toBe('4v');
  });
});
