// The reconcilers' kubeconfig reader (src/kube/kubeconfig.ts) against the real API server: every
// credential form it reads itself reaches the server and is accepted, a wrong one is refused (so
// the credential really is what the server sees), and an exec plugin goes through client-node.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { parse } from 'yaml';
import { KubeHttp } from '../../src/kube/http.js';
import { KubeApiError } from '../../src/kube/errors.js';
import './provided.js';

type Config = { clusters: { cluster: { server: string } }[]; users: { user: { token: string } }[] };

let dir = '';
let server = '';
let token = '';

function kubeconfig(name: string, user: Record<string, unknown>, cluster: Record<string, unknown> = { 'certificate-authority': 'ca.crt' }): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'ctx',
    clusters: [{ name: 'c', cluster: { server, ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'kube-system' } }],
  }));
  return path;
}

async function namespacesVia(path: string): Promise<string[]> {
  const kube = await KubeHttp.fromKubeConfigFile(path);
  try {
    return (await kube.list('v1', 'Namespace')).items.map((n) => n.metadata?.name ?? '');
  } finally {
    kube.close();
  }
}

beforeAll(() => {
  const given = parse(readFileSync(inject('kubeconfig'), 'utf8')) as Config;
  server = given.clusters[0]!.cluster.server;
  token = given.users[0]!.user.token;
  dir = mkdtempSync(join(tmpdir(), 'ks-e2e-kubeconfig-'));
  copyFileSync(inject('caCert'), join(dir, 'ca.crt'));
});

describe('kubeconfig forms read without client-node, against the API server', () => {
  it('a CA file relative to the kubeconfig and a token file', async () => {
    writeFileSync(join(dir, 'token'), `${token}\n`);
    expect(await namespacesVia(kubeconfig('token-file', { tokenFile: 'token' }))).toContain('kube-system');
  });

  it('a client certificate signed by the cluster CA (system:masters)', async () => {
    const ca = inject('caCert');
    const caKey = join(dirname(ca), 'ca.key');
    execFileSync('openssl', ['genrsa', '-out', 'client.key', '2048'], { cwd: dir, stdio: 'ignore' });
    execFileSync('openssl', ['req', '-new', '-key', 'client.key', '-subj', '/O=system:masters/CN=ks-e2e-client', '-out', 'client.csr'], { cwd: dir, stdio: 'ignore' });
    execFileSync('openssl', ['x509', '-req', '-in', 'client.csr', '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-CAserial', join(dir, 'ca.srl'), '-days', '1', '-out', 'client.crt'], { cwd: dir, stdio: 'ignore' });
    const certData = Buffer.from(readFileSync(join(dir, 'client.crt'))).toString('base64');
    const path = kubeconfig('client-cert', { 'client-certificate-data': certData, 'client-key': join(dir, 'client.key') }, { 'certificate-authority-data': Buffer.from(readFileSync(ca)).toString('base64') });
    expect(await namespacesVia(path)).toContain('default');
  });

  it('a wrong token is refused, and an unverified server only with insecure-skip-tls-verify', async () => {
    await expect(namespacesVia(kubeconfig('wrong', { token: 'not-a-token' }))).rejects.toSatisfy((e: unknown) => e instanceof KubeApiError && e.status === 401);
    await expect(namespacesVia(kubeconfig('no-ca', { token }, {}))).rejects.toThrow(/certificate/i);
    expect(await namespacesVia(kubeconfig('insecure', { token }, { 'insecure-skip-tls-verify': true }))).toContain('default');
  });
});

describe('kubeconfig forms left to client-node', () => {
  it('an exec plugin: client-node runs it and its token reaches the API server', async () => {
    const plugin = join(dir, 'plugin.sh');
    writeFileSync(plugin, `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"${token}"}}'\n`);
    chmodSync(plugin, 0o755);
    const path = kubeconfig('exec', { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: plugin } }, { 'certificate-authority': join(dir, 'ca.crt') });
    expect(await namespacesVia(path)).toContain('kube-system');
  });
});
