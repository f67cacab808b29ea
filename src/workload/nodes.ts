// Nodes as the per-node workloads (Advanced DaemonSet, BroadcastJob) read them from a LIST, and
// the scheduling fragments of a pod spec that decide where a pod may run. Plain JSON shapes.

export type ResourceList = Readonly<Record<string, string>>;

export type Taint = { key: string; value?: string; effect: string; timeAdded?: string | null };

export type Toleration = {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
};

export type NodeSelectorRequirement = { key: string; operator: string; values?: readonly string[] | null };

export type NodeSelectorTerm = {
  matchExpressions?: readonly NodeSelectorRequirement[] | null;
  matchFields?: readonly NodeSelectorRequirement[] | null;
};

export type Node = {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; labels?: Record<string, string>; [k: string]: unknown };
  spec?: { taints?: Taint[] | null; unschedulable?: boolean; [k: string]: unknown };
  status?: { allocatable?: ResourceList; capacity?: ResourceList; [k: string]: unknown };
};

type ResourceContainer = {
  name: string;
  restartPolicy?: string;
  resources?: { requests?: ResourceList | null; [k: string]: unknown } | null;
};

/** The part of a pod spec node eligibility reads; a Pod's spec and a template's spec both fit. */
export type SchedulingSpec = {
  nodeName?: string;
  nodeSelector?: Readonly<Record<string, string>> | null;
  affinity?: {
    nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: readonly NodeSelectorTerm[] | null } | null } | null;
  } | null;
  tolerations?: readonly Toleration[] | null;
  hostNetwork?: boolean;
  containers?: readonly ResourceContainer[];
  initContainers?: readonly ResourceContainer[] | null;
  overhead?: ResourceList | null;
};
