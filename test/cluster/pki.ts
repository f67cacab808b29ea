// A throwaway PKI for the local control plane: one CA that signs the API server's serving cert
// and the local webhook server's cert (so the API server can be given a caBundle), plus the
// service-account signing key pair. Made with the openssl CLI.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Pki = {
  caCert: string;
  caKey: string;
  apiserverCert: string;
  apiserverKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
};

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Issues a serving certificate signed by the CA in `dir`, for the given DNS names and IPs. */
export function issueServingCert(dir: string, name: string, dnsNames: string[], ips: string[]): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  if (existsSync(cert) && existsSync(key)) return { cert, key };
  const san = [...dnsNames.map((d) => `DNS:${d}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, `subjectAltName=${san}\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n`);
  openssl(['genrsa', '-out', key, '2048'], dir);
  openssl(['req', '-new', '-key', key, '-subj', `/CN=${name}`, '-out', `${name}.csr`], dir);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial',
    '-days', '365', '-sha256', '-extfile', ext, '-out', cert], dir);
  return { cert, key };
}

export function ensurePki(dir: string): Pki {
  const caCert = join(dir, 'ca.crt');
  const caKey = join(dir, 'ca.key');
  if (!existsSync(caCert)) {
    openssl(['genrsa', '-out', 'ca.key', '2048'], dir);
    openssl(['req', '-x509', '-new', '-nodes', '-key', 'ca.key', '-subj', '/CN=kruise-serverless-local-ca',
      '-days', '3650', '-sha256', '-out', 'ca.crt'], dir);
  }
  const api = issueServingCert(dir, 'apiserver', ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'], ['127.0.0.1', '10.96.0.1']);
  const serviceAccountKey = join(dir, 'sa.key');
  const serviceAccountPub = join(dir, 'sa.pub');
  if (!existsSync(serviceAccountKey)) {
    openssl(['genrsa', '-out', 'sa.key', '2048'], dir);
    openssl(['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  }
  return { caCert, caKey, apiserverCert: api.cert, apiserverKey: api.key, serviceAccountKey, serviceAccountPub };
}
