import { GetSecretValueCommand, type GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { kubeSourceFromEnv, requeueQueueFromEnv, resyncSecondsFromEnv } from './reconcile.js';

describe('kubeSourceFromEnv', () => {
  const caData = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n').toString('base64');
  const kubeconfigYaml = [
    'apiVersion: v1', 'kind: Config', 'current-context: c',
    'clusters: [{ name: c, cluster: { server: "https://10.0.0.1:6443", certificate-authority-data: ' + caData + ' } }]',
    'users: [{ name: u, user: { token: abc } }]',
    'contexts: [{ name: c, context: { cluster: c, user: u } }]',
  ].join('\n');

  it('EKS: builds a client from the endpoint, CA and a minted token, without network', async () => {
    const source = kubeSourceFromEnv({
      KS_EKS_CLUSTER: 'prod', KS_EKS_ENDPOINT: 'https://ABCDEF.gr7.us-east-1.eks.amazonaws.com', KS_EKS_CA_DATA: caData,
      AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token',
    });
    const kube = await source();
    expect(await source()).toBe(kube); // the token is cached, so is the client
    kube.close();
  });

  it('secret: reads the kubeconfig through the client it is given', async () => {
    const sent: GetSecretValueCommand[] = [];
    const stub = { send: async (c: GetSecretValueCommand): Promise<GetSecretValueCommandOutput> => (sent.push(c), { $metadata: {}, SecretString: kubeconfigYaml }) };
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:kruise-kubeconfig-AbCdEf';
    const source = kubeSourceFromEnv({ KS_KUBECONFIG_SECRET_ARN: arn }, () => stub);
    const kube = await source();
    await source();
    expect(sent.map((c) => c.input)).toEqual([{ SecretId: arn }]);
    kube.close();
  });

  it('names what is missing', () => {
    expect(() => kubeSourceFromEnv({ KS_EKS_CLUSTER: 'prod', AWS_REGION: 'us-east-1' })).toThrow('missing: KS_EKS_ENDPOINT, KS_EKS_CA_DATA');
  });
});

describe('environment', () => {
  it('KS_REQUEUE_QUEUE_URL: none → no queue; the Region from AWS_REGION or the queue URL', () => {
    expect(requeueQueueFromEnv({})).toBeUndefined();
    expect(requeueQueueFromEnv({ KS_REQUEUE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/q' })).toBeDefined();
    expect(() => requeueQueueFromEnv({ KS_REQUEUE_QUEUE_URL: 'http://127.0.0.1:9324/123456789012/q' })).toThrow("set AWS_REGION, the queue's Region");
  });

  it.each([
    [undefined, 60],
    ['0', 0],
    ['300', 300],
  ])('KS_RESYNC_SECONDS=%s → %d', (value, want) => {
    expect(resyncSecondsFromEnv(value === undefined ? {} : { KS_RESYNC_SECONDS: value })).toBe(want);
  });

  it.each(['-1', '1.5', 'a minute', ''])('KS_RESYNC_SECONDS=%j is refused', (value) => {
    expect(() => resyncSecondsFromEnv({ KS_RESYNC_SECONDS: value })).toThrow('expected whole seconds');
  });
});
