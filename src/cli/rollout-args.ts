// `kruise-serverless rollout ACTION KIND/NAME [flags]` → a command, or a usage error. Pure.
import { findRolloutKind, rolloutKindNames, type RolloutKind } from './rollout-kinds.js';

/** Wrong arguments: main prints the message with a hint and exits 2. */
export class RolloutUsageError extends Error {
  override name = 'RolloutUsageError';
}

export type RolloutTarget = { kind: RolloutKind; name: string };

export type RolloutCommand =
  /** timeoutMs 0: wait as long as it takes. */
  | { action: 'status'; target: RolloutTarget; timeoutMs: number; watch: boolean }
  | { action: 'pause' | 'resume' | 'restart'; target: RolloutTarget }
  /** revision 0: every revision; N: revision N's pod template. output: data instead of the table. */
  | { action: 'history'; target: RolloutTarget; revision: number; output?: HistoryOutput }
  /** toRevision 0: the previous revision. */
  | { action: 'undo'; target: RolloutTarget; toRevision: number };

export type RolloutFlags = {
  timeout?: string | undefined;
  noWatch?: boolean | undefined;
  toRevision?: string | undefined;
  revision?: string | undefined;
  output?: string | undefined;
};

export type HistoryOutput = 'json' | 'yaml';

const ACTIONS = ['status', 'history', 'pause', 'resume', 'restart', 'undo'] as const;
type Action = (typeof ACTIONS)[number];

/** `positionals`: what follows `rollout` (ACTION and KIND/NAME, or ACTION KIND NAME). */
export function parseRolloutCommand(positionals: readonly string[], flags: RolloutFlags): RolloutCommand {
  const [action, ...rest] = positionals;
  if (!action) throw new RolloutUsageError(`rollout: missing action (${ACTIONS.join(', ')})`);
  if (!(ACTIONS as readonly string[]).includes(action)) throw new RolloutUsageError(`rollout: unknown action "${action}" (${ACTIONS.join(', ')})`);
  const target = parseTarget(rest);
  const only = (flag: string, given: unknown, allowed: Action) => {
    if (given !== undefined && action !== allowed) throw new RolloutUsageError(`rollout ${action}: ${flag} is a rollout ${allowed} option`);
  };
  only('--timeout', flags.timeout, 'status');
  only('--no-watch', flags.noWatch, 'status');
  only('--to-revision', flags.toRevision, 'undo');
  only('--revision', flags.revision, 'history');
  only('-o/--output', flags.output, 'history');
  switch (action as Action) {
    case 'history': {
      if (flags.output !== undefined && flags.output !== 'json' && flags.output !== 'yaml') throw new RolloutUsageError(`rollout history: -o "${flags.output}": expected json or yaml`);
      const revision = flags.revision === undefined ? 0 : parseRevision(flags.revision, '--revision');
      return { action: 'history', target, revision, ...(flags.output ? { output: flags.output } : {}) };
    }
    case 'status':
      return { action: 'status', target, timeoutMs: flags.timeout === undefined ? 0 : parseDuration(flags.timeout), watch: !flags.noWatch };
    case 'undo':
      return { action: 'undo', target, toRevision: flags.toRevision === undefined ? 0 : parseRevision(flags.toRevision, '--to-revision') };
    default:
      return { action: action as 'pause' | 'resume' | 'restart', target };
  }
}

function parseTarget(args: readonly string[]): RolloutTarget {
  const [first, second, ...extra] = args;
  if (!first) throw new RolloutUsageError(`rollout: missing KIND/NAME, e.g. cloneset/web (kinds: ${rolloutKindNames()})`);
  const slash = first.indexOf('/');
  const [kindName, name] = slash >= 0 ? [first.slice(0, slash), first.slice(slash + 1)] : [first, second];
  const surplus = slash >= 0 ? [second, ...extra] : extra;
  if (surplus[0] !== undefined) throw new RolloutUsageError(`rollout: unexpected argument "${surplus[0]}" (one object at a time)`);
  const kind = findRolloutKind(kindName);
  if (!kind) throw new RolloutUsageError(`rollout: kind "${kindName}" is not supported (supported: ${rolloutKindNames()})`);
  if (!name) throw new RolloutUsageError(`rollout: missing the ${kind.short}'s name, e.g. ${kind.short}/web`);
  return { kind, name };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration as kubectl takes it (`90s`, `5m`, `1h30m`, `0` for no limit), in ms. */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((m) => m[0]).join('') !== text) {
    throw new RolloutUsageError(`--timeout "${text}": expected a duration such as 30s, 5m or 1h30m (0: no limit)`);
  }
  return Math.round(parts.reduce((ms, m) => ms + Number(m[1]) * UNIT_MS[m[2]!]!, 0));
}

function parseRevision(text: string, flag: string): number {
  const zero = flag === '--to-revision' ? 'the previous one' : 'every revision';
  if (!/^\d+$/.test(text)) throw new RolloutUsageError(`${flag} "${text}": expected a revision number (0: ${zero})`);
  return Number(text);
}
