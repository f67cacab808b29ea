// The kinds `rollout` works on, one row each: how to name, read, pause and compare them. Advanced
// StatefulSet and Advanced DaemonSet become rows here.
import type { CloneSet } from '../api/apps/cloneset.js';
import { cloneSetRevisionData } from '../cloneset/revisions.js';
import { CLONESET_API_VERSION, CLONESET_KIND, INSTANCE_ID_LABEL } from '../cloneset/types.js';
import type { KubeObject } from '../kube/http.js';
import type { Pod } from '../workload/pods.js';
import { cloneSetProgress, type RolloutProgress } from './rollout-progress.js';

export type RolloutKind = {
  /** What the user may type before the `/` (lower case). */
  names: readonly string[];
  /** `cloneset.apps.kruise.io`: how messages name it, as kubectl does. */
  resource: string;
  /** `cloneset`: the short form progress lines use. */
  short: string;
  apiVersion: string;
  kind: string;
  /** A label every pod the workload creates carries: the pods watch selects by it. */
  podLabel: string;
  progress(obj: KubeObject, pods: readonly Pod[], now: number): RolloutProgress;
  isPaused(obj: KubeObject): boolean;
  /** The merge patch that sets the paused flag. */
  pausePatch(paused: boolean): Record<string, unknown>;
  /** The current pod template as its ControllerRevision `data` bytes. */
  revisionData(obj: KubeObject): string;
};

const asCloneSet = (obj: KubeObject): CloneSet => obj as unknown as CloneSet;

export const ROLLOUT_KINDS: readonly RolloutKind[] = [
  {
    names: ['cloneset', 'clonesets', 'clone', 'cloneset.apps.kruise.io', 'clonesets.apps.kruise.io'],
    resource: 'cloneset.apps.kruise.io',
    short: 'cloneset',
    apiVersion: CLONESET_API_VERSION,
    kind: CLONESET_KIND,
    podLabel: INSTANCE_ID_LABEL,
    progress: (obj, pods, now) => cloneSetProgress(asCloneSet(obj), pods, now),
    isPaused: (obj) => asCloneSet(obj).spec?.updateStrategy?.paused === true,
    pausePatch: (paused) => ({ spec: { updateStrategy: { paused } } }),
    revisionData: (obj) => cloneSetRevisionData(asCloneSet(obj)),
  },
];

export const rolloutKindNames = (): string => ROLLOUT_KINDS.map((k) => k.short).join(', ');

export function findRolloutKind(name: string): RolloutKind | undefined {
  const lower = name.toLowerCase();
  return ROLLOUT_KINDS.find((k) => k.names.includes(lower));
}
