// What the pod webhook adds to a pod at creation in serverless mode (OpenKruise webhook/pod/
// mutating/pod_probe_marker.go): `kruise.io/podprobe`, the probes its runtime (a virtual kubelet)
// is to run and report as pod conditions, without their marker policies; and
// `kruise.io/podprobemarker-list`, the PodProbeMarkers they come from. A probe is carried if its
// container is in the pod (a container, or a restartable init container), it has a condition type,
// and neither its condition type nor its container/name pair was taken by an earlier probe. The
// JSON is Go's encoding of []PodContainerProbe. Pure.
import type { PodContainerProbe, PodProbeMarker } from '../api/apps/podprobemarker.js';
import { S, encodeGo, list, struct, type StructDef } from '../kube/go-json.js';
import { PROBE } from '../kube/go-pod-template-types.js';
import { POD_PROBE_ANNOTATION, POD_PROBE_MARKER_LIST_ANNOTATION } from './types.js';

const POD_CONTAINER_PROBE: StructDef = [
  ['name', S, false],
  ['containerName', S, false],
  ['probe', struct(PROBE), false],
  ['podConditionType', S, true],
];

type PodSpecLike = { containers?: { name?: string }[]; initContainers?: { name?: string; restartPolicy?: string }[] };

export function probeAnnotations(spec: PodSpecLike | undefined, markers: readonly PodProbeMarker[]): Record<string, string> | undefined {
  const containers = new Set([
    ...(spec?.containers ?? []).map((c) => c.name),
    ...(spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  ]);
  const keys = new Set<string>();
  const conditions = new Set<string>();
  const names = new Set<string>();
  const carried: PodContainerProbe[] = [];
  for (const ppm of markers) {
    for (const probe of ppm.spec?.probes ?? []) {
      const key = `${probe.containerName}/${probe.name}`;
      const condition = probe.podConditionType ?? '';
      if (conditions.has(condition) || keys.has(key) || !containers.has(probe.containerName) || !condition) continue;
      const { markerPolicy: _dropped, ...rest } = probe;
      carried.push(rest);
      keys.add(key);
      conditions.add(condition);
      names.add(ppm.metadata.name ?? '');
    }
  }
  if (carried.length === 0) return undefined;
  return {
    [POD_PROBE_ANNOTATION]: encodeGo(list(struct(POD_CONTAINER_PROBE)), carried),
    [POD_PROBE_MARKER_LIST_ANNOTATION]: [...names].sort().join(','),
  };
}
