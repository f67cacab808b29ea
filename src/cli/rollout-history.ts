// `rollout history`: the revisions a workload controls, as kubectl-kruise lists them (REVISION and
// the kubernetes.io/change-cause annotation, one row per revision number) or one revision's pod
// template; and the data `-o json|yaml` prints. Pure.
import { stringify } from 'yaml';
import type { ControllerRevision } from '../workload/revisions.js';
import { revisionTemplate } from './rollout-undo.js';

export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

export type HistoryEntry = { revision: number; name: string; changeCause: string | null; created: string | null };

/** One entry per revision number (the newest object wins, as kubectl's map does), oldest first. */
export function historyEntries(owned: readonly ControllerRevision[]): HistoryEntry[] {
  const byRevision = new Map<number, ControllerRevision>();
  for (const r of owned) byRevision.set(r.revision, r);
  return [...byRevision.values()]
    .sort((a, b) => a.revision - b.revision)
    .map((r) => ({
      revision: r.revision,
      name: r.metadata.name,
      changeCause: r.metadata.annotations?.[CHANGE_CAUSE_ANNOTATION] ?? null,
      created: (r.metadata as { creationTimestamp?: string }).creationTimestamp ?? null,
    }));
}

/** kubectl's table: columns padded to the widest cell plus two spaces. */
export function historyTable(ref: string, entries: readonly HistoryEntry[]): string {
  if (!entries.length) return 'No rollout history found.\n';
  const rows = [['REVISION', 'CHANGE-CAUSE'], ...entries.map((e) => [String(e.revision), e.changeCause || '<none>'])];
  const width = Math.max(...rows.map((r) => r[0]!.length)) + 2;
  return `${ref}\n${rows.map(([rev, cause]) => `${rev!.padEnd(width)}${cause}`).join('\n')}\n`;
}

export type RevisionDetail = { kind: 'found'; revision: number; template: Record<string, unknown> } | { kind: 'error'; message: string };

/** Revision N's pod template, or kubectl's message when there is no such revision. */
export function revisionDetail(owned: readonly ControllerRevision[], revision: number): RevisionDetail {
  const rev = [...owned].reverse().find((r) => r.revision === revision);
  if (!rev) return { kind: 'error', message: 'unable to find the specified revision' };
  const template = revisionTemplate(rev);
  if (!template) return { kind: 'error', message: `unable to parse history ${rev.metadata.name}` };
  return { kind: 'found', revision, template };
}

export function revisionDetailText(ref: string, detail: { revision: number; template: Record<string, unknown> }): string {
  const body = stringify(detail.template, { lineWidth: 0 }).replace(/^(?=.)/gm, '  ');
  return `${ref} with revision #${detail.revision}\nPod Template:\n${body}`;
}

/** `-o json` / `-o yaml`: the entries, or the one revision with its template. */
export function historyData(output: 'json' | 'yaml', data: unknown): string {
  return output === 'json' ? `${JSON.stringify(data, null, 2)}\n` : stringify(data, { lineWidth: 0 });
}

/** The merge patch `rollout restart` sends: the annotation set to now, in RFC 3339 seconds as Go prints it. */
export function restartPatch(annotation: string, now: Date): Record<string, unknown> {
  return { spec: { template: { metadata: { annotations: { [annotation]: now.toISOString().replace(/\.\d{3}Z$/, 'Z') } } } } };
}
