// The soak's chaos cases, each an action with an end: the API server paused (SIGSTOP, then
// SIGCONT) or restarted, the edge restarted with its state lost, the edge unreachable.
import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { System } from '../system.js';

export const CHAOS_CASES = ['apiserver-paused', 'apiserver-restarted', 'edge-restarted', 'edge-unreachable'] as const;
export type ChaosCase = (typeof CHAOS_CASES)[number];

type ControlPlaneState = { dir: string; pids: Record<string, number> };

/** The control plane's state.json beside the kubeconfig (our local control planes), if any. */
function controlPlaneState(kubeconfig: string): { file: string; state: ControlPlaneState } | undefined {
  const file = join(dirname(kubeconfig), 'state.json');
  return existsSync(file) ? { file, state: JSON.parse(readFileSync(file, 'utf8')) as ControlPlaneState } : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why a case cannot run here, if it cannot. */
export function unavailable(c: ChaosCase, system: System): string | undefined {
  if (c.startsWith('apiserver') && !controlPlaneState(system.kubeconfig)?.state.pids.apiserver) return 'not a control plane this project started (no state.json beside the kubeconfig)';
  return undefined;
}

async function restartApiServer(kubeconfig: string): Promise<void> {
  const cp = controlPlaneState(kubeconfig)!;
  const pid = cp.state.pids.apiserver!;
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await sleep(100);
  const out = openSync(join(cp.state.dir, 'kube-apiserver.log'), 'a');
  const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  cp.state.pids.apiserver = child.pid!;
  writeFileSync(cp.file, JSON.stringify(cp.state, null, 2));
}

/** Runs the case; resolves when it has ended (the system is back). */
export async function runChaos(c: ChaosCase, system: System, log: (m: string) => void): Promise<void> {
  switch (c) {
    case 'apiserver-paused': {
      const pid = controlPlaneState(system.kubeconfig)!.state.pids.apiserver!;
      process.kill(pid, 'SIGSTOP');
      log('chaos: API server paused (SIGSTOP) for 20 s');
      try {
        await sleep(20_000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      return;
    }
    case 'apiserver-restarted':
      log('chaos: API server restarted');
      return restartApiServer(system.kubeconfig);
    case 'edge-restarted':
      log('chaos: edge restarted, its state lost');
      return system.restartEdge();
    case 'edge-unreachable':
      log('chaos: edge unreachable for 60 s');
      system.edgeReachable(false);
      await sleep(60_000);
      system.edgeReachable(true);
      return;
  }
}
