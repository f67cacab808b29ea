// Real/echo ratios and table cells for every scenario; the runtime scenario's table: one row per
// platform × path, then real/echo ratios per platform.
import type { Figures } from './load.js';

export type Ratios = { p50: number; p99: number; throughput: number; serverCpu: number | null };
export type PlatformResult = { platform: string; echo: Figures; real: Figures; ratio: Ratios };

export function ratios(echo: Figures, real: Figures): Ratios {
  return {
    p50: real.p50Ms / echo.p50Ms,
    p99: real.p99Ms / echo.p99Ms,
    throughput: real.perSecond / echo.perSecond,
    serverCpu: real.serverCpuUs === null || echo.serverCpuUs === null ? null : real.serverCpuUs / echo.serverCpuUs,
  };
}

const COLUMNS: [string, number][] = [
  ['platform', 18], ['path', 10], ['reqs', 6], ['fail', 5], ['adm/s', 8], ['p50 ms', 8], ['p99 ms', 8], ['srv µs/adm', 11], ['cli µs/adm', 11],
];

/** A table line: the first `left` cells padded on the right, the others (figures) on the left. */
export const tableRow = (cells: string[], widths: number[], left = 2) => cells.map((c, i) => (i < left ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ').trimEnd();

export const fixed = (n: number | null, digits: number) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(digits));
export const times = (n: number | null) => (n === null || !Number.isFinite(n) ? '-' : `${n.toFixed(2)}×`);

const WIDTHS = COLUMNS.map(([, w]) => w);
const row = (cells: string[]) => tableRow(cells, WIDTHS);

export function resultTable(results: PlatformResult[]): string[] {
  const lines = [row(COLUMNS.map(([name]) => name))];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['real', r.real]] as const) {
      lines.push(row([r.platform, path, String(f.requests), String(f.failed), fixed(f.perSecond, 0), fixed(f.p50Ms, 2), fixed(f.p99Ms, 2), fixed(f.serverCpuUs, 0), fixed(f.clientCpuUs, 0)]));
    }
    lines.push(row(['', 'real/echo', '', '', times(r.ratio.throughput), times(r.ratio.p50), times(r.ratio.p99), times(r.ratio.serverCpu), '']));
  }
  return lines;
}
