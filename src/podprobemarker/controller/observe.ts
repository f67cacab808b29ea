// What the PodProbeMarker controller reads: the PodProbeMarkers in scope and, for each, the pods
// of its namespace its selector matches that are active, initialized and bound to a node
// (OpenKruise getMatchingPods); where it probes pods itself, the Nodes (virtual kubelets report
// their pods' results) and the results of the probes due. A scoped run covers every
// PodProbeMarker of the namespaces the scope names (a pod's change names its namespace). Fresh
// LISTs every run.
import type { PodProbeMarker } from '../../api/apps/podprobemarker.js';
import type { KubeObject } from '../../kube/http.js';
import { formatLabelSelector, isEmptySelector, selectorProblems, type LabelSelector } from '../../kube/selectors.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { isProbedPod } from '../select.js';
import { PPM_API_VERSION, PPM_KIND } from '../types.js';
import type { PodProbeMarkerObserved } from './decide.js';
import type { Prober } from './results.js';
import { probeTargets } from './targets.js';

async function podsOf(kube: KubeReader, ppm: PodProbeMarker): Promise<Pod[]> {
  const sel = ppm.spec?.selector as LabelSelector | undefined;
  if (!sel || isEmptySelector(sel) || selectorProblems(sel).length) return [];
  const list = await kube.list<KubeObject>('v1', 'Pod', { namespace: ppm.metadata.namespace ?? '', labelSelector: formatLabelSelector(sel) });
  return (list.items as unknown as Pod[]).filter(isProbedPod);
}

export async function observePodProbeMarkers(kube: KubeReader, scope: Scope, prober: Prober | undefined, now: Date): Promise<PodProbeMarkerObserved> {
  const namespaces = scope.kind === 'all' ? undefined : new Set(scope.objects.map((o) => o.namespace ?? ''));
  const all = (await kube.list<KubeObject>(PPM_API_VERSION, PPM_KIND)).items as unknown as PodProbeMarker[];
  const inScope = all.filter((p) => !p.metadata.deletionTimestamp && (!namespaces || namespaces.has(p.metadata.namespace ?? '')));
  const markers = await Promise.all(inScope.map(async (ppm) => ({ ppm, pods: await podsOf(kube, ppm) })));
  if (!prober || !markers.some((m) => m.pods.length)) return { markers, results: new Map() };
  const nodes = new Map(((await kube.list<KubeObject>('v1', 'Node')).items as unknown as Node[]).map((n) => [n.metadata.name, n]));
  const targets = markers.flatMap((m) => probeTargets(m.ppm, m.pods, nodes));
  if (!targets.length) return { markers, results: new Map() };
  const results = await prober.probe(targets, now);
  return { markers, results, probePeriodMs: Math.min(...targets.map((t) => t.periodSeconds)) * 1000 };
}
