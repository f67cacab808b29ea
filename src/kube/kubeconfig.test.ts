import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { connectionOfClientNode, inClusterConnection, loadKubeConnection, parseKubeConfig } from './kubeconfig.js';

const pem = (what: string) => `-----BEGIN ${what}-----\nMIIB${what.replace(/ /g, '')}\n-----END ${what}-----\n`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown>, namespace?: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'ctx',
    clusters: [{ name: 'other', cluster: { server: 'https://wrong:1' } }, { name: 'c', cluster }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', ...(namespace ? { namespace } : {}) } }],
  });
}

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ks-kubeconfig-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const noFiles = (p: string): string => {
  throw new Error(`unexpected read of ${p}`);
};

describe('parseKubeConfig', () => {
  it('reads inline data, a bearer token and the namespace of the current context', () => {
    const text = kubeconfig({ server: 'https://10.0.0.1:6443/', 'certificate-authority-data': b64(pem('CERTIFICATE')) }, { token: 'abc' }, 'team-a');
    expect(parseKubeConfig(text, '/nowhere', noFiles)).toEqual({
      server: 'https://10.0.0.1:6443', ca: pem('CERTIFICATE'), rejectUnauthorized: true, headers: { Authorization: 'Bearer abc' }, namespace: 'team-a',
    });
  });

  it('reads files relative to the kubeconfig, and client certificates', () => {
    const dir = dirWith({ 'ca.crt': pem('CERTIFICATE'), 'admin.crt': pem('CLIENT CERT'), 'admin.key': pem('PRIVATE KEY') });
    const text = kubeconfig({ server: 'https://127.0.0.1:6443', 'certificate-authority': 'ca.crt', 'tls-server-name': 'kubernetes' }, { 'client-certificate': join(dir, 'admin.crt'), 'client-key': 'admin.key' });
    expect(parseKubeConfig(text, dir, (p) => readFileSync(p, 'utf8'))).toEqual({
      server: 'https://127.0.0.1:6443', ca: pem('CERTIFICATE'), cert: pem('CLIENT CERT'), key: pem('PRIVATE KEY'), servername: 'kubernetes', rejectUnauthorized: true, headers: {},
    });
  });

  it('token files, basic auth and skipped verification', () => {
    const files: Record<string, string> = { '/t/token': 'from-file\n' };
    const read = (p: string) => files[p] ?? noFiles(p);
    expect(parseKubeConfig(kubeconfig({ server: 'https://a', 'insecure-skip-tls-verify': true }, { tokenFile: '/t/token' }), '/', read)).toEqual({
      server: 'https://a', rejectUnauthorized: false, headers: { Authorization: 'Bearer from-file' },
    });
    expect(parseKubeConfig(kubeconfig({ server: 'https://a' }, { username: 'admin', password: 's3cret' }), '/', read)).toHaveProperty('headers', { Authorization: `Basic ${b64('admin:s3cret')}` });
  });

  it('leaves exec and auth-provider users, proxies and broken files to client-node', () => {
    const server = { server: 'https://a' };
    expect(parseKubeConfig(kubeconfig(server, { exec: { command: 'aws', apiVersion: 'client.authentication.k8s.io/v1beta1' } }), '/', noFiles)).toEqual({ unsupported: 'kubeconfig uses exec' });
    expect(parseKubeConfig(kubeconfig(server, { 'auth-provider': { name: 'gcp' } }), '/', noFiles)).toEqual({ unsupported: 'kubeconfig uses auth-provider' });
    expect(parseKubeConfig(kubeconfig({ ...server, 'proxy-url': 'http://proxy:3128' }, {}), '/', noFiles)).toEqual({ unsupported: 'kubeconfig uses proxy-url' });
    expect(parseKubeConfig(kubeconfig(server, { as: 'someone' }), '/', noFiles)).toEqual({ unsupported: 'kubeconfig uses as' });
    expect(parseKubeConfig('apiVersion: v1\nkind: Config\n', '/', noFiles)).toEqual({ unsupported: 'no current-context' });
    expect(parseKubeConfig('current-context: x\ncontexts: []\n', '/', noFiles)).toEqual({ unsupported: 'context x not found' });
  });

  // client-go's `tokenFile` is left out: client-node reads a `token-file` key instead (and does
  // not trim the file), so only client-go's reading is tested above.
  it('agrees with client-node on every form both read', async () => {
    const dir = dirWith({ 'ca.crt': pem('CERTIFICATE'), 'c.crt': pem('CLIENT CERT'), 'c.key': pem('PRIVATE KEY'), token: 'tok\n' });
    const cases = [
      kubeconfig({ server: 'https://10.0.0.1:6443', 'certificate-authority-data': b64(pem('CERTIFICATE')) }, { token: 'abc' }, 'ns'),
      kubeconfig({ server: 'https://h:1', 'certificate-authority': join(dir, 'ca.crt') }, { 'client-certificate-data': b64(pem('CLIENT CERT')), 'client-key': join(dir, 'c.key') }),
      kubeconfig({ server: 'https://h:1', 'insecure-skip-tls-verify': true, 'tls-server-name': 'kubernetes' }, { token: 'tok' }),
      kubeconfig({ server: 'https://h:1' }, { username: 'u', password: 'p' }),
    ];
    for (const text of cases) {
      const kc = new KubeConfig();
      kc.loadFromString(text);
      const theirs = await connectionOfClientNode(kc);
      const ours = parseKubeConfig(text, dir, (p) => readFileSync(p, 'utf8'));
      expect(ours).toEqual(theirs);
    }
  });
});

describe('inClusterConnection', () => {
  it('reads the service account as client-go does', () => {
    const sa = '/var/run/secrets/kubernetes.io/serviceaccount';
    const files: Record<string, string> = { [`${sa}/token`]: 'sa-token\n', [`${sa}/ca.crt`]: pem('CERTIFICATE'), [`${sa}/namespace`]: 'kruise-system' };
    expect(inClusterConnection({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, (p) => files[p] ?? noFiles(p))).toEqual({
      server: 'https://[fd00::1]:443', ca: pem('CERTIFICATE'), rejectUnauthorized: true, headers: { Authorization: 'Bearer sa-token' }, namespace: 'kruise-system',
    });
  });
});

describe('loadKubeConnection', () => {
  const file = (server: string) => kubeconfig({ server }, { token: 't' });

  it('takes the path given, else $KUBECONFIG, else the service account; a missing explicit file is an error', async () => {
    const dir = dirWith({ a: file('https://a'), b: file('https://b') });
    expect((await loadKubeConnection(join(dir, 'a'), { KUBECONFIG: join(dir, 'b') })).server).toBe('https://a');
    expect((await loadKubeConnection(undefined, { KUBECONFIG: join(dir, 'b') })).server).toBe('https://b');
    await expect(loadKubeConnection(join(dir, 'missing'), {})).rejects.toThrow('ENOENT');
  });

  it('hands an exec user to client-node, which runs the plugin', async () => {
    const dir = dirWith({ 'plugin.sh': '#!/bin/sh\necho \'{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"minted"}}\'\n' });
    chmodSync(join(dir, 'plugin.sh'), 0o755);
    writeFileSync(join(dir, 'config'), kubeconfig({ server: 'https://a' }, { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: join(dir, 'plugin.sh') } }));
    const conn = await loadKubeConnection(join(dir, 'config'), {});
    expect(conn.headers['Authorization']).toBe('Bearer minted');
  });
});

describe('a context chosen by name (--context)', () => {
  const twoContexts = (extraUser: Record<string, unknown> = {}) => JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'dev',
    clusters: [{ name: 'dev', cluster: { server: 'https://dev' } }, { name: 'prod', cluster: { server: 'https://prod' } }],
    users: [{ name: 'u', user: { token: 't', ...extraUser } }],
    contexts: [{ name: 'dev', context: { cluster: 'dev', user: 'u' } }, { name: 'prod', context: { cluster: 'prod', user: 'u', namespace: 'shop' } }],
  });

  it('connects to that context instead of the current one, with its namespace', async () => {
    const dir = dirWith({ config: twoContexts() });
    expect((await loadKubeConnection(join(dir, 'config'), {})).server).toBe('https://dev');
    const prod = await loadKubeConnection(join(dir, 'config'), {}, undefined, 'prod');
    expect([prod.server, prod.namespace]).toEqual(['https://prod', 'shop']);
  });

  it('also when client-node reads the file', async () => {
    const dir = dirWith({ config: twoContexts({ 'auth-provider': { name: 'unknown-provider' } }) });
    await expect(loadKubeConnection(join(dir, 'config'), {}, undefined, 'nope')).rejects.toThrow('context "nope" not found in the kubeconfig (contexts: dev, prod)');
  });

  it('an unknown name is an error that lists the contexts', async () => {
    const dir = dirWith({ config: twoContexts() });
    await expect(loadKubeConnection(join(dir, 'config'), {}, undefined, 'staging')).rejects.toThrow('context "staging" not found in the kubeconfig (contexts: dev, prod)');
  });
});
