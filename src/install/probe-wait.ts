// Waits until the API server admits with the webhook configurations just applied (see
// src/admission/probe.ts): a dry-run create of a PodTemplate carrying a configuration's probe
// label goes through while the API server still has the old configuration, and is refused by the
// probe entry once it has the new one. Nothing is stored: dry run.
// The probe's answer also says whether the edge works: an API server that cannot connect to it
// (refused, timed out, TLS) only warns, as the edge may come up later; an edge that answers, but
// with an error (a 5xx, a 404 for an unknown cluster or secret, or a denial other than the probe's)
// fails the wait with EdgeFailingError: webhooks with failurePolicy Fail would refuse what they match.
import { PROBE_MESSAGE, PROBE_WEBHOOK_NAME } from '../admission/probe.js';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import type { WebhookEntry } from './render.js';

export type ProbeWaitOptions = {
  /** Give up (throw) after this long. Default 30 s: the API server's informer lags by milliseconds. */
  timeoutMs?: number;
  intervalMs?: number;
  log?: (message: string) => void;
  /** Only warn when the edge answers with an error (install --force). */
  force?: boolean;
};

/** The edge answered the probe, but not with the probe's denial. */
export class EdgeFailingError extends Error {
  override name = 'EdgeFailingError';
  constructor(readonly config: string, readonly answer: string) {
    super(`${config}: the API server reached the edge, but it answered with an error: ${answer}`);
  }
}

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

export type ProbeAnswer = 'in-effect' | 'not-yet' | { unreachable: string } | { failing: string } | { error: string };

/**
 * What one dry-run create says: refused by our probe (in effect), admitted (not yet), refused
 * because the call failed (the edge unreachable, or answering with an error), or something else.
 */
export function readProbeAnswer(webhook: string, outcome: { admitted: true } | { error: string }): ProbeAnswer {
  if ('admitted' in outcome) return 'not-yet';
  if (!outcome.error.includes(`"${webhook}"`)) return { error: outcome.error };
  if (outcome.error.includes(PROBE_MESSAGE)) return 'in-effect';
  // The configuration is loaded, but our answer did not come back. The API server's HTTP client
  // reports a request that got no response as Go's url.Error, `Post "URL": <cause>`; a response
  // that came (5xx, 404, or a denial that is not the probe's) reads differently.
  return /\bPost "[^"]*": /.test(outcome.error) ? { unreachable: outcome.error } : { failing: outcome.error };
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
      if (typeof answer === 'object' && 'failing' in answer && !opts.force) throw new EdgeFailingError(`${config.kind} ${config.metadata?.name}`, answer.failing);
      if (typeof answer === 'object') {
        // Either way the API server has the configuration, or will not tell us: do not hold the install.
        log('unreachable' in answer
          ? `warning: ${config.kind} ${config.metadata?.name} is in effect, but the API server could not reach the edge: ${answer.unreachable}`
          : 'failing' in answer
            ? `warning: ${config.kind} ${config.metadata?.name} is in effect, but the edge answers with an error (kept: --force): ${answer.failing}`
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
