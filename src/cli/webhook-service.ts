// `install --webhook-service NS/NAME[:PORT]`: the webhooks call an in-cluster Service (the
// self-hosted server, infra/kustomize) instead of a URL. The API server then reaches the pods
// through the Service without resolving cluster DNS, which it may not do. The rendered
// configurations are made for the URL https://NAME.NS.svc:PORT and every entry that calls it
// is pointed at the Service with the same path (it carries the cluster id and path secret). Pure.
import type { KubeObject } from '../kube/http.js';

export type ServiceRef = { namespace: string; name: string; port: number };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** `NS/NAME[:PORT]` (port 443 by default), or an error message. */
export function parseServiceRef(text: string): ServiceRef | { error: string } {
  const m = /^([^/]+)\/([^/:]+)(?::(\d+))?$/.exec(text);
  const bad = { error: `--webhook-service "${text}": expected NAMESPACE/NAME or NAMESPACE/NAME:PORT, e.g. kruise-system/kruise-serverless-webhook` };
  if (!m) return bad;
  const [, namespace, name, port] = m as unknown as [string, string, string, string | undefined];
  if (!DNS_LABEL.test(namespace) || !DNS_LABEL.test(name)) return bad;
  const p = port === undefined ? 443 : Number(port);
  if (!(p >= 1 && p <= 65535)) return { error: `--webhook-service "${text}": port must be 1-65535` };
  return { namespace, name, port: p };
}

/** The URL the Service stands for: what the installer renders and checks. */
export const serviceBaseUrl = (s: ServiceRef): string => `https://${s.name}.${s.namespace}.svc${s.port === 443 ? '' : `:${s.port}`}`;

type ClientConfig = { url?: string; caBundle?: string; service?: { namespace: string; name: string; port: number; path: string } };

/** The objects with each webhook that calls serviceBaseUrl(s) calling the Service instead. */
export function routeToService(objects: readonly KubeObject[], s: ServiceRef): KubeObject[] {
  const base = serviceBaseUrl(s);
  return objects.map((o) => {
    if (o.kind !== 'MutatingWebhookConfiguration' && o.kind !== 'ValidatingWebhookConfiguration') return o;
    const webhooks = (o.webhooks as { clientConfig: ClientConfig }[] | undefined) ?? [];
    return {
      ...o,
      webhooks: webhooks.map((w) => {
        const { url, ...rest } = w.clientConfig;
        if (url === undefined || !url.startsWith(`${base}/`)) return w;
        return { ...w, clientConfig: { ...rest, service: { namespace: s.namespace, name: s.name, port: s.port, path: url.slice(base.length) } } };
      }),
    };
  });
}
