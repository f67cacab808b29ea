// SidecarSet containers as Go's json.Marshal writes `[]SidecarContainer`: a core/v1 Container
// (the generated table, src/kube/go-pod-template-types.ts) followed by the fields OpenKruise's
// SidecarContainer adds. The SidecarSet hashes and revisions are computed over these bytes.
import { S, list, ptr, struct, encodeGo, type StructDef } from './go-json.js';
import { CONTAINER } from './go-pod-template-types.js';

const ObjectFieldSelector: StructDef = [['apiVersion', S, true], ['fieldPath', S, false]];

const ResourceExprs: StructDef = [['cpu', S, true], ['memory', S, true]];
const ResourcesPolicy: StructDef = [
  ['targetContainersMode', S, false],
  ['targetContainersNameRegex', S, true],
  ['resourcesExpr', struct([['limits', ptr(struct(ResourceExprs)), true], ['requests', ptr(struct(ResourceExprs)), true]]), false],
];

/** corev1.Container, then the fields SidecarContainer adds (OpenKruise 1.9's order). */
export const SidecarContainer: StructDef = [
  ...CONTAINER,
  ['podInjectPolicy', S, true],
  ['upgradeStrategy', struct([['upgradeType', S, true], ['hotUpgradeEmptyImage', S, true]]), true],
  ['shareVolumePolicy', struct([['type', S, true]]), true],
  // A pointer, so a set without it keeps the hash it had before OpenKruise added the field.
  ['shareVolumeDevicePolicy', ptr(struct([['type', S, true]])), true],
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
  ['resourcesPolicy', ptr(struct(ResourcesPolicy)), true],
];

/** A list of SidecarContainers exactly as Go's json.Marshal writes `[]SidecarContainer` (nil → null). */
export function encodeSidecarContainers(containers: unknown): string {
  return encodeGo(list(struct(SidecarContainer)), containers);
}
