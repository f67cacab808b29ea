// What the PodProbeMarker controller reads: the PodProbeMarkers in scope and, for each, the pods
// of its namespace its selector matches that are active, initialized and bound to a node
// (OpenKruise getMatchingPods); where it probes pods itself, the Nodes (virtual kubelets report
// their pods' results) and the results of the probes due; and the shortest probe period, after
// which it runs again. A scoped run covers every PodProbeMarker of the namespaces the scope names
// (a pod's change names its namespace). Fresh LISTs every run.
import type { PodProbeMarker } from '../../api/apps/podprobemarker.js';
import type { KubeObject } from '../../kube/http.js';
import { formatLabelSelector, isEmptySelector, selectorProblems, type LabelSelector } from '../../kube/selectors.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import { isActivePod, type Pod } from '../../workload/pods.js';
import { isProbedPod } from '../select.js';
import { PPM_API_VERSION, PPM_KIND } from '../types.js';
import type { PodProbeMarkerObserved } from './decide.js';
import type { Prober } from './results.js';
import { DEFAULT_PERIOD_SECONDS, probeTargets } from './targets.js';

const positivePeriod = (v: number | undefined) => (v && v > 0 ? v : DEFAULT_PERIOD_SECONDS);

/** The active pods the PodProbeMarker's selector matches; `probed`: those it works on (initialized, bound). */
async function podsOf(kube: KubeReader, ppm: PodProbeMarker): Promise<{ active: Pod[]; probed: Pod[] }> {
  const sel = ppm.spec?.selector as LabelSelector | undefined;
  if (!sel || isEmptySelector(sel) || selectorProblems(sel).length) return { active: [], probed: [] };
  const list = await kube.list<KubeObject>('v1', 'Pod', { namespace: ppm.metadata.namespace ?? '', labelSelector: formatLabelSelector(sel) });
  const active = (list.items as unknown as Pod[]).filter(isActivePod);
  return { active, probed: active.filter(isProbedPod) };
}

/** The shortest period of the probes of the PodProbeMarkers that select an active pod (none: undefined). */
function shortestPeriodMs(markers: readonly { ppm: PodProbeMarker; active: readonly Pod[] }[]): number | undefined {
  const periods = markers.filter((m) => m.active.length).flatMap((m) => (m.ppm.spec?.probes ?? []).map((p) => positivePeriod(p.probe?.periodSeconds)));
  return periods.length ? Math.min(...periods) * 1000 : undefined;
}

export async function observePodProbeMarkers(kube: KubeReader, scope: Scope, prober: Prober | undefined, now: Date): Promise<PodProbeMarkerObserved> {
  const namespaces = scope.kind === 'all' ? undefined : new Set(scope.objects.map((o) => o.namespace ?? ''));
  const all = (await kube.list<KubeObject>(PPM_API_VERSION, PPM_KIND)).items as unknown as PodProbeMarker[];
  const inScope = all.filter((p) => !p.metadata.deletionTimestamp && (!namespaces || namespaces.has(p.metadata.namespace ?? '')));
  const selected = await Promise.all(inScope.map(async (ppm) => ({ ppm, ...(await podsOf(kube, ppm)) })));
  const markers = selected.map(({ ppm, probed }) => ({ ppm, pods: probed }));
  // The conditions pods report are read again every probe period, as OpenKruise's agent reports them,
  // from a pod's creation on: nothing sends a pod's status change to the Lambda.
  const reported = shortestPeriodMs(selected);
  const none = { markers, results: new Map<string, never>(), ...(reported !== undefined ? { probePeriodMs: reported } : {}) };
  if (!prober || !markers.some((m) => m.pods.length)) return none;
  const nodes = new Map(((await kube.list<KubeObject>('v1', 'Node')).items as unknown as Node[]).map((n) => [n.metadata.name, n]));
  const targets = markers.flatMap((m) => probeTargets(m.ppm, m.pods, nodes));
  if (!targets.length) return none;
  const results = await prober.probe(targets, now);
  return { ...none, results };
}
