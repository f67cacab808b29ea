// Pod disruptions as clients send them: an Eviction (policy/v1beta1, as `kubectl drain` on
// Kubernetes 1.20) and a DELETE, each answered as the status code and message the client sees.
import type { KubeHttp } from '../../../src/kube/http.js';
import { KubeApiError } from '../../../src/kube/errors.js';

export type Answer = { code: number; message: string };

async function answer(call: Promise<unknown>, ok: number): Promise<Answer> {
  try {
    await call;
    return { code: ok, message: '' };
  } catch (e) {
    if (!(e instanceof KubeApiError)) throw e;
    const body = e.body as { message?: string } | undefined;
    return { code: e.status, message: body?.message ?? e.message };
  }
}

export function evictPod(kube: KubeHttp, namespace: string, name: string, opts: { dryRun?: boolean } = {}): Promise<Answer> {
  const body = { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name, namespace }, ...(opts.dryRun ? { deleteOptions: { dryRun: ['All'] } } : {}) };
  return answer(kube.request('POST', `/api/v1/namespaces/${namespace}/pods/${name}/eviction`, { body }), 201);
}

export function deletePod(kube: KubeHttp, namespace: string, name: string, opts: { dryRun?: boolean } = {}): Promise<Answer> {
  return answer(kube.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`, { query: { dryRun: opts.dryRun ? 'All' : undefined } }), 200);
}

/** How the API server reports a validating webhook's denial. */
export const deniedBy = (webhook: string, message: string): string => `admission webhook "${webhook}" denied the request: ${message}`;
export const VPOD = 'vpod.kruise-serverless.io';
