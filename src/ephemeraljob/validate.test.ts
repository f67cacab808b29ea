import { describe, expect, it } from 'vitest';
import { validateEphemeralJob } from './validate.js';

const job = (...ephemeralContainers: unknown[]) => ({ spec: { selector: {}, template: { ephemeralContainers } } });

describe('EphemeralJob validation (OpenKruise messages)', () => {
  it('accepts a named container with an image', () => {
    expect(validateEphemeralJob(job({ name: 'debug', image: 'busybox', command: ['sleep', '1'] }))).toBeUndefined();
  });
  it('requires name and image, and lists every error as an aggregate', () => {
    expect(validateEphemeralJob(job({}))).toBe('[ephemeralContainers[0].name: Required value, ephemeralContainers[0].image: Required value]');
  });
  it('refuses duplicates, padded images and fields an ephemeral container cannot set', () => {
    expect(validateEphemeralJob(job({ name: 'a', image: 'x' }, { name: 'a', image: 'x' }))).toBe('ephemeralContainers[1].name: Duplicate value: "a"');
    expect(validateEphemeralJob(job({ name: 'a', image: ' x' }))).toBe('ephemeralContainers[0].image: Invalid value: " x": must not have leading or trailing whitespace');
    expect(validateEphemeralJob(job({ name: 'a', image: 'x', ports: [{ containerPort: 80 }] }))).toBe('ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container');
    expect(validateEphemeralJob(job({ name: 'a', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/v', subPath: 's' }] }))).toBe(
      'ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
    );
  });
  it('bad input is an error, not a crash', () => {
    expect(validateEphemeralJob({ spec: { template: { ephemeralContainers: 'x' } } })).toBe('spec.template.ephemeralContainers: must be a list');
    expect(validateEphemeralJob(job(7))).toContain('must be an object');
  });
});
