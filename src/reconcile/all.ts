// Every reconciler this build runs (Node and Lambda only). Kept apart from src/registry.ts, which
// the Worker imports: reconcilers read the API server and never run at the edge.
import type { Reconciler } from './types.js';
import { resourceDistributionReconciler } from '../resourcedistribution/reconciler.js';
import { sidecarSetReconciler } from '../sidecarset/controller/reconciler.js';

export function reconcilers(): Reconciler[] {
  return [resourceDistributionReconciler as Reconciler, sidecarSetReconciler as Reconciler];
}
