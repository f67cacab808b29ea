// `kruise-serverless rollout status|history|pause|resume|restart|undo KIND/NAME`: the API calls and the terminal.
// What the numbers mean and which revision to go back to are decided in the pure rollout-*.ts.
import { existsSync } from 'node:fs';
import { formatLabelSelector, type LabelSelector } from '../kube/selectors.js';
import { isNotFound, KubeApiError } from '../kube/errors.js';
import { KubeHttp, type KubeObject } from '../kube/http.js';
import { loadKubeConnection } from '../kube/kubeconfig.js';
import type { Pod } from '../workload/pods.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { parseRolloutCommand, RolloutUsageError, type HistoryOutput, type RolloutCommand, type RolloutFlags, type RolloutTarget } from './rollout-args.js';
import { historyData, historyEntries, historyTable, restartPatch, revisionDetail, revisionDetailText } from './rollout-history.js';
import type { RolloutProgress } from './rollout-progress.js';
import { doneMessage, fitWidth, formatDuration, statusLine, waitingText } from './rollout-render.js';
import { chooseUndoRevision, ownedRevisions, undoPatch } from './rollout-undo.js';
import { followRollout, type FollowOutcome } from './rollout-watch.js';

export { RolloutUsageError };

export type RolloutIO = {
  out(text: string): void;
  err(text: string): void;
  /** Redraw the progress line in place (a terminal), or print each new line (a pipe, a log). */
  tty: boolean;
  columns?: number | undefined;
};

export type RolloutOptions = RolloutFlags & { namespace?: string | undefined; kubeconfig?: string | undefined; context?: string | undefined };

const UNDO_ATTEMPTS = 3;

const processIO = (): RolloutIO => ({
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  tty: Boolean(process.stdout.isTTY),
  columns: process.stdout.columns,
});

/** Exit code: 0 done, 1 failed (or not complete, or timed out); RolloutUsageError for bad arguments. */
export async function rollout(positionals: readonly string[], opts: RolloutOptions, io: RolloutIO = processIO()): Promise<number> {
  const cmd = parseRolloutCommand(positionals, opts);
  if (opts.kubeconfig && !existsSync(opts.kubeconfig)) throw new RolloutUsageError(`--kubeconfig ${opts.kubeconfig}: no such file`);
  const conn = await loadKubeConnection(opts.kubeconfig, process.env, undefined, opts.context);
  const namespace = opts.namespace ?? conn.namespace ?? 'default';
  const kube = KubeHttp.connect(conn);
  try {
    return await runRollout(kube, cmd, namespace, io);
  } finally {
    kube.close();
  }
}

export function runRollout(kube: KubeHttp, cmd: RolloutCommand, namespace: string, io: RolloutIO): Promise<number> {
  switch (cmd.action) {
    case 'status':
      return cmd.watch ? watchStatus(kube, cmd.target, namespace, cmd.timeoutMs, io) : statusOnce(kube, cmd.target, namespace, io);
    case 'pause':
    case 'resume':
      return setPaused(kube, cmd.target, namespace, cmd.action === 'pause', io);
    case 'undo':
      return undo(kube, cmd.target, namespace, cmd.toRevision, io);
    case 'history':
      return history(kube, cmd.target, namespace, cmd.revision, cmd.output, io);
    case 'restart':
      return restart(kube, cmd.target, namespace, io);
  }
}

const shortRef = ({ kind, name }: RolloutTarget) => `${kind.short}/${name}`;
const fullRef = ({ kind, name }: RolloutTarget) => `${kind.resource}/${name}`;

async function getTarget(kube: KubeHttp, target: RolloutTarget, namespace: string): Promise<KubeObject> {
  try {
    return await kube.get<KubeObject>(target.kind.apiVersion, target.kind.kind, target.name, namespace);
  } catch (e) {
    if (isNotFound(e)) throw new Error(`${target.kind.resource} "${target.name}" not found in namespace "${namespace}"`);
    throw e;
  }
}

async function statusOnce(kube: KubeHttp, target: RolloutTarget, namespace: string, io: RolloutIO): Promise<number> {
  const object = await getTarget(kube, target, namespace);
  const pods = (await kube.list<KubeObject>('v1', 'Pod', { namespace, labelSelector: target.kind.podLabel })).items as unknown as Pod[];
  const progress = target.kind.progress(object, pods, Date.now());
  io.out(`${progress.done ? doneMessage(shortRef(target), progress) : statusLine(shortRef(target), progress)}\n`);
  return progress.done ? 0 : 1;
}

async function watchStatus(kube: KubeHttp, target: RolloutTarget, namespace: string, timeoutMs: number, io: RolloutIO): Promise<number> {
  const ref = shortRef(target);
  const line = progressLine(io);
  let last: RolloutProgress | undefined;
  let outcome: FollowOutcome | undefined;
  try {
    outcome = await followRollout(kube, target, namespace, timeoutMs, ({ object, pods }) => {
      last = target.kind.progress(object, pods, Date.now());
      line.show(statusLine(ref, last));
      return last.done !== false;
    });
  } finally {
    line.finish();
  }
  if (outcome === 'timeout' || !last) {
    const waiting = last?.waiting.map(waitingText).join('; ');
    io.err(`timed out after ${formatDuration(timeoutMs)} waiting for ${ref} to roll out${waiting ? `; waiting on: ${waiting}` : ''}\n`);
    return 1;
  }
  io.out(`${doneMessage(ref, last)}\n`);
  return 0;
}

/** On a terminal one line redrawn in place; elsewhere a new line only when it changes. */
function progressLine(io: RolloutIO): { show(line: string): void; finish(): void } {
  let shown: string | undefined;
  return {
    show(text) {
      if (text === shown) return;
      shown = text;
      io.out(io.tty ? `\r${fitWidth(text, io.columns)}\x1b[K` : `${text}\n`);
    },
    finish() {
      if (io.tty && shown !== undefined) io.out('\n');
    },
  };
}

async function setPaused(kube: KubeHttp, target: RolloutTarget, namespace: string, paused: boolean, io: RolloutIO): Promise<number> {
  const object = await getTarget(kube, target, namespace);
  const word = paused ? 'paused' : 'resumed';
  if (target.kind.isPaused(object) === paused) {
    io.out(`${fullRef(target)} already ${word}\n`);
    return 0;
  }
  await kube.patch(object, target.kind.pausePatch(paused), 'merge');
  io.out(`${fullRef(target)} ${word}\n`);
  return 0;
}

async function ownedRevisionsOf(kube: KubeHttp, object: KubeObject, namespace: string): Promise<ControllerRevision[]> {
  const selector = formatLabelSelector((object.spec as { selector?: LabelSelector } | undefined)?.selector);
  const listed = await kube.list<KubeObject>('apps/v1', 'ControllerRevision', { namespace, ...(selector !== '<none>' ? { labelSelector: selector } : {}) });
  return ownedRevisions(listed.items as unknown as ControllerRevision[], object.metadata?.uid as string | undefined);
}

async function history(kube: KubeHttp, target: RolloutTarget, namespace: string, revision: number, output: HistoryOutput | undefined, io: RolloutIO): Promise<number> {
  const owned = await ownedRevisionsOf(kube, await getTarget(kube, target, namespace), namespace);
  if (revision === 0) {
    const entries = historyEntries(owned);
    io.out(output ? historyData(output, entries) : historyTable(fullRef(target), entries));
    return 0;
  }
  const detail = revisionDetail(owned, revision);
  if (detail.kind === 'error') throw new Error(`${fullRef(target)}: ${detail.message}`);
  io.out(output ? historyData(output, { revision: detail.revision, template: detail.template }) : revisionDetailText(fullRef(target), detail));
  return 0;
}

async function restart(kube: KubeHttp, target: RolloutTarget, namespace: string, io: RolloutIO): Promise<number> {
  const object = await getTarget(kube, target, namespace);
  await kube.patch(object, restartPatch(target.kind.restartAnnotation, new Date()), 'merge');
  io.out(`${fullRef(target)} restarted\n`);
  return 0;
}

async function undo(kube: KubeHttp, target: RolloutTarget, namespace: string, toRevision: number, io: RolloutIO): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const object = await getTarget(kube, target, namespace);
    const revisions = await ownedRevisionsOf(kube, object, namespace);
    const choice = chooseUndoRevision(revisions, target.kind.revisionData(object), toRevision);
    if (choice.kind === 'error') throw new Error(`${fullRef(target)}: ${choice.message}`);
    if (choice.kind === 'skip') {
      io.out(`${fullRef(target)} skipped rollback (current template already matches revision ${choice.revision})\n`);
      return 0;
    }
    const resourceVersion = object.metadata?.resourceVersion ?? '';
    try {
      await kube.patch(object, undoPatch(resourceVersion, choice.template), 'json');
      io.out(`${fullRef(target)} rolled back\n`);
      return 0;
    } catch (e) {
      // A failed `test` (422) means someone wrote in between: decide again on what is there now.
      const raced = e instanceof KubeApiError && (e.status === 422 || e.status === 409) && attempt < UNDO_ATTEMPTS;
      if (!raced || (await getTarget(kube, target, namespace)).metadata?.resourceVersion === resourceVersion) throw e;
    }
  }
}
