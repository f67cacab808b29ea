// Which API server a Lambda function reaches, from its environment. Both functions (webhook and
// reconciler) read the same variables, so the SAM template sets them the same way on both:
//   KUBECONFIG                  path to a kubeconfig file (e.g. in a layer)
//   KS_KUBECONFIG_SECRET_ARN    a Secrets Manager secret whose text is the kubeconfig YAML
//   KS_EKS_CLUSTER, KS_EKS_ENDPOINT, KS_EKS_CA_DATA   an EKS cluster; the bearer token is minted from
//                               the execution role (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
//                               AWS_SESSION_TOKEN) for AWS_REGION
// The first one set wins, in this order.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { loadKubeConnection } from '../kube/kubeconfig.js';
import { cachedEksToken, credentialsFromEnv } from './eks-token.js';
import { eksKubeSource, kubeConfigSource, readKubeconfigSecret, type KubeSource, type SecretsClient } from './kube-source.js';

/** The API-server client this environment describes. Builds nothing until first called. */
export function kubeSourceFromEnv(env: Record<string, string | undefined>, secrets?: () => SecretsClient): KubeSource {
  if (env.KUBECONFIG) {
    const path = env.KUBECONFIG;
    return kubeConfigSource(() => loadKubeConnection(path));
  }
  if (env.KS_KUBECONFIG_SECRET_ARN) {
    const arn = env.KS_KUBECONFIG_SECRET_ARN;
    const client = secrets ?? (() => new SecretsManagerClient({}));
    return kubeConfigSource(() => readKubeconfigSecret(client(), arn));
  }
  const missing = ['KS_EKS_CLUSTER', 'KS_EKS_ENDPOINT', 'KS_EKS_CA_DATA', 'AWS_REGION'].filter((k) => !env[k]);
  if (missing.length) {
    throw new Error(`no cluster configured: set KUBECONFIG, KS_KUBECONFIG_SECRET_ARN, or KS_EKS_CLUSTER + KS_EKS_ENDPOINT + KS_EKS_CA_DATA (missing: ${missing.join(', ')})`);
  }
  const cluster = { name: env.KS_EKS_CLUSTER!, endpoint: env.KS_EKS_ENDPOINT!, caData: env.KS_EKS_CA_DATA! };
  return eksKubeSource(cluster, cachedEksToken({ clusterName: cluster.name, region: env.AWS_REGION!, credentials: credentialsFromEnv(env) }));
}
