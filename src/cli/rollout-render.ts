// The words `rollout status` prints: one progress line, and the closing message. Pure.
import type { RolloutProgress, Waiting } from './rollout-progress.js';

const BAR_WIDTH = 20;
const NAMED_PODS = 3;

/** `[#####...............]`: updated and available pods of the pods this rollout moves. */
export function progressBar(done: number, of: number, width = BAR_WIDTH): string {
  const filled = of <= 0 ? width : Math.min(width, Math.floor((Math.max(done, 0) / of) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** A few names, then how many more. */
function someOf(names: readonly string[], n = NAMED_PODS): string {
  const shown = names.slice(0, n).join(', ');
  return names.length > n ? `${shown} (+${names.length - n} more)` : shown;
}

export function waitingText(w: Waiting): string {
  switch (w.on) {
    case 'observed':
      return `the controller to observe generation ${w.generation} (status is at ${w.observedGeneration})`;
    case 'paused':
      return `updates paused (${w.field ?? 'spec.updateStrategy.paused'})`;
    case 'partition':
      return `paused at partition ${w.partition}`;
    case 'hook': {
      const [first] = w.pods;
      const more = w.pods.length > 1 ? ` (+${w.pods.length - 1} more pods)` : '';
      if (!first) return 'lifecycle hooks';
      const verb = first.waitsFor === 'removal' ? 'held while' : 'until';
      const has = first.waitsFor === 'removal' ? 'is on it' : 'is added';
      return `lifecycle hook spec.lifecycle.${first.hook}: ${first.name} ${first.state} ${verb} ${first.handlers.join(' and ')} ${has}${more}`;
    }
    case 'budget':
      return `maxUnavailable ${w.maxUnavailable} reached (${w.unavailable} unavailable), no more pods may be taken down`;
    case 'not-ready':
      return `pods not ready: ${someOf(w.pods)}`;
    case 'pod-count':
      return `${w.have} pods of ${w.want}`;
    case 'controller':
      return 'the controller to update pods';
  }
}

/** `cloneset/web [########............] 2/3/3 updated/ready/total, waiting on: …` */
export function statusLine(ref: string, p: RolloutProgress): string {
  const counts = `${progressBar(p.updatedAvailable, p.target)} ${p.updated}/${p.ready}/${p.total} updated/ready/total`;
  const waiting = p.waiting.map(waitingText).join('; ');
  return `${ref} ${counts}${waiting ? `, waiting on: ${waiting}` : ''}`;
}

/** The closing line once `done`. */
export function doneMessage(ref: string, p: RolloutProgress): string {
  const at = p.revision ? ` at revision ${p.revision}` : '';
  if (p.done === 'partitioned') {
    return `${ref} partitioned roll out complete: ${p.updated} of ${p.total} pods updated${at} (partition ${p.total - p.target})`;
  }
  return `${ref} successfully rolled out: ${p.total} pods updated and available${at}`;
}

/** `5m`, `1h30m`, `1.5s`: a --timeout as the user would have typed it. */
export function formatDuration(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}

/** Cuts a line to the terminal's width, so redrawing it in place never wraps. */
export function fitWidth(line: string, columns: number | undefined): string {
  if (!columns || line.length < columns) return line;
  return `${line.slice(0, Math.max(columns - 2, 0))}…`;
}
