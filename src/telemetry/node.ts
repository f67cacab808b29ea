// Node's telemetry (the webhook server, the reconcile loop, `npm start`): JSON logs on stderr,
// Prometheus metrics, and an HTTP handler for /metrics, /readyz and /healthz. Once per process:
// a second call (both the server and the loop in one process) returns the same metrics.
import { parseLogLevel, jsonLogger } from './log.js';
import { configureTelemetry, parseDecisionSample, telemetry } from './telemetry.js';
import { PrometheusMetrics } from './prometheus.js';

let installed: PrometheusMetrics | undefined;

export function nodeTelemetry(env: Record<string, string | undefined> = process.env): PrometheusMetrics {
  if (installed) return installed;
  const level = parseLogLevel(env.KS_LOG_LEVEL);
  const decisionSample = parseDecisionSample(env.KS_DECISION_LOG_SAMPLE);
  const health = telemetry().health;
  installed = new PrometheusMetrics(() => health.snapshot());
  configureTelemetry({ log: jsonLogger({ level, write: (_l, line) => void process.stderr.write(`${line}\n`) }), metrics: installed, decisionSample });
  return installed;
}

/**
 * GET /metrics (Prometheus text), /readyz (200 or 503, a JSON body saying why), /healthz (200
 * while the process serves); undefined for any other request.
 */
export async function observabilityResponse(req: Request, metrics: PrometheusMetrics, now: () => number = Date.now): Promise<Response | undefined> {
  if (req.method !== 'GET') return undefined;
  const path = new URL(req.url).pathname;
  if (path === '/metrics') {
    const { contentType, body } = await metrics.expose();
    return new Response(body, { headers: { 'content-type': contentType } });
  }
  if (path === '/readyz') {
    const report = telemetry().health.report(now());
    return Response.json(report, { status: report.ready ? 200 : 503 });
  }
  if (path === '/healthz') return Response.json({ ok: true });
  return undefined;
}

/** KS_METRICS_PORT: a port number, 0 for any free port, or "off"; unset: `fallback`. */
export function parseMetricsPort(text: string | undefined, fallback: number | 'off'): number | 'off' {
  const value = (text ?? '').trim();
  if (!value) return fallback;
  if (value === 'off') return 'off';
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new Error(`KS_METRICS_PORT "${text}": expected a port number (0: any free port) or "off"`);
  return n;
}
