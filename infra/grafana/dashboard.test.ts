// The Grafana dashboard queries only metrics the code registers, and shows every one of them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRICS, exposedNames } from '../../src/telemetry/catalog.js';

type Panel = { id: number; title: string; targets: { expr: string }[] };
const dashboard = JSON.parse(readFileSync(join(import.meta.dirname, 'kruise-serverless.json'), 'utf8')) as { uid: string; panels: Panel[] };
const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
/** Metric names in a PromQL expression: our ks_ prefix (functions, labels and keywords never carry it). */
const queried = new Set(exprs.flatMap((e) => e.match(/\bks_[a-z0-9_]+/g) ?? []));

describe('the Grafana dashboard', () => {
  it('queries only metrics the code registers (a histogram through its _bucket, _sum or _count)', () => {
    const known = exposedNames();
    expect([...queried].filter((n) => !known.has(n))).toEqual([]);
  });

  it('shows every registered metric', () => {
    const shown = new Set([...queried].map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    expect(Object.values(METRICS).map((m) => m.name).filter((n) => !shown.has(n))).toEqual([]);
  });

  it('filters and groups only by labels the metric has', () => {
    const labelsOf = new Map(Object.values(METRICS).flatMap((m) => [m.name, `${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`].map((n) => [n, new Set<string>([...m.labels, ...(n.endsWith('_bucket') ? ['le'] : []), 'instance', 'job'])])));
    for (const e of exprs) {
      const names = e.match(/\bks_[a-z0-9_]+/g) ?? [];
      const used = [...e.matchAll(/by \(([^)]*)\)/g), ...e.matchAll(/\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim().split(/[=!~]/)[0]!)).filter(Boolean);
      for (const label of used) expect(names.some((n) => labelsOf.get(n)?.has(label)), `${label} in ${e}`).toBe(true);
    }
  });

  it('has unique panel ids and one uid', () => {
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    expect(dashboard.uid).toBe('kruise-serverless');
  });
});
