// EphemeralJob's webhook end to end: the API server (with our CRD) sends EphemeralJobs to the
// production Worker's validate-kruise endpoint, which refuses invalid templates with OpenKruise's
// messages, and refuses valid ones until a controller runs them (docs/features/ephemeraljob.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralJobFeature } from '../../src/ephemeraljob/index.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt } from './support/kube.js';

const EJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'EphemeralJob' } as const;
let env: EdgeEnv;

beforeAll(async () => {
  env = await startEdgeEnv('ejob', [ephemeralJobFeature]);
});
afterAll(async () => {
  await env?.dispose();
});

const create = (name: string, ephemeralContainers: unknown[]) =>
  env.kube.create({ ...EJ, metadata: { name, namespace: env.ns }, spec: { selector: { matchLabels: { app: 'web' } }, replicas: 1, template: { ephemeralContainers } } });

describe('EphemeralJob webhook', () => {
  it.each([
    ['a container without image', [{ name: 'debug' }], 'ephemeralContainers[0].image: Required value'],
    ['ports on an ephemeral container', [{ name: 'debug', image: 'busybox', ports: [{ containerPort: 80 }] }], 'ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container'],
    ['two containers of one name', [{ name: 'a', image: 'x' }, { name: 'a', image: 'x' }], 'ephemeralContainers[1].name: Duplicate value: "a"'],
  ])('refuses %s', async (_what, containers, message) => {
    expect(await attempt(create('refused', containers))).toContain(message);
  });
});
