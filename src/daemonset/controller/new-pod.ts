// A DaemonSet's pod for one node (OpenKruise's syncNodes with Kubernetes' CreatePodTemplate): the
// current template with the native daemon tolerations, the `controller-revision-hash` label (and
// `pod-template-generation` when the DaemonSet carries the template generation annotation), the
// InPlaceUpdateReady readiness gate under InPlaceIfPossible, pinned to the node by required node
// affinity, controlled by the DaemonSet.
//
// OpenKruise lets the API server generate the name (`<ds>-xxxxx`). Here the 5 characters are a hash
// of the DaemonSet, the node, the revision and the first free index, so a run repeated on the same
// observation (after a crash, or a lost answer) collides on the name instead of creating a second
// pod on the node. Pure.
import { withInPlaceUpdateReadinessGate } from '../../workload/inplace-update-condition.js';
import { withDaemonTolerations } from '../../workload/node-eligibility.js';
import type { SchedulingSpec } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, DAEMONSET_NAME_LABEL, REVISION_HASH_LABEL, TEMPLATE_GENERATION_LABEL, type StoredDaemonSet as DaemonSet } from '../types.js';
import { derivedPodName, pinnedToNode } from '../../workload/node-pinning.js';
import { templateGeneration } from './run.js';
import { controllerReference } from '../../kube/owner-reference.js';

/** The pod's name: `<ds>-` and a hash of (DaemonSet, node, revision, index), the first index whose name is free. */
export function daemonPodName(ds: DaemonSet, node: string, hash: string, taken: ReadonlySet<string>): string {
  return derivedPodName(ds.metadata.name, `${ds.metadata.uid ?? ds.metadata.name}/${node}/${hash}`, taken);
}

export const isInPlaceType = (ds: DaemonSet): boolean =>
  ds.spec.updateStrategy?.type === 'RollingUpdate' && ds.spec.updateStrategy.rollingUpdate?.rollingUpdateType === 'InPlaceIfPossible';

export function newDaemonPod(ds: DaemonSet, node: string, hash: string, name: string): Pod {
  const template = ds.spec.template ?? {};
  const meta = template.metadata ?? {};
  const generation = templateGeneration(ds);
  const base = withDaemonTolerations(structuredClone(template.spec ?? {}) as SchedulingSpec & Record<string, unknown>);
  const spec: Record<string, unknown> = { ...base, affinity: pinnedToNode(base['affinity'], node) };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ds.metadata.namespace,
      labels: {
        ...(meta.labels ?? {}),
        ...(generation !== undefined ? { [TEMPLATE_GENERATION_LABEL]: generation } : {}),
        [REVISION_HASH_LABEL]: hash,
        // A label value is at most 63 characters; a longer name goes without (the observer then misses the pod).
        ...(ds.metadata.name.length <= 63 ? { [DAEMONSET_NAME_LABEL]: ds.metadata.name } : {}),
      },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers?.length ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [controllerReference(DAEMONSET_API_VERSION, DAEMONSET_KIND, ds.metadata)],
    },
    spec: (isInPlaceType(ds) ? withInPlaceUpdateReadinessGate(spec) : spec) as Pod['spec'],
  };
}
