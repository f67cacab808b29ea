// SidecarSet containers as Go's json.Marshal writes `[]SidecarContainer`: a core/v1 Container
// (the generated table, src/kube/go-pod-template-types.ts) followed by the fields OpenKruise's
// SidecarContainer adds. The SidecarSet hashes and revisions are computed over these bytes.
import { S, list, ptr, struct, encodeGo, type StructDef } from './go-json.js';
import { CONTAINER } from './go-pod-template-types.js';

const ObjectFieldSelector: StructDef = [['apiVersion', S, true], ['fieldPath', S, false]];

/** corev1.Container, then the fields SidecarContainer adds. */
export const SidecarContainer: StructDef = [
  ...CONTAINER,
  ['podInjectPolicy', S, true],
  ['upgradeStrategy', struct([['upgradeType', S, true], ['hotUpgradeEmptyImage', S, true]]), true],
  ['shareVolumePolicy', struct([['type', S, true]]), true],
  [
    'transferEnv',
    list(
      struct([
        ['sourceContainerName', S, true],
        ['sourceContainerNameFrom', ptr(struct([['fieldRef', ptr(struct(ObjectFieldSelector)), true]])), true],
        ['envName', S, true],
        ['envNames', list(S), true],
      ]),
    ),
    true,
  ],
];

/** A list of SidecarContainers exactly as Go's json.Marshal writes `[]SidecarContainer` (nil → null). */
export function encodeSidecarContainers(containers: unknown): string {
  return encodeGo(list(struct(SidecarContainer)), containers);
}
