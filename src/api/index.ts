// Every kind this project serves. gen-crds.ts renders one CRD per entry.
import type { KindDefinition } from './kind.js';
import { AdvancedCronJobKind } from './apps/advancedcronjob.js';
import { BroadcastJobKind } from './apps/broadcastjob.js';
import { CloneSetKind } from './apps/cloneset.js';
import { DaemonSetKind } from './apps/daemonset.js';
import { EphemeralJobKind } from './apps/ephemeraljob.js';
import { ImageListPullJobKind } from './apps/imagelistpulljob.js';
import { ImagePullJobKind } from './apps/imagepulljob.js';
import { PersistentPodStateKind } from './apps/persistentpodstate.js';
import { PodProbeMarkerKind } from './apps/podprobemarker.js';
import { ResourceDistributionKind } from './apps/resourcedistribution.js';
import { SidecarSetKind } from './apps/sidecarset.js';
import { StatefulSetKind } from './apps/statefulset.js';
import { UnitedDeploymentKind } from './apps/uniteddeployment.js';
import { WorkloadSpreadKind } from './apps/workloadspread.js';
import { PodUnavailableBudgetKind } from './policy/podunavailablebudget.js';

export const ALL_KINDS: readonly KindDefinition[] = [
  AdvancedCronJobKind,
  BroadcastJobKind,
  CloneSetKind,
  DaemonSetKind,
  EphemeralJobKind,
  ImageListPullJobKind,
  ImagePullJobKind,
  PersistentPodStateKind,
  PodProbeMarkerKind,
  ResourceDistributionKind,
  SidecarSetKind,
  StatefulSetKind,
  UnitedDeploymentKind,
  WorkloadSpreadKind,
  PodUnavailableBudgetKind,
];
