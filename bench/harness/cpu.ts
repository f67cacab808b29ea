// CPU time of server processes, read from Linux /proc: a cost per admission that a noisy,
// shared machine disturbs far less than wall-clock latency. Undefined where /proc is missing.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (ms) used so far by all threads of these processes (schedstat: ns on CPU). */
export function cpuMsOf(pids: number[]): number | undefined {
  let ns = 0;
  try {
    for (const pid of pids) {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      }
    }
  } catch {
    return undefined;
  }
  return ns / 1e6;
}

/** pid → command name of every live descendant of `root` (how we find Miniflare's workerd). */
export function descendants(root: number = process.pid): Map<number, string> {
  const children = new Map<number, { pid: number; comm: string }[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return new Map();
  }
  for (const e of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push({ pid: Number(e), comm: stat.slice(stat.indexOf('(') + 1, close) });
    children.set(ppid, list);
  }
  const found = new Map<number, string>();
  const queue = [root];
  for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
    for (const c of children.get(p) ?? []) {
      found.set(c.pid, c.comm);
      queue.push(c.pid);
    }
  }
  return found;
}

/**
 * CPU time (ms) so far of each named group of processes, plus `other`: the rest of this process's
 * descendants (e.g. Miniflare's workerd), and `bench`: this process itself.
 */
export function cpuByGroup(groups: Record<string, number[]>): Record<string, number> {
  const named = new Set(Object.values(groups).flat());
  // One /proc scan for this process's tree, one per named process for its own.
  const theirs = new Set([...named].flatMap((n) => [...descendants(n).keys()]));
  const rest = [...descendants().keys()].filter((pid) => !named.has(pid) && !theirs.has(pid));
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries({ ...groups, other: rest, bench: [process.pid] })) out[name] = cpuMsOf(pids.filter((p) => p > 0)) ?? 0;
  return out;
}

/** `after − before` per group, largest first: "kube-apiserver 2100, etcd 900, …" (ms). */
export function describeCpu(before: Record<string, number>, after: Record<string, number>): string {
  return Object.keys(after).map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)] as const).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
}
