// The kinds `rollout` works on, one row each: how to name, read, pause, restart and compare them.
import type { CloneSet } from '../api/apps/cloneset.js';
import { cloneSetRevisionData } from '../cloneset/revisions.js';
import { CLONESET_API_VERSION, CLONESET_KIND, INSTANCE_ID_LABEL } from '../cloneset/types.js';
import { daemonSetRevisionData } from '../daemonset/revisions.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, REVISION_HASH_LABEL as DAEMONSET_REVISION_LABEL, type StoredDaemonSet as DaemonSet } from '../daemonset/types.js';
import type { KubeObject } from '../kube/http.js';
import { statefulSetRevisionData } from '../statefulset/revisions.js';
import { POD_NAME_LABEL, STATEFULSET_API_VERSION, STATEFULSET_KIND, type StoredStatefulSet } from '../statefulset/types.js';
import type { Pod } from '../workload/pods.js';
import { cloneSetProgress, type RolloutProgress } from './rollout-progress.js';
import { daemonSetProgress, statefulSetProgress } from './rollout-progress-sets.js';

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
  /** The pod template annotation `rollout restart` sets to the time, as kubectl-kruise does for this kind. */
  restartAnnotation: string;
};

/** kubectl's, which kubectl-kruise also sets on the workloads it restarts other than CloneSet. */
const KUBECTL_RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

const asCloneSet = (obj: KubeObject): CloneSet => obj as unknown as CloneSet;
const asStatefulSet = (obj: KubeObject): StoredStatefulSet => obj as unknown as StoredStatefulSet;
const asDaemonSet = (obj: KubeObject): DaemonSet => obj as unknown as DaemonSet;
type RollingUpdateHolder = { spec?: { updateStrategy?: { rollingUpdate?: { paused?: boolean } } } };
const rollingUpdatePaused = (obj: KubeObject) => (obj as RollingUpdateHolder).spec?.updateStrategy?.rollingUpdate?.paused === true;
const rollingUpdatePausePatch = (paused: boolean) => ({ spec: { updateStrategy: { rollingUpdate: { paused } } } });

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
    // kubectl-kruise's objectrestarter sets its own key on a CloneSet.
    restartAnnotation: 'kubectl.kruise.io/restartedAt',
  },
  {
    names: ['asts', 'statefulset', 'statefulsets', 'sts', 'statefulset.apps.kruise.io', 'statefulsets.apps.kruise.io', 'advancedstatefulset'],
    resource: 'statefulset.apps.kruise.io',
    short: 'statefulset',
    apiVersion: STATEFULSET_API_VERSION,
    kind: STATEFULSET_KIND,
    podLabel: POD_NAME_LABEL,
    progress: (obj, pods) => statefulSetProgress(asStatefulSet(obj), pods),
    isPaused: rollingUpdatePaused,
    pausePatch: rollingUpdatePausePatch,
    revisionData: (obj) => statefulSetRevisionData(asStatefulSet(obj)),
    restartAnnotation: KUBECTL_RESTARTED_AT,
  },
  {
    names: ['ads', 'daemonset', 'daemonsets', 'ds', 'daemonset.apps.kruise.io', 'daemonsets.apps.kruise.io', 'advanceddaemonset'],
    resource: 'daemonset.apps.kruise.io',
    short: 'daemonset',
    apiVersion: DAEMONSET_API_VERSION,
    kind: DAEMONSET_KIND,
    podLabel: DAEMONSET_REVISION_LABEL,
    progress: (obj, pods) => daemonSetProgress(asDaemonSet(obj), pods),
    isPaused: rollingUpdatePaused,
    pausePatch: rollingUpdatePausePatch,
    revisionData: (obj) => daemonSetRevisionData(asDaemonSet(obj)),
    restartAnnotation: KUBECTL_RESTARTED_AT,
  },
];

export const rolloutKindNames = (): string => ROLLOUT_KINDS.map((k) => k.short).join(', ');

export function findRolloutKind(name: string): RolloutKind | undefined {
  const lower = name.toLowerCase();
  return ROLLOUT_KINDS.find((k) => k.names.includes(lower));
}
