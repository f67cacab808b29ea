// client-node's reading of a kubeconfig, for the forms ./kubeconfig.ts leaves to it (exec and
// auth-provider users, merged KUBECONFIG lists, keys it does not know). Imported dynamically, so a process
// whose kubeconfig needs none of that never evaluates the library.
import { KubeConfig } from '@kubernetes/client-node';
import { connectionOfClientNode, KubeContextError, type KubeConnection } from './kubeconfig.js';

export type ClientNodeSource = { file: string } | { text: string } | 'default';

export function clientNodeConnection(source: ClientNodeSource, context?: string): Promise<KubeConnection> {
  const kc = new KubeConfig();
  if (source === 'default') kc.loadFromDefault();
  else if ('file' in source) kc.loadFromFile(source.file);
  else kc.loadFromString(source.text);
  if (context !== undefined) {
    if (!kc.getContextObject(context)) throw new KubeContextError(context, kc.getContexts().map((c) => c.name));
    kc.setCurrentContext(context);
  }
  return connectionOfClientNode(kc);
}
