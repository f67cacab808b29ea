// Pieces several kinds share, as OpenKruise's apps/pub package: pod lifecycle hooks, in-place
// update settings and the update-ordering (priority and scatter) strategies.
import type { V1LabelSelector } from '@kubernetes/client-node';
import { Type, core, int32, opt, stringMap, type Static } from '../schema.js';

/** One lifecycle hook: the pod is held in its state until these labels/finalizers are cleared. */
export const LifecycleHook = Type.Object({
  labelsHandler: opt(stringMap({ description: 'Labels that hold the pod in the hooked state while present.' })),
  finalizersHandler: opt(Type.Array(Type.String(), { description: 'Finalizers that hold the pod in the hooked state while present.' })),
  markPodNotReady: opt(
    Type.Boolean({
      description:
        'Mark the pod not-ready while it waits in PreparingDelete/PreparingUpdate, and ready again once an in-place update is done. Default false.',
    }),
  ),
});

export const Lifecycle = Type.Object({
  preDelete: opt(Type.Composite([LifecycleHook], { description: 'Hook run before a pod is deleted.' })),
  inPlaceUpdate: opt(Type.Composite([LifecycleHook], { description: 'Hook run before and after a pod is updated in place.' })),
  preNormal: opt(Type.Composite([LifecycleHook], { description: 'Hook run after a pod is created, before it becomes Normal.' })),
});

export type LifecycleStateType = 'PreparingNormal' | 'Normal' | 'PreparingUpdate' | 'Updating' | 'Updated' | 'PreparingDelete';

export const UpdatePriorityOrderTerm = Type.Object({
  orderedKey: Type.String({
    description: 'Label key whose value orders the pods; the last integer in the value is compared (e.g. 10 in "sts-10").',
  }),
});

export const UpdatePriorityWeightTerm = Type.Object({
  weight: int32({ description: 'Weight added to pods matching the selector, 1-100.' }),
  matchSelector: core<V1LabelSelector>('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', {
    description: 'Pods whose labels match get this weight.',
  }),
});

export const UpdatePriorityStrategy = Type.Object({
  orderPriority: opt(
    Type.Array(UpdatePriorityOrderTerm, {
      description: 'Sort pods by the value of each key in turn; pods with the first key come before pods with only later ones.',
    }),
  ),
  weightPriority: opt(
    Type.Array(UpdatePriorityWeightTerm, { description: 'Sort pods by the sum of the weights of the terms they match.' }),
  ),
});

export const InPlaceUpdateStrategy = Type.Object({
  gracePeriodSeconds: opt(
    int32({ description: 'Seconds between marking a pod not-ready and changing its spec during an in-place update.' }),
  ),
});

export const UpdateScatterTerm = Type.Object({
  key: Type.String({ description: 'Label key.' }),
  value: Type.String({ description: 'Label value.' }),
});

/** Pods carrying any of these label pairs are spread out across update batches. */
export const UpdateScatterStrategy = Type.Array(UpdateScatterTerm);

/** How a pod is updated when its template changes. */
export type PodUpdateStrategyType = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly';

export type LifecycleHook = Static<typeof LifecycleHook>;
export type Lifecycle = Static<typeof Lifecycle>;
export type UpdatePriorityOrderTerm = Static<typeof UpdatePriorityOrderTerm>;
export type UpdatePriorityWeightTerm = Static<typeof UpdatePriorityWeightTerm>;
export type UpdatePriorityStrategy = Static<typeof UpdatePriorityStrategy>;
export type InPlaceUpdateStrategy = Static<typeof InPlaceUpdateStrategy>;
export type UpdateScatterTerm = Static<typeof UpdateScatterTerm>;
export type UpdateScatterStrategy = Static<typeof UpdateScatterStrategy>;
