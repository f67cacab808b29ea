// client-node's KubeConfig, for tests, scripts and benches that want its full object. Production
// code reads kubeconfigs with ./kubeconfig.ts (KubeHttp.fromKubeConfigFile), which loads
// client-node only for the forms it does not read itself.
import { KubeConfig } from '@kubernetes/client-node';

export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}
