import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KubeHttp } from '../kube/http.js';
import {
  cachedEksToken,
  credentialsFromEnv,
  eksConnection,
  getEksToken,
  presignGetCallerIdentity,
  stsHostFor,
  type AwsCredentials,
} from './eks-token.js';

const fixed = (c: AwsCredentials) => async () => c;
const decode = (token: string) => Buffer.from(token.slice('k8s-aws-v1.'.length), 'base64url').toString('utf8');

describe('published vector', () => {
  // pplu/AWSv4Signer t/03_eks.t (https://github.com/pplu/AWSv4Signer/blob/master/t/03_eks.t):
  // a URL printed by heptio-authenticator-aws (the predecessor of aws-iam-authenticator) for
  // cluster "scrumptious-wardrobe-1531912697" with fake keys at 2018-07-23T14:57:07Z, presigned
  // for the global endpoint sts.amazonaws.com in us-east-1, X-Amz-Expires=60.
  const expectedQuery =
    'Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Algorithm=AWS4-HMAC-SHA256' +
    '&X-Amz-Credential=AKIAKIAKIAKIAKIAKIAK%2F20180723%2Fus-east-1%2Fsts%2Faws4_request' +
    '&X-Amz-Date=20180723T145707Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host%3Bx-k8s-aws-id' +
    '&X-Amz-Signature=7a9107b9da0017ba3c84c6331d1aed6afe1de75da6c39ea786c01c31141052a8';
  const opts = {
    clusterName: 'scrumptious-wardrobe-1531912697',
    region: 'us-east-1',
    stsHost: 'sts.amazonaws.com',
    credentials: fixed({ accessKeyId: 'AKIAKIAKIAKIAKIAKIAK', secretAccessKey: '1111111111111111111111111111111111111111' }),
    now: () => new Date('2018-07-23T14:57:07Z'),
  };

  it('reproduces the signed query string byte for byte', async () => {
    expect(await presignGetCallerIdentity(opts)).toBe(`https://sts.amazonaws.com/?${expectedQuery}`);
  });

  it('wraps it as k8s-aws-v1. + unpadded base64url', async () => {
    const { token, expiresAt } = await getEksToken(opts);
    expect(token).toMatch(/^k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    expect(decode(token)).toBe(`https://sts.amazonaws.com/?${expectedQuery}`);
    expect(expiresAt.toISOString()).toBe('2018-07-23T15:12:07.000Z');
  });
});

describe('independent SigV4 derivation (session credentials, regional endpoint)', () => {
  // The SigV4 presign steps done by hand with node:crypto, to cross-check the library on inputs
  // the published vector does not cover: a session token, a regional host, reserved characters.
  const creds = { accessKeyId: 'ASIAEXAMPLEEXAMPLE01', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', sessionToken: 'IQoJb3JpZ2luX2Vj/+=token' };
  const region = 'eu-west-1';
  const cluster = 'prod-cluster';
  const when = new Date('2024-05-06T07:08:09Z');

  function presignByHand(): string {
    const host = `sts.${region}.amazonaws.com`;
    const amzDate = '20240506T070809Z';
    const scope = `20240506/${region}/sts/aws4_request`;
    const esc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const params: [string, string][] = [
      ['Action', 'GetCallerIdentity'],
      ['Version', '2011-06-15'],
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
      ['X-Amz-Credential', `${creds.accessKeyId}/${scope}`],
      ['X-Amz-Date', amzDate],
      ['X-Amz-Expires', '60'],
      ['X-Amz-Security-Token', creds.sessionToken],
      ['X-Amz-SignedHeaders', 'host;x-k8s-aws-id'],
    ];
    const query = params.map(([k, v]) => `${esc(k)}=${esc(v)}`).sort().join('&');
    const emptyHash = createHash('sha256').update('').digest('hex');
    const canonicalRequest = ['GET', '/', query, `host:${host}\nx-k8s-aws-id:${cluster}\n`, 'host;x-k8s-aws-id', emptyHash].join('\n');
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
    const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
    let key = hmac(`AWS4${creds.secretAccessKey}`, '20240506');
    for (const part of [region, 'sts', 'aws4_request']) key = hmac(key, part);
    const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
    return `https://${host}/?${query}&X-Amz-Signature=${signature}`;
  }

  it('matches the library', async () => {
    const url = await presignGetCallerIdentity({ clusterName: cluster, region, credentials: fixed(creds), now: () => when });
    expect(url).toBe(presignByHand());
  });

  it('has the structure EKS expects', async () => {
    const url = new URL(await presignGetCallerIdentity({ clusterName: cluster, region, credentials: fixed(creds), now: () => when }));
    expect(url.origin).toBe('https://sts.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/');
    const keys = [...url.searchParams.keys()];
    expect(keys.at(-1)).toBe('X-Amz-Signature');
    expect(keys.slice(0, -1)).toEqual([...keys.slice(0, -1)].sort());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      Action: 'GetCallerIdentity',
      Version: '2011-06-15',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'ASIAEXAMPLEEXAMPLE01/20240506/eu-west-1/sts/aws4_request',
      'X-Amz-Date': '20240506T070809Z',
      'X-Amz-Expires': '60',
      'X-Amz-SignedHeaders': 'host;x-k8s-aws-id',
      'X-Amz-Security-Token': creds.sessionToken,
    });
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('stsHostFor', () => {
  it.each([
    ['us-east-1', 'sts.us-east-1.amazonaws.com'],
    ['eu-central-1', 'sts.eu-central-1.amazonaws.com'],
    ['cn-north-1', 'sts.cn-north-1.amazonaws.com.cn'],
  ])('%s', (region, host) => expect(stsHostFor(region)).toBe(host));
});

describe('cachedEksToken', () => {
  it('reuses a token for 10 minutes, then mints a new one', async () => {
    let t = Date.parse('2024-01-01T00:00:00Z');
    let calls = 0;
    const source = cachedEksToken({
      clusterName: 'c',
      region: 'us-east-1',
      credentials: async () => (calls++, { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }),
      now: () => new Date(t),
    });
    const first = await source();
    t += 9 * 60_000 + 59_000;
    expect(await source()).toBe(first);
    t += 1_000;
    const second = await source();
    expect(second.token).not.toBe(first.token);
    expect(second.expiresAt.toISOString()).toBe('2024-01-01T00:25:00.000Z');
    expect(calls).toBe(2);
  });

  it('does not cache a failed mint', async () => {
    let fail = true;
    const source = cachedEksToken({
      clusterName: 'c',
      region: 'us-east-1',
      credentials: async () => {
        if (fail) throw new Error('no credentials yet');
        return { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
      },
    });
    await expect(source()).rejects.toThrow('no credentials yet');
    fail = false;
    await expect(source()).resolves.toMatchObject({ token: expect.stringMatching(/^k8s-aws-v1\./) });
  });
});

describe('credentialsFromEnv', () => {
  it('reads the Lambda variables, session token optional', async () => {
    await expect(credentialsFromEnv({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b', AWS_SESSION_TOKEN: 'c' })()).resolves.toEqual({ accessKeyId: 'a', secretAccessKey: 'b', sessionToken: 'c' });
    await expect(credentialsFromEnv({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })()).resolves.toEqual({ accessKeyId: 'a', secretAccessKey: 'b' });
    await expect(credentialsFromEnv({})()).rejects.toThrow('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  });
});

describe('eksConnection', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
  const cluster = { name: 'prod', endpoint: 'https://ABCDEF.gr7.us-east-1.eks.amazonaws.com/', caData: Buffer.from(pem).toString('base64') };

  it('carries a bearer token and the cluster CA, TLS verified', () => {
    expect(eksConnection(cluster, 'k8s-aws-v1.abc')).toEqual({
      server: 'https://ABCDEF.gr7.us-east-1.eks.amazonaws.com', ca: pem, rejectUnauthorized: true, headers: { Authorization: 'Bearer k8s-aws-v1.abc' },
    });
  });

  it('is enough for KubeHttp.connect', () => {
    KubeHttp.connect(eksConnection(cluster, 'k8s-aws-v1.abc')).close();
  });
});
