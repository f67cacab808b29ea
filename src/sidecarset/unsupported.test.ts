import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../kube/field-errors.js';
import { unsupportedFieldErrors } from './unsupported.js';

describe('SidecarSet fields refused until implemented', () => {
  it('a native sidecar (initContainers with restartPolicy Always), resourcesPolicy, shareVolumeDevicePolicy', () => {
    const errs = unsupportedFieldErrors({
      initContainers: [{ name: 'setup', image: 'busybox' }, { name: 'proxy', image: 'envoy', restartPolicy: 'Always' }],
      resourcesPolicy: { targetContainerMode: 'sum' },
      shareVolumeDevicePolicy: { type: 'enabled' },
    }).map(formatFieldError);
    expect(errs).toEqual([
      'spec.initContainers[1].restartPolicy: Forbidden: a native sidecar container (restartPolicy: Always) is not supported by Kruise Serverless yet (it would be ignored)',
      'spec.resourcesPolicy: Forbidden: resourcesPolicy is not supported by Kruise Serverless yet (it would be ignored)',
      'spec.shareVolumeDevicePolicy: Forbidden: shareVolumeDevicePolicy is not supported by Kruise Serverless yet (it would be ignored)',
    ]);
  });

  it('plain init containers and the rest pass', () => {
    expect(unsupportedFieldErrors({ initContainers: [{ name: 'setup', image: 'busybox' }], containers: [] })).toEqual([]);
    expect(unsupportedFieldErrors(undefined)).toEqual([]);
  });
});
