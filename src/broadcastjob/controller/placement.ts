// Which nodes a BroadcastJob runs on (OpenKruise's getNodeToPodMap and getNodesToRunPod): a node
// with a pod of the job is desired while that pod still fits it (its own spec: the pin, the
// nodeSelector, tolerations, resources), and the pod is to be deleted once it does not; a node
// without one is desired, and still to run one, when the template fits it. Pure.
import { jobNodeFit } from '../../workload/node-eligibility.js';
import { targetNodeName } from '../../workload/node-pinning.js';
import type { Node, SchedulingSpec } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { StoredBroadcastJob } from '../types.js';

export type Placement = {
  /** Every desired node, with its pod (undefined while it has none). */
  desired: Map<string, Pod | undefined>;
  /** Desired nodes without a pod, in the order the nodes were listed. */
  rest: Node[];
  /** Pods (not yet being deleted) on nodes they no longer fit, with why. */
  misfits: { pod: Pod; reason: string }[];
  /** Pods found on a node that already had one (OpenKruise keeps the later one in its map). */
  duplicates: { pod: Pod; node: string }[];
};

export function placeJob(job: StoredBroadcastJob, pods: readonly Pod[], nodes: readonly Node[]): Placement {
  const byNode = new Map<string, Pod>();
  const duplicates: Placement['duplicates'] = [];
  for (const pod of pods) {
    const node = targetNodeName(pod) ?? '';
    if (byNode.has(node)) duplicates.push({ pod, node });
    byNode.set(node, pod);
  }
  const template = (job.spec.template?.spec ?? {}) as SchedulingSpec;
  const out: Placement = { desired: new Map(), rest: [], misfits: [], duplicates };
  for (const node of nodes) {
    const name = node.metadata.name;
    const pod = byNode.get(name);
    if (pod) {
      const fit = jobNodeFit(node, pod.spec as SchedulingSpec);
      if (!fit.fits && !pod.metadata.deletionTimestamp) {
        out.misfits.push({ pod, reason: fit.reason ?? '' });
        continue;
      }
      out.desired.set(name, pod);
    } else if (jobNodeFit(node, template).fits) {
      out.rest.push(node);
      out.desired.set(name, undefined);
    }
  }
  return out;
}
