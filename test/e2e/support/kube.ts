// Small helpers every e2e test uses: a client for the test cluster, throwaway namespaces, and
// running the kubectl built with the control plane.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig } from '../../../src/kube/node-client.js';
import { KubeHttp } from '../../../src/kube/http.js';
import { KubeApiError } from '../../../src/kube/errors.js';
import '../provided.js';

const run = promisify(execFile);

export function testKubeConfig(): KubeConfig {
  return loadKubeConfig(inject('kubeconfig'));
}

export async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run(inject('kubectl'), args, { env: { ...process.env, KUBECONFIG: inject('kubeconfig') }, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Creates a namespace with a unique name and waits for its default service account. */
export async function createNamespace(kc: KubeConfig, prefix: string, labels: Record<string, string> = {}): Promise<string> {
  const api = kc.makeApiClient(CoreV1Api);
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await api.createNamespace({ body: { metadata: { name, labels } } });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await api.readNamespacedServiceAccount({ name: 'default', namespace: name });
      return name;
    } catch {
      if (Date.now() > deadline) throw new Error(`namespace ${name}: default service account never appeared`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function deleteNamespace(kc: KubeConfig, name: string): Promise<void> {
  await kc.makeApiClient(CoreV1Api).deleteNamespace({ name }).catch(() => undefined);
}

/** The raw JSON client (the same one reconcilers use) for the test cluster. */
export function testKube(): Promise<KubeHttp> {
  return KubeHttp.fromKubeConfig(testKubeConfig());
}

/** Polls `check` until it returns a value other than undefined. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** How the API server answered a write: `ok` (or the given word), else "<status> <message>" for an API error. */
export async function attempt(call: Promise<unknown>, ok = 'ok'): Promise<string> {
  try {
    await call;
    return ok;
  } catch (e) {
    if (e instanceof KubeApiError) return `${e.status} ${(e.body as { message?: string } | undefined)?.message ?? e.message}`;
    throw e;
  }
}
