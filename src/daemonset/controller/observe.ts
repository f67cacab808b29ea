// What the Advanced DaemonSet controller reads: the DaemonSets in scope, every Node, their pods
// (one LIST in the namespace by the DaemonSet's selector when one DaemonSet is in scope, else the
// pods of the namespaces concerned) and the ControllerRevisions. Fresh reads every run, no
// expectations kept in memory.
//
// A run for one DaemonSet (a trigger: its pod changed) reads in one round instead of two: the
// DaemonSet by GET, with its pods LISTed at the same time by the selector the last run found. That
// selector is only a query hint: the pods are LISTed again when the DaemonSet's selector differs.
import type { KubeObject } from '../../kube/http.js';
import { isNotFound } from '../../kube/errors.js';
import { compileSelector, formatLabelSelector, selectorProblems } from '../../kube/selectors.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, type DaemonSet } from '../types.js';

export type DaemonSetObserved = {
  daemonSets: DaemonSet[];
  nodes: Node[];
  /** Pods by the uid of the DaemonSet that controls them. */
  podsByOwner: Map<string, Pod[]>;
  revisions: ControllerRevision[];
};

const inScope = (scope: Scope, ds: DaemonSet) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === ds.metadata.name && (o.namespace ?? '') === ds.metadata.namespace);

function byController(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    const owner = (pod.metadata.ownerReferences as { uid?: string; controller?: boolean; kind?: string }[] | undefined)?.find((o) => o.controller);
    if (!owner?.uid || owner.kind !== DAEMONSET_KIND) continue;
    out.set(owner.uid, [...(out.get(owner.uid) ?? []), pod]);
  }
  return out;
}

/** The LIST filter for a DaemonSet's pods: its selector when the API server can express it, else none. */
function podFilter(ds: DaemonSet): { labelSelector?: string } {
  const s = ds.spec.selector;
  return s && selectorProblems(s).length === 0 && compileSelector(s).kind === 'requirements' ? { labelSelector: formatLabelSelector(s) } : {};
}

/** `namespace/name` → the pod filter the last run for it used (see the header). */
const podFilterHints = new Map<string, string>();
const NO_SELECTOR = '';

const listPods = (kube: KubeReader, namespace: string, filter: { labelSelector?: string }) =>
  kube.list<KubeObject>('v1', 'Pod', { namespace, ...filter }).then((l) => l.items as unknown as Pod[]);

async function getIfExists(kube: KubeReader, namespace: string, name: string): Promise<DaemonSet | undefined> {
  try {
    return await kube.get<KubeObject>(DAEMONSET_API_VERSION, DAEMONSET_KIND, name, namespace) as unknown as DaemonSet;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function observeOne(kube: KubeReader, namespace: string, name: string): Promise<DaemonSetObserved> {
  const key = `${namespace}/${name}`;
  const hint = podFilterHints.get(key);
  const [found, nodes, hinted, revisions] = await Promise.all([
    getIfExists(kube, namespace, name),
    kube.list<KubeObject>('v1', 'Node'),
    hint === undefined ? undefined : listPods(kube, namespace, hint === NO_SELECTOR ? {} : { labelSelector: hint }),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', { namespace }),
  ]);
  if (!found || found.metadata.deletionTimestamp) {
    podFilterHints.delete(key);
    return { daemonSets: [], nodes: [], podsByOwner: new Map(), revisions: [] };
  }
  const filter = podFilter(found);
  const wanted = filter.labelSelector ?? NO_SELECTOR;
  podFilterHints.set(key, wanted);
  const pods = hint === wanted && hinted ? hinted : await listPods(kube, namespace, filter);
  return {
    daemonSets: [found],
    nodes: nodes.items as unknown as Node[],
    podsByOwner: byController(pods),
    revisions: revisions.items as unknown as ControllerRevision[],
  };
}

export async function observeDaemonSets(kube: KubeReader, scope: Scope): Promise<DaemonSetObserved> {
  const one = scope.kind === 'objects' && scope.objects.length === 1 ? scope.objects[0]! : undefined;
  if (one?.namespace) return observeOne(kube, one.namespace, one.name);
  const all = (await kube.list<KubeObject>(DAEMONSET_API_VERSION, DAEMONSET_KIND)).items as unknown as DaemonSet[];
  const daemonSets = all.filter((ds) => inScope(scope, ds) && !ds.metadata.deletionTimestamp);
  if (!daemonSets.length) return { daemonSets, nodes: [], podsByOwner: new Map(), revisions: [] };
  const namespaces = [...new Set(daemonSets.map((ds) => ds.metadata.namespace))];
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]! } : {};
  const only = daemonSets.length === 1 ? daemonSets[0]! : undefined;
  const selector = only ? podFilter(only) : {};
  const [nodes, pods, revisions] = await Promise.all([
    kube.list<KubeObject>('v1', 'Node'),
    kube.list<KubeObject>('v1', 'Pod', { ...namespace, ...selector }),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
  ]);
  return {
    daemonSets,
    nodes: nodes.items as unknown as Node[],
    podsByOwner: byController(pods.items as unknown as Pod[]),
    revisions: revisions.items as unknown as ControllerRevision[],
  };
}
