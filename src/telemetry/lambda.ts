// Lambda's telemetry: JSON logs and EMF metric lines written straight to stdout (the runtime's
// console prefixes text-format lines with a timestamp and request id, which EMF does not accept).
import { jsonLogger, parseLogLevel } from './log.js';
import { configureTelemetry, parseDecisionSample } from './telemetry.js';
import { EmfMetrics } from './emf.js';

export type StdoutWrite = (line: string) => void;
const stdout: StdoutWrite = (line) => void process.stdout.write(`${line}\n`);

/** Configures the execution environment's telemetry; the returned function writes the invocation's metrics. */
export function lambdaTelemetry(env: Record<string, string | undefined>, write: StdoutWrite = stdout): () => void {
  const metrics = new EmfMetrics();
  configureTelemetry({
    log: jsonLogger({ level: parseLogLevel(env.KS_LOG_LEVEL), write: (_l, line) => write(line) }),
    metrics,
    decisionSample: parseDecisionSample(env.KS_DECISION_LOG_SAMPLE),
  });
  return () => {
    for (const line of metrics.flush()) write(line);
  };
}

/** `handler`, with the invocation's metrics written when it ends (however it ends). */
export function flushingAfter<A extends unknown[], R>(handler: (...args: A) => Promise<R>, flush: () => void): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      flush();
    }
  };
}
