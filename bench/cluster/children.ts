// The benchmark's child processes, bundled with esbuild and run under plain node (as the reconcile
// Lambda and a deployed `kruise-serverless reconcile` run): the watch-driven Node loop, and one
// full resync whose peak RSS is its own.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { REPO_ROOT } from '../../test/cluster/control-plane.js';
import type { LoopSnapshot } from './loop-child.js';
import type { ResyncFigures } from './resync-child.js';

export type { LoopSnapshot, ResyncFigures };

const run = promisify(execFile);

export type Bundles = { loop: string; resync: string; dispose(): void };

export async function bundleChildren(): Promise<Bundles> {
  const dir = mkdtempSync(join(tmpdir(), 'ks-bench-cloneset-'));
  // Split as scripts/build.ts splits the deployed bundles: client-node's chunk loads only for the kubeconfigs that need it.
  await build({
    entryPoints: ['loop-child', 'resync-child'].map((n) => join(REPO_ROOT, 'bench', 'cluster', `${n}.ts`)), outdir: dir, outExtension: { '.js': '.mjs' },
    bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    banner: { js: "import { createRequire as __ksCreateRequire } from 'node:module'; const require = __ksCreateRequire(import.meta.url);" },
  });
  const [loop, resync] = [join(dir, 'loop-child.mjs'), join(dir, 'resync-child.mjs')];
  return { loop, resync, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The Node loop in its own process: `snapshot()` asks for its counts so far; `stop()` ends it and returns the last. */
export type LoopChild = { pid: number; snapshot(): Promise<LoopSnapshot>; stop(): Promise<LoopSnapshot> };

/** `kinds`: the reconcilers the loop runs (default: the CloneSet's alone). */
export async function startLoop(bundle: string, kubeconfig: string, log: (m: string) => void, kinds: readonly string[] = ['CloneSet']): Promise<LoopChild> {
  // execArgv: [] — plain node, not this process's tsx loader. KS_BENCH_LOOP_PROFILE_DIR: a V8 CPU
  // profile of the loop, written when it stops (read it with bench/harness/profile-top.ts).
  const profileDir = process.env.KS_BENCH_LOOP_PROFILE_DIR;
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child: ChildProcess = fork(bundle, [kubeconfig, kinds.join(',')], { cwd: REPO_ROOT, execArgv, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  child.stderr?.on('data', (c: Buffer) => c.toString().split('\n').filter(Boolean).forEach((l) => log(l)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let last: LoopSnapshot | undefined;
  let waiting: ((s: LoopSnapshot) => void)[] = [];
  child.on('message', (m: { type?: string }) => {
    if (m.type !== 'snapshot') return;
    last = m as LoopSnapshot;
    const w = waiting;
    waiting = [];
    w.forEach((f) => f(last!));
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the Node loop did not finish its first resync within 120 s')), 120_000);
    child.on('message', (m: { type?: string }) => m.type === 'ready' && (clearTimeout(timer), resolve()));
    void exited.then(() => (clearTimeout(timer), reject(new Error('the Node loop exited before its first resync'))));
  });
  const ask = () => new Promise<LoopSnapshot>((resolve) => {
    waiting.push(resolve);
    child.send('snapshot');
  });
  return {
    pid: child.pid ?? 0,
    snapshot: ask,
    async stop() {
      if (child.exitCode === null) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
      if (!last) throw new Error('the Node loop exited without reporting its counts');
      return last;
    },
  };
}

/** One run of the resync child (under node with `nodeFlags`); its last output line is the figures. */
export async function runResync(bundle: string, kubeconfig: string, mode: ResyncFigures['mode'], nodeFlags: readonly string[] = []): Promise<ResyncFigures> {
  const { stdout } = await run(process.execPath, [...nodeFlags, bundle, kubeconfig, mode], { cwd: REPO_ROOT, maxBuffer: 16 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ResyncFigures;
}
