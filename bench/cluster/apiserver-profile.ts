// CPU profiles of the bench's kube-apiserver (Go pprof over its secure port, the admin token).
// Opt-in: KS_BENCH_APISERVER_PROFILE=<dir> starts kube-apiserver with `--profiling=true` and turns
// each idle window of `bench:workloads` (the 10 s before a spec change, nothing rolling) into a
// profile of that window, <dir>/<label>-idle.pb.gz, and profiles the first 50 s of the rollout
// after it, <dir>/<label>-rollout.pb.gz, their top frames logged (`go tool pprof -top`).
// Read one further with `go tool pprof -top -cum <file>` or `go tool pprof -peek <regex> <file>`.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import type { ControlPlane } from '../../test/cluster/control-plane.js';

export const APISERVER_PROFILE_DIR = process.env.KS_BENCH_APISERVER_PROFILE || undefined;
const TOP_ROWS = 25;

/** The API server's CPU profile over `seconds` (a gzipped pprof protobuf). */
export function fetchCpuProfile(cp: ControlPlane, seconds: number): Promise<Buffer> {
  return new Promise((res, rej) => {
    const url = `${cp.server}/debug/pprof/profile?seconds=${seconds}`;
    const req = request(url, { ca: readFileSync(cp.pki.caCert, 'utf8'), headers: { Authorization: `Bearer ${cp.token}` }, timeout: (seconds + 30) * 1000 }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        const body = Buffer.concat(chunks);
        if (r.statusCode === 200) res(body);
        else rej(new Error(`${url}: HTTP ${r.statusCode ?? 0} ${body.toString('utf8').slice(0, 200)} (was kube-apiserver started with --profiling=true?)`));
      });
    });
    req.on('error', rej);
    req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
    req.end();
  });
}

/** `go tool pprof -top` of a profile file, its first rows; a note instead when `go` is missing. */
export function pprofTop(file: string, rows = TOP_ROWS): Promise<string[]> {
  return new Promise((res) => {
    execFile('go', ['tool', 'pprof', '-top', `-nodecount=${rows}`, file], { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) return res([`(go tool pprof ${file}: ${String(stderr || err.message).trim().split('\n')[0]})`]);
      res(stdout.trimEnd().split('\n'));
    });
  });
}

/** The longest profile of a rollout: kube-apiserver ends a request after its 60 s `--request-timeout`. */
export const ROLLOUT_PROFILE_SECONDS = 50;

/** Saves a profile of the next `seconds`; `top`: log its top frames too (a `go` process: not while a rollout is measured). */
async function saveProfile(cp: ControlPlane, label: string, seconds: number, what: string, log: (m: string) => void, top: boolean): Promise<void> {
  mkdirSync(APISERVER_PROFILE_DIR!, { recursive: true });
  const file = join(APISERVER_PROFILE_DIR!, `${label.replace(/[^A-Za-z0-9_.-]+/g, '-')}.pb.gz`);
  writeFileSync(file, await fetchCpuProfile(cp, seconds));
  log(`kube-apiserver CPU profile, ${what}: ${file}${top ? `\n${(await pprofTop(file)).map((l) => `    ${l}`).join('\n')}` : ''}`);
}

/**
 * With KS_BENCH_APISERVER_PROFILE set, profiles kube-apiserver over the first `seconds` of what
 * runs meanwhile (a rollout), as <dir>/<label>.pb.gz: await the result after it. Without: nothing.
 */
export function profileMeanwhile(cp: ControlPlane, label: string, seconds: number, log: (m: string) => void): Promise<void> {
  if (!APISERVER_PROFILE_DIR) return Promise.resolve();
  return saveProfile(cp, label, seconds, `first ${seconds} s of ${label}`, log, false).catch((e: unknown) => log(`profiling ${label}: ${String(e)}`));
}

/**
 * Waits `ms` with nothing rolling; with KS_BENCH_APISERVER_PROFILE set, profiles kube-apiserver over
 * that wait instead (the profile is the wait), saved as <dir>/<label>-idle.pb.gz and its top rows logged.
 */
export async function idleWindow(cp: ControlPlane, label: string, ms: number, log: (m: string) => void): Promise<void> {
  if (!APISERVER_PROFILE_DIR) return void (await new Promise((r) => setTimeout(r, ms)));
  const seconds = Math.max(1, Math.round(ms / 1000));
  await saveProfile(cp, `${label}-idle`, seconds, `${seconds} s idle before ${label}`, log, true);
}
