// wrangler.toml as wrangler itself reads it (its own parser and validation).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';

const config = unstable_readConfig({ config: join(import.meta.dirname, '..', '..', 'wrangler.toml') });

describe('wrangler.toml', () => {
  it('minifies the upload', () => {
    expect(config.minify).toBe(true);
  });

  // Webhook URLs carry the cluster's path secret: nothing may store request URLs.
  it('stores no request URLs: no Workers Logs (invocation logs, or custom logs carrying the request), no traces, no Logpush, no tail consumers', () => {
    expect(config.observability).toEqual({ enabled: false, logs: { enabled: false, invocation_logs: false }, traces: { enabled: false } });
    expect(config.logpush).toBe(false);
    expect(config.tail_consumers ?? []).toEqual([]);
  });

  it('binds the ADMISSIONS Analytics Engine dataset the Worker writes a data point per admission to', () => {
    expect(config.analytics_engine_datasets).toEqual([{ binding: 'ADMISSIONS', dataset: 'kruise_serverless_admissions' }]);
  });
});
