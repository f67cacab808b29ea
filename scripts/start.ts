// `npm start`: brings up (or reuses) the cluster, installs our CRDs, and keeps running.
//   --detach   return once everything is installed (the control plane keeps running)
import { join } from 'node:path';
import { REPO_ROOT, startControlPlane } from '../test/cluster/control-plane.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { KubeHttp } from '../src/kube/http.js';
import { installCrds } from '../src/kube/crds.js';
import { readCrdManifests } from '../src/kube/crd-manifests.js';

const log = (m: string) => console.error(`[start] ${m}`);
const detach = process.argv.includes('--detach');

const external = process.env.KUBECONFIG;
const kubeconfig = external ?? (await startControlPlane('dev', log)).kubeconfig;
log(external ? `using $KUBECONFIG (${external})` : `local control plane: export KUBECONFIG=${kubeconfig}`);

const crds = readCrdManifests(join(REPO_ROOT, 'infra', 'crds'));
await installCrds(await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig)), crds);
log(`installed ${crds.length} CRDs: ${crds.map((c) => c.metadata?.name).join(', ')}`);

if (detach) {
  log('done; the control plane keeps running (stop it with `npm run cluster:down`)');
} else {
  log('running; Ctrl-C to exit (the control plane keeps running; stop it with `npm run cluster:down`)');
  await new Promise<void>((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
}
