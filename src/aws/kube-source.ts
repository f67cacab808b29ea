// Where a Lambda invocation gets its API-server client: a kubeconfig (a file, or a Secrets
// Manager secret), or an EKS cluster with a bearer token minted from the execution role.
import { GetSecretValueCommand, type GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { KubeHttp } from '../kube/http.js';
import { connectionFromKubeConfigText, type KubeConnection } from '../kube/kubeconfig.js';
import { eksConnection, type EksCluster, type EksToken } from './eks-token.js';

/** Returns the client to use now; call it once per invocation. */
export type KubeSource = () => Promise<KubeHttp>;

/** One client for the life of the process (credentials in the kubeconfig do not expire here). */
export function kubeConfigSource(load: () => Promise<KubeConnection>): KubeSource {
  let kube: Promise<KubeHttp> | undefined;
  return () => {
    if (!kube) {
      const created = load().then((c) => KubeHttp.connect(c));
      // A failed load (secret unreadable, bad file) is retried by the next invocation.
      created.catch(() => kube === created && (kube = undefined));
      kube = created;
    }
    return kube;
  };
}

/**
 * A client for an EKS cluster. KubeHttp fixes its Authorization header when built, so a new
 * client is built (and the old one's connections closed) whenever the token source mints a new
 * token; the cached token has ≥ 5 minutes left, which bounds how long one invocation may run.
 */
export function eksKubeSource(cluster: EksCluster, tokens: () => Promise<EksToken>): KubeSource {
  let current: { token: string; kube: KubeHttp } | undefined;
  return async () => {
    const { token } = await tokens();
    if (current?.token === token) return current.kube;
    const kube = KubeHttp.connect(eksConnection(cluster, token));
    current?.kube.close();
    current = { token, kube };
    return kube;
  };
}

/** The slice of SecretsManagerClient used here: tests pass a recording stub with the same shape. */
export type SecretsClient = { send(command: GetSecretValueCommand): Promise<GetSecretValueCommandOutput> };

/** The kubeconfig YAML stored as the secret's SecretString. */
export async function readKubeconfigSecret(client: SecretsClient, secretId: string): Promise<KubeConnection> {
  const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!out.SecretString) throw new Error(`secret ${secretId}: no SecretString; store the kubeconfig YAML as the secret's text value`);
  try {
    return await connectionFromKubeConfigText(out.SecretString);
  } catch (e) {
    throw new Error(`secret ${secretId}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
