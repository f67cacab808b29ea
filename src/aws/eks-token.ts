// EKS bearer tokens, minted the way `aws eks get-token` does (aws/aws-cli
// awscli/customizations/eks/get_token.py): `k8s-aws-v1.` + base64url (no padding) of an STS
// GetCallerIdentity URL presigned with SigV4, with the header `x-k8s-aws-id: <cluster>` signed
// so the token is only good for that cluster. EKS accepts it for 15 minutes after X-Amz-Date,
// whatever X-Amz-Expires says (aws-iam-authenticator checks the date itself); aws-cli signs with
// X-Amz-Expires=60 and so do we.
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { KubeConnection } from '../kube/kubeconfig.js';

export const EKS_TOKEN_PREFIX = 'k8s-aws-v1.';
export const CLUSTER_ID_HEADER = 'x-k8s-aws-id';
/** EKS accepts a token for 15 minutes after it was signed. */
export const EKS_TOKEN_VALIDITY_MS = 15 * 60_000;
/** Mint a new token after 10 minutes, so a run that starts with a cached one has 5 left. */
export const EKS_TOKEN_REFRESH_MS = 10 * 60_000;
const PRESIGN_EXPIRES_SECONDS = 60;

export type AwsCredentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
/** Where credentials come from; called once per minted token, so rotated credentials are picked up. */
export type CredentialProvider = () => Promise<AwsCredentials>;

export type EksTokenOptions = {
  clusterName: string;
  region: string;
  credentials: CredentialProvider;
  now?: () => Date;
  /**
   * The STS host to presign for. Default: the regional endpoint `sts.<region>.amazonaws.com`
   * (`.amazonaws.com.cn` in China regions), as current aws-cli uses.
   */
  stsHost?: string;
};

export type EksToken = { token: string; /** When EKS stops accepting it. */ expiresAt: Date };

export function stsHostFor(region: string): string {
  return `sts.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

/**
 * The presigned `https://sts…/?Action=GetCallerIdentity&…` URL. Query parameters appear in
 * canonical (sorted) order with X-Amz-Signature appended last, as aws-cli and the Go SDK print it.
 */
export async function presignGetCallerIdentity(opts: EksTokenOptions): Promise<string> {
  const hostname = opts.stsHost ?? stsHostFor(opts.region);
  const signer = new SignatureV4({
    service: 'sts',
    region: opts.region,
    credentials: opts.credentials,
    sha256: Hash.bind(null, 'sha256'),
  });
  const request = new HttpRequest({
    method: 'GET',
    protocol: 'https:',
    hostname,
    path: '/',
    query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    headers: { host: hostname, [CLUSTER_ID_HEADER]: opts.clusterName },
  });
  const signed = await signer.presign(request, {
    expiresIn: PRESIGN_EXPIRES_SECONDS,
    signingDate: (opts.now ?? (() => new Date()))(),
  });
  const query = signed.query as Record<string, string>;
  const { 'X-Amz-Signature': signature, ...rest } = query;
  if (!signature) throw new Error('SigV4 presign returned no X-Amz-Signature');
  const pairs = Object.keys(rest)
    .sort()
    .map((k) => `${uriEscape(k)}=${uriEscape(rest[k]!)}`);
  pairs.push(`X-Amz-Signature=${signature}`);
  return `https://${hostname}/?${pairs.join('&')}`;
}

/** A fresh token; `expiresAt` is the signing time + 15 minutes. */
export async function getEksToken(opts: EksTokenOptions): Promise<EksToken> {
  const now = (opts.now ?? (() => new Date()))();
  const url = await presignGetCallerIdentity({ ...opts, now: () => now });
  return { token: EKS_TOKEN_PREFIX + Buffer.from(url, 'utf8').toString('base64url'), expiresAt: new Date(now.getTime() + EKS_TOKEN_VALIDITY_MS) };
}

/**
 * A token source that reuses a token for `refreshAfterMs` (default 10 minutes) and mints a new
 * one after. Concurrent callers share one signing. A failed mint is not cached.
 */
export function cachedEksToken(opts: EksTokenOptions & { refreshAfterMs?: number }): () => Promise<EksToken> {
  const now = opts.now ?? (() => new Date());
  const refreshAfterMs = opts.refreshAfterMs ?? EKS_TOKEN_REFRESH_MS;
  let current: { mintedAt: number; token: Promise<EksToken> } | undefined;
  return () => {
    const t = now().getTime();
    if (!current || t - current.mintedAt >= refreshAfterMs) {
      const minting = { mintedAt: t, token: getEksToken({ ...opts, now: () => new Date(t) }) };
      minting.token.catch(() => {
        if (current === minting) current = undefined;
      });
      current = minting;
    }
    return current.token;
  };
}

/** Credentials from the standard variables (Lambda sets them for the execution role). */
export function credentialsFromEnv(env: Record<string, string | undefined>): CredentialProvider {
  return async () => {
    const accessKeyId = env.AWS_ACCESS_KEY_ID;
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
    if (!accessKeyId || !secretAccessKey) throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (Lambda sets them for the execution role)');
    return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
  };
}

export type EksCluster = {
  name: string;
  /** The API server URL, e.g. https://ABCDEF.gr7.us-east-1.eks.amazonaws.com */
  endpoint: string;
  /** certificateAuthority.data from DescribeCluster: base64 of the PEM. */
  caData: string;
};

/**
 * The connection to an EKS cluster with a bearer token: the cluster CA, TLS verified. A KubeHttp
 * keeps the token it was built with, so build a new client when the token changes.
 */
export function eksConnection(cluster: EksCluster, token: string): KubeConnection {
  return {
    server: cluster.endpoint.replace(/\/$/, ''),
    ca: Buffer.from(cluster.caData, 'base64').toString('utf8'),
    rejectUnauthorized: true,
    headers: { Authorization: `Bearer ${token}` },
  };
}

/** RFC 3986 unreserved characters stay, everything else is %XX (SigV4's URI encoding). */
function uriEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
