import { describe, expect, it } from 'vitest';
import { parseDuration, parseRolloutCommand, RolloutUsageError, type RolloutFlags } from './rollout-args.js';

const parse = (args: string, flags: RolloutFlags = {}) => {
  const cmd = parseRolloutCommand(args.split(' ').filter(Boolean), flags);
  return { ...cmd, target: `${cmd.target.kind.kind}/${cmd.target.name}` };
};
const usage = (args: string, flags: RolloutFlags = {}) => {
  try {
    parseRolloutCommand(args.split(' ').filter(Boolean), flags);
  } catch (e) {
    if (e instanceof RolloutUsageError) return e.message;
    throw e;
  }
  return 'accepted';
};

describe('parseRolloutCommand', () => {
  it.each([
    ['status cloneset/web', {}, { action: 'status', target: 'CloneSet/web', timeoutMs: 0, watch: true }],
    ['status clonesets web', { timeout: '5m', noWatch: true }, { action: 'status', target: 'CloneSet/web', timeoutMs: 300_000, watch: false }],
    ['pause CloneSet.apps.kruise.io/web', {}, { action: 'pause', target: 'CloneSet/web' }],
    ['resume clone/web', {}, { action: 'resume', target: 'CloneSet/web' }],
    ['undo cloneset/web', {}, { action: 'undo', target: 'CloneSet/web', toRevision: 0 }],
    ['undo cloneset/web', { toRevision: '3' }, { action: 'undo', target: 'CloneSet/web', toRevision: 3 }],
    ['history cloneset/web', {}, { action: 'history', target: 'CloneSet/web', revision: 0 }],
    ['history asts/db', { revision: '2', output: 'yaml' }, { action: 'history', target: 'StatefulSet/db', revision: 2, output: 'yaml' }],
    ['restart statefulset.apps.kruise.io/db', {}, { action: 'restart', target: 'StatefulSet/db' }],
    ['pause ads/agent', {}, { action: 'pause', target: 'DaemonSet/agent' }],
    ['status daemonset agent', {}, { action: 'status', target: 'DaemonSet/agent', timeoutMs: 0, watch: true }],
  ])('%s %j', (args, flags, want) => expect(parse(args, flags)).toEqual(want));

  it.each([
    ['', {}, 'rollout: missing action (status, history, pause, resume, restart, undo)'],
    ['scale cloneset/web', {}, 'rollout: unknown action "scale" (status, history, pause, resume, restart, undo)'],
    ['status', {}, 'rollout: missing KIND/NAME, e.g. cloneset/web (kinds: cloneset, statefulset, daemonset)'],
    ['status deployment/web', {}, 'rollout: kind "deployment" is not supported (supported: cloneset, statefulset, daemonset)'],
    ['status cloneset/web', { output: 'json' }, 'rollout status: -o/--output is a rollout history option'],
    ['history cloneset/web', { output: 'wide' }, 'rollout history: -o "wide": expected json or yaml'],
    ['history cloneset/web', { revision: 'x' }, '--revision "x": expected a revision number (0: every revision)'],
    ['undo cloneset/web', { revision: '1' }, 'rollout undo: --revision is a rollout history option'],
    ['status cloneset', {}, "rollout: missing the cloneset's name, e.g. cloneset/web"],
    ['status cloneset/web cloneset/api', {}, 'rollout: unexpected argument "cloneset/api" (one object at a time)'],
    ['pause cloneset/web', { timeout: '1m' }, 'rollout pause: --timeout is a rollout status option'],
    ['status cloneset/web', { toRevision: '2' }, 'rollout status: --to-revision is a rollout undo option'],
    ['undo cloneset/web', { toRevision: '-1' }, '--to-revision "-1": expected a revision number (0: the previous one)'],
  ])('refuses %j %j', (args, flags, want) => expect(usage(args, flags)).toBe(want));
});

describe('parseDuration', () => {
  it.each([['0', 0], ['30s', 30_000], ['5m', 300_000], ['1h30m', 5_400_000], ['1.5s', 1500], ['250ms', 250]])('%s', (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(['5', '', 'm', '5 m', '1d', '5m junk'])('refuses %j', (text) => expect(() => parseDuration(text)).toThrow(RolloutUsageError));
});
