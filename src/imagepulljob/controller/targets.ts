// The nodes an ImagePullJob pulls on (OpenKruise's GetNodeImagesForJob, over Nodes instead of
// NodeImages): the named nodes that exist; or the nodes whose labels match the selector; or, with
// podSelector, the nodes running the matching pods (not the pull pods themselves, not ended or
// leaving pods); or every node. Nodes being deleted are left out. Sorted by name. Pure.
import { matchesLabelSelector } from '../../kube/selectors.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { JOB_UID_LABEL, type StoredImagePullJob } from '../types.js';

export function targetNodes(job: StoredImagePullJob, nodes: readonly Node[], selectedPods: readonly Pod[]): string[] {
  const live = nodes.filter((n) => !n.metadata['deletionTimestamp']);
  const sel = job.spec.selector;
  let out: string[];
  if (job.spec.podSelector) {
    const names = new Set(live.map((n) => n.metadata.name));
    out = [...new Set(selectedPods.filter((p) => p.spec.nodeName && names.has(p.spec.nodeName) && !p.metadata.labels?.[JOB_UID_LABEL] && !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').map((p) => p.spec.nodeName!))];
  } else if (sel?.names) {
    const wanted = new Set(sel.names);
    out = live.filter((n) => wanted.has(n.metadata.name)).map((n) => n.metadata.name);
  } else if (sel && (sel.matchLabels != null || sel.matchExpressions != null)) {
    out = live.filter((n) => matchesLabelSelector(sel, n.metadata.labels ?? {})).map((n) => n.metadata.name);
  } else {
    out = live.map((n) => n.metadata.name);
  }
  return out.sort();
}
