// Which SidecarSets go into a new pod, at which revision, and why the others do not (../shared/SEMANTICS.md
// §2.4.2–2.4.3). Shared by the pod webhook and the explain endpoint. Pure: the plan and the random
// source come in as arguments.
import type { V1Pod } from '@kubernetes/client-node';
import { candidatesFor, matchSidecarSets, podNamespace, type MatchResult } from './match.js';
import type { InjectionPlan } from './plan.js';
import { chooseRevision } from './revision.js';
import type { SidecarSet } from './types.js';

/** One SidecarSet's verdict, with the revision chosen when it matched. */
export type SetDecision = MatchResult & { revision?: string; revisionReason?: string };

export type InjectionDecision =
  | { kind: 'inject'; namespace: string; results: SetDecision[]; sets: SidecarSet[] }
  /** OpenKruise fails the pod's creation (invalid selector, missing or broken revision). */
  | { kind: 'error'; namespace: string; results: SetDecision[]; message: string };

export type DecideOptions = {
  /** Uniform in [0, 1), for policy Partial with a percentage partition. */
  random: () => number;
  /** Every set, not just the pod namespace's candidates (explain: a reason for each set). */
  everySet?: boolean;
};

export function decideInjection(pod: V1Pod, requestNamespace: string, plan: InjectionPlan, opts: DecideOptions): InjectionDecision {
  const namespace = podNamespace(pod, requestNamespace);
  const candidates = opts.everySet ? plan.sets : candidatesFor(plan.index, namespace, pod.metadata?.labels ?? {});
  const matches = matchSidecarSets(pod, namespace, candidates, plan.namespaceLabels.get(namespace));
  const results: SetDecision[] = [];
  const sets: SidecarSet[] = [];
  let error: string | undefined;
  matches.forEach((m, i) => {
    const candidate = candidates[i]!;
    const set = 'set' in candidate && 'selector' in candidate ? candidate.set : candidate;
    if (m.error) error ??= m.error;
    if (!m.matched) return void results.push(m);
    const choice = chooseRevision(set, pod, { revisions: plan.revisions, random: opts.random, memo: plan.revisionMemo });
    if ('error' in choice) {
      error ??= choice.error;
      return void results.push({ ...m, revisionReason: choice.error });
    }
    sets.push(choice.revisionSet);
    results.push({ ...m, revisionReason: choice.reason, ...(choice.revision ? { revision: choice.revision } : {}) });
  });
  return error ? { kind: 'error', namespace, results, message: error } : { kind: 'inject', namespace, results, sets };
}
