import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../kube/field-errors.js';
import { QUANTITY_FORMAT_ERROR } from '../kube/quantity.js';
import { validateSubsetPatch, type PatchTarget } from './patch-validation.js';

type Obj = Record<string, unknown>;
const render = (patch: unknown, target?: PatchTarget) => {
  const errs = validateSubsetPatch(patch, target, 'spec.subsets[0].patch');
  return errs.length ? formatFieldErrors(errs) : '';
};
const workload = (containers: Obj[], extra: Obj = {}): PatchTarget => ({ spec: { template: { spec: { containers, ...extra } } } });

// A Deployment's template as the API server stores it (defaulted), and a CloneSet's as stored
// without OpenKruise's defaulting webhook (nothing defaulted).
const deployment = workload([{ name: 'app', image: 'app:1', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }]);
const cloneSet = workload([{ name: 'app', image: 'app:1' }]);
const withRequests = workload([{ name: 'app', image: 'app:1', resources: { requests: { memory: '1Gi' } } }]);
const withVolume = workload([{ name: 'app', image: 'app:1' }], { volumes: [{ name: 'data', emptyDir: {} }] });
const statefulSet: PatchTarget = { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } }, volumeClaimTemplates: [{ metadata: { name: 'www' } }] } };

// Seed 004: "enable pods in different cpu arch to have different resource requirements".
const memoryLimit = { spec: { containers: [{ name: 'app', resources: { limits: { memory: '512Mi' } } }] } };
const mount = (name: string) => ({ spec: { containers: [{ name: 'app', volumeMounts: [{ name, mountPath: '/data' }] }] } });

describe('validateSubsetPatch', () => {
  it.each<[string, unknown, PatchTarget | undefined, string]>([
    ['seed 004: one container\'s resources, Deployment target', memoryLimit, deployment, ''],
    ['seed 004: one container\'s resources, CloneSet template not defaulted', memoryLimit, cloneSet, ''],
    ['seed 004: one container\'s resources, target not known', memoryLimit, undefined, ''],
    ['metadata only, target not known', { metadata: { labels: { arch: 'arm64' } } }, undefined, ''],
    ['a new container: the API server defaults its policies', { spec: { containers: [{ name: 'log', image: 'log:1' }] } }, cloneSet, ''],
    ['a new container without an image', { spec: { containers: [{ name: 'log' }] } }, deployment, 'spec.subsets[0].patch.containers[1].image: Required value'],
    ['the image blanked', { spec: { containers: [{ name: 'app', image: '' }] } }, deployment, 'spec.subsets[0].patch.containers[0].image: Required value'],
    ['the image blanked, target not known', { spec: { containers: [{ name: 'app', image: '' }] } }, undefined, 'spec.subsets[0].patch.containers[0].image: Required value'],
    ['a bad quantity, target not known', { spec: { containers: [{ name: 'app', resources: { requests: { memory: 'lots' } } }] } }, undefined,
      `spec.subsets[0].patch.containers[0].resources.requests[memory]: Invalid value: "lots": ${QUANTITY_FORMAT_ERROR}`],
    ['a limit below the template\'s request', memoryLimit, withRequests,
      'spec.subsets[0].patch.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 512Mi'],
    ['a mount of the template\'s volume', mount('data'), withVolume, ''],
    ['a mount of a volume the template lacks', mount('cache'), withVolume, 'spec.subsets[0].patch.containers[0].volumeMounts[0].name: Not found: "cache"'],
    ['a mount of a volume, target not known', mount('cache'), undefined, ''],
    ['a mount of a claim template\'s volume', mount('www'), statefulSet, ''],
    ['a mount of a volume the patch adds', { spec: { ...mount('x').spec, volumes: [{ name: 'x', emptyDir: {} }] } }, undefined, ''],
    ['a volume the patch adds with two sources', { spec: { volumes: [{ name: 'x', emptyDir: {}, hostPath: { path: '/x' } }] } }, undefined,
      'spec.subsets[0].patch.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type'],
  ])('%s', (_name, patch, target, want) => {
    expect(render(patch, target)).toBe(want);
  });

  it('a patch that cannot be merged, with the raw patch as OpenKruise prints it', () => {
    expect(render({ spec: { containers: [{ image: 'x:1' }] } }, deployment)).toBe(
      'spec.subsets[0].patch: Invalid value: "{\\"spec\\":{\\"containers\\":[{\\"image\\":\\"x:1\\"}]}}": failed to merge patch: map: {"image":"x:1"} does not contain declared merge key: name',
    );
    expect(render({ spec: { containers: [{ image: 'x:1' }] } })).toMatch(/failed to merge patch: /);
  });

  it('a list replaced with $patch: replace is judged as whole containers', () => {
    const replace = { spec: { containers: [{ $patch: 'replace' }, { name: 'solo', resources: { limits: { cpu: '1' } } }] } };
    expect(render(replace, deployment)).toBe('spec.subsets[0].patch.containers[0].image: Required value');
    expect(render(replace)).toBe('spec.subsets[0].patch.containers[0].image: Required value');
  });

  it('does not touch the target or the patch', () => {
    const target = structuredClone(cloneSet);
    const patch = structuredClone(memoryLimit);
    render(patch, target);
    expect(target).toEqual(cloneSet);
    expect(patch).toEqual(memoryLimit);
  });
});
