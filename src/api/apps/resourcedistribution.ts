// ResourceDistribution (apps.kruise.io/v1alpha1, cluster-scoped): copies one Secret or ConfigMap
// into a set of namespaces and keeps the copies in sync.
import type { V1LabelSelector } from '@kubernetes/client-node';
import { Type, core, int32, int64, opt, openString, preserveUnknown, time, type Static } from '../schema.js';
import { defineKind, type ObjectOf } from '../kind.js';

const NamespaceList = Type.Object({
  list: opt(
    Type.Array(Type.Object({ name: opt(Type.String({ description: 'Namespace name.' })) }), {
      description: 'The namespaces, by name.',
    }),
  ),
});

export const ResourceDistributionTargets = Type.Object(
  {
    allNamespaces: opt(
      Type.Boolean({
        description:
          'Distribute to every namespace except the forbidden ones (kube-system, kube-public) unless they are listed explicitly.',
      }),
    ),
    excludedNamespaces: opt(Type.Composite([NamespaceList], { description: 'Never distribute to these namespaces; wins over every other target.' })),
    includedNamespaces: opt(Type.Composite([NamespaceList], { description: 'Distribute to these namespaces.' })),
    namespaceLabelSelector: opt(
      core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
        description: 'Distribute to namespaces whose labels match.',
      }),
    ),
  },
  {
    description:
      'Which namespaces receive the resource: the union of allNamespaces, includedNamespaces and namespaceLabelSelector, minus excludedNamespaces.',
  },
);

export const ResourceDistributionSpec = Type.Object({
  resource: preserveUnknown({
    description: 'The complete Secret or ConfigMap to distribute.',
    'x-kubernetes-embedded-resource': true,
  }),
  targets: ResourceDistributionTargets,
});

export const ResourceDistributionCondition = Type.Object({
  type: openString<
    | 'ConflictOccurred'
    | 'NamespaceNotExists'
    | 'GetResourceFailed'
    | 'CreateResourceFailed'
    | 'UpdateResourceFailed'
    | 'DeleteResourceFailed'
  >({ description: 'Type of the condition.' }),
  status: openString<'True' | 'False' | 'Unknown'>({ description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time({ description: 'When the condition last changed status.' })),
  reason: opt(Type.String({ description: 'Why the condition has this status.' })),
  failedNamespace: opt(Type.Array(Type.String(), { description: 'Namespaces that failed, when status is False.' })),
});

export const ResourceDistributionStatus = Type.Object({
  desired: opt(int32({ description: 'Number of target namespaces.' })),
  succeeded: opt(int32({ description: 'Number of namespaces holding an up-to-date copy.' })),
  failed: opt(int32({ description: 'Number of namespaces where distribution failed.' })),
  observedGeneration: opt(int64({ description: 'The generation this status was computed from.' })),
  conditions: opt(Type.Array(ResourceDistributionCondition)),
});

export const ResourceDistributionKind = defineKind({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'ResourceDistribution',
  plural: 'resourcedistributions',
  singular: 'resourcedistribution',
  shortNames: ['distributor'],
  scope: 'Cluster',
  description: 'Distributes a Secret or ConfigMap to many namespaces and keeps the copies in sync.',
  spec: ResourceDistributionSpec,
  status: ResourceDistributionStatus,
  printerColumns: [
    { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Number of target namespaces.' },
    { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of successful distributions.' },
    { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of failed distributions.' },
  ],
});

export type ResourceDistributionCondition = Static<typeof ResourceDistributionCondition>;
export type ResourceDistributionStatus = Static<typeof ResourceDistributionStatus>;
export type ResourceDistributionTargets = Static<typeof ResourceDistributionTargets>;
export type ResourceDistribution = ObjectOf<typeof ResourceDistributionKind>;
