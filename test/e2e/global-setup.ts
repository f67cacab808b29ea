// Brings up the real control plane for the e2e project (or uses $KS_TEST_KUBECONFIG), installs
// our CRDs, and hands the kubeconfig path to the tests. $KS_TEST_CLUSTER names the control plane
// (default "test"), so that two suites on one machine do not share or stop each other's. The developer's own $KUBECONFIG is never
// used by tests: they create nodes and namespaces freely.
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT, startControlPlane, stopControlPlane, binDir } from '../cluster/control-plane.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { KubeHttp } from '../../src/kube/http.js';
import { installCrds } from '../../src/kube/crds.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import './provided.js';


export default async function setup(project: TestProject) {
  const external = process.env.KS_TEST_KUBECONFIG;
  const name = process.env.KS_TEST_CLUSTER ?? 'test';
  const cp = external ? undefined : await startControlPlane(name, (m) => console.error(`[e2e] ${m}`));
  const kubeconfig = external ?? cp!.kubeconfig;
  await installCrds(await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig)), readCrdManifests(join(REPO_ROOT, 'infra', 'crds')));
  project.provide('kubeconfig', kubeconfig);
  project.provide('kubectl', join(binDir(), 'kubectl'));
  project.provide('caCert', cp?.pki.caCert ?? '');
  return async () => {
    if (cp && !process.env.KS_KEEP_CLUSTER) await stopControlPlane(name);
  };
}
