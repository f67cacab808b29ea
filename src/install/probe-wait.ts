// Waits until the API server admits with the webhook configurations just applied (see
// src/admission/probe.ts): a dry-run create of a PodTemplate carrying a configuration's probe
// label goes through while the API server still has the old configuration, and is refused by the
// probe entry once it has the new one. Nothing is stored: dry run.
import { PROBE_MESSAGE, PROBE_WEBHOOK_NAME } from '../admission/probe.js';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import type { WebhookEntry } from './render.js';

export type ProbeWaitOptions = {
  /** Give up (throw) after this long. Default 30 s: the API server's informer lags by milliseconds. */
  timeoutMs?: number;
  intervalMs?: number;
  log?: (message: string) => void;
};

const PROBE_NAMES: readonly string[] = Object.values(PROBE_WEBHOOK_NAME);

/** The probe entry of a rendered webhook configuration, with the PodTemplate that triggers it. */
export function probeRequest(config: KubeObject): { webhook: string; podTemplate: KubeObject } | undefined {
  const probe = ((config.webhooks ?? []) as WebhookEntry[]).find((w) => PROBE_NAMES.includes(w.name));
  const namespace = probe?.namespaceSelector?.matchExpressions?.[0]?.values?.[0];
  const labels = probe?.objectSelector?.matchLabels;
  if (!probe || !namespace || !labels) return undefined;
  return {
    webhook: probe.name,
    podTemplate: {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'kruise-serverless-probe', namespace, labels },
      template: { spec: { containers: [{ name: 'probe', image: 'kruise-serverless-probe' }] } },
    },
  };
}

export type ProbeAnswer = 'in-effect' | 'not-yet' | { unreachable: string } | { error: string };

/** What one dry-run create says: refused by our probe (in effect), admitted (not yet), or something else. */
export function readProbeAnswer(webhook: string, outcome: { admitted: true } | { error: string }): ProbeAnswer {
  if ('admitted' in outcome) return 'not-yet';
  if (!outcome.error.includes(`"${webhook}"`)) return { error: outcome.error };
  // The API server called the probe but could not get our answer: the configuration is loaded, the edge is not reachable.
  return outcome.error.includes(PROBE_MESSAGE) ? 'in-effect' : { unreachable: outcome.error };
}

export async function waitForWebhookConfigs(kube: KubeHttp, configs: readonly KubeObject[], opts: ProbeWaitOptions = {}): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const intervalMs = opts.intervalMs ?? 50;
  for (const config of configs) {
    const probe = probeRequest(config);
    if (!probe) continue;
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const answer = readProbeAnswer(
        probe.webhook,
        await kube.create(probe.podTemplate, { dryRun: 'All' }).then(
          () => ({ admitted: true as const }),
          (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
        ),
      );
      if (answer === 'in-effect') {
        log(`${config.kind} ${config.metadata?.name} in effect (${attempt} probe${attempt > 1 ? 's' : ''}, ${Date.now() - started} ms)`);
        break;
      }
      if (typeof answer === 'object') {
        // Either way the API server has the configuration, or will not tell us: do not hold the install.
        log('unreachable' in answer
          ? `warning: ${config.kind} ${config.metadata?.name} is in effect, but the API server could not reach the edge: ${answer.unreachable}`
          : `warning: could not probe ${config.kind} ${config.metadata?.name}: ${answer.error}`);
        break;
      }
      if (Date.now() - started > timeoutMs) {
        throw new Error(`${config.kind} ${config.metadata?.name}: the API server still admits without it after ${timeoutMs} ms (a dry-run PodTemplate with its probe label was admitted ${attempt} times)`);
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
