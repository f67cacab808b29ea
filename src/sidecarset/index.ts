// SidecarSet: the feature's registration — pod injection on `mutate-pod`, defaulting on
// `mutate-sidecarset`, validation on `validate-kruise`, the explain endpoint — and the state its
// webhooks read. Web APIs only (the Worker bundles this through src/registry.ts); the controller
// lives in ./controller and is registered in src/reconcilers.ts.
import type { AdmissionHandler } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { sidecarSetCollections } from './collections.js';
import { makeSidecarSetExplainer } from './explain.js';
import { injectionNeeds, makeInjectSidecarsHandler, type InjectionOptions } from './pod-webhook.js';
import { InjectionPlanCache } from './plan.js';
import { sidecarSetWebhookHandlers, type SidecarSetWebhookOptions } from './webhook.js';

export type SidecarSetFeatureOptions = InjectionOptions & SidecarSetWebhookOptions;

export function sidecarSetFeatureFor(opts: SidecarSetFeatureOptions = {}): Feature {
  const shared = { ...opts, plans: opts.plans ?? new InjectionPlanCache() };
  return {
    name: 'sidecarset',
    handlers: [
      {
        endpoint: 'mutate-pod',
        handler: {
          match: { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['CREATE'] },
          handle: makeInjectSidecarsHandler(shared) as AdmissionHandler,
          needs: injectionNeeds(shared),
        },
      },
      ...sidecarSetWebhookHandlers(opts),
    ],
    collections: [...sidecarSetCollections],
    changeKinds: ['apps.kruise.io/v1alpha1/SidecarSet'],
    explainers: { sidecarset: makeSidecarSetExplainer(shared) },
  };
}

export const sidecarSetFeature: Feature = sidecarSetFeatureFor();
