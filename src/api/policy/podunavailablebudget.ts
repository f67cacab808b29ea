// PodUnavailableBudget (policy.kruise.io/v1alpha1, namespaced): like a PodDisruptionBudget, but it
// also guards deletions and in-place updates, not only evictions.
import type { V1LabelSelector } from '@kubernetes/client-node';
import { Type, core, int32, int64, intOrString, opt, time, type Static } from '../schema.js';
import { defineKind, type ObjectOf } from '../kind.js';

export const PubTargetReference = Type.Object(
  {
    apiVersion: opt(Type.String({ description: 'API version of the workload, e.g. apps/v1.' })),
    kind: opt(Type.String({ description: 'Kind of the workload, e.g. Deployment or CloneSet.' })),
    name: opt(Type.String({ description: 'Name of the workload, in the same namespace.' })),
  },
  { description: 'The workload whose pods are protected. Takes precedence over selector.' },
);

export const PodUnavailableBudgetSpec = Type.Object({
  selector: opt(
    core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
      description: 'Protected pods, by label. Use either this or targetRef.',
    }),
  ),
  targetRef: opt(PubTargetReference),
  maxUnavailable: opt(
    intOrString({
      description:
        'An eviction, deletion or in-place update is allowed only if afterwards at most this many (or this percentage of) protected pods are unavailable. Takes precedence over minAvailable.',
    }),
  ),
  minAvailable: opt(
    intOrString({
      description:
        'An eviction, deletion or in-place update is allowed only if afterwards at least this many (or this percentage of) protected pods stay available.',
    }),
  ),
});

export const PodUnavailableBudgetStatus = Type.Object({
  observedGeneration: opt(
    int64({ description: 'The generation this status was computed from; the counts are only valid when it is current.' }),
  ),
  disruptedPods: opt(
    Type.Record(Type.String(), time(), {
      description:
        'Pods whose eviction or deletion was allowed but not yet observed by the controller, by pod name, with the time it was allowed.',
    }),
  ),
  unavailablePods: opt(
    Type.Record(Type.String(), time(), {
      description:
        'Pods made unavailable by an allowed in-place update, by pod name; removed once the pod is updated and ready again.',
    }),
  ),
  unavailableAllowed: int32({ description: 'How many more pods may become unavailable right now.' }),
  currentAvailable: int32({ description: 'Protected pods currently available.' }),
  desiredAvailable: int32({ description: 'Protected pods that must stay available.' }),
  totalReplicas: int32({ description: 'Total number of protected pods.' }),
});

export const PodUnavailableBudgetKind = defineKind({
  group: 'policy.kruise.io',
  version: 'v1alpha1',
  kind: 'PodUnavailableBudget',
  plural: 'podunavailablebudgets',
  singular: 'podunavailablebudget',
  shortNames: ['pub'],
  scope: 'Namespaced',
  description:
    'Limits how many of a set of pods may be unavailable at once, checked on eviction, deletion and in-place update.',
  spec: PodUnavailableBudgetSpec,
  status: PodUnavailableBudgetStatus,
  printerColumns: [
    {
      name: 'Allowed',
      type: 'integer',
      jsonPath: '.status.unavailableAllowed',
      description: 'How many more pods may become unavailable now.',
    },
    {
      name: 'Current',
      type: 'integer',
      jsonPath: '.status.currentAvailable',
      description: 'Protected pods currently available.',
    },
    {
      name: 'Desired',
      type: 'integer',
      jsonPath: '.status.desiredAvailable',
      description: 'Protected pods that must stay available.',
    },
    {
      name: 'Total',
      type: 'integer',
      jsonPath: '.status.totalReplicas',
      description: 'Total number of protected pods.',
    },
  ],
});

export type PubTargetReference = Static<typeof PubTargetReference>;
export type PodUnavailableBudgetSpec = Static<typeof PodUnavailableBudgetSpec>;
export type PodUnavailableBudgetStatus = Static<typeof PodUnavailableBudgetStatus>;
export type PodUnavailableBudget = ObjectOf<typeof PodUnavailableBudgetKind>;
