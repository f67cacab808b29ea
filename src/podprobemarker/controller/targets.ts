// The probes the reconciler runs itself where it can reach pods (the Node loop): tcpSocket and
// httpGet probes of pods with an IP, on nodes that are not virtual kubelets (those pods' runtime
// reports results as conditions). Exec probes need an agent on the node and are left to whoever
// reports the condition. A named port is looked up in the container's ports (OpenKruise
// util.ExtractPort: then the name read as a number); a probe whose port cannot be resolved is not
// run, as OpenKruise leaves it out of NodePodProbe. Pure.
import type { V1Probe } from '@kubernetes/client-node';
import type { PodContainerProbe, PodProbeMarker } from '../../api/apps/podprobemarker.js';
import type { Node } from '../../workload/nodes.js';
import { containerStatus, type Pod } from '../../workload/pods.js';
import { VIRTUAL_KUBELET_LABEL } from '../types.js';

export type ProbeAction =
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'http'; host: string; port: number; path: string; scheme: 'http' | 'https'; headers: [string, string][] };

export type ProbeTarget = {
  /** pod uid / `<PodProbeMarker>#<probe>`: what a result is remembered by. */
  key: string;
  action: ProbeAction;
  containerName: string;
  /** The container runs, and since when (RFC 3339); not running: the probe fails without a call. */
  container: { running: boolean; startedAt?: string };
  timeoutSeconds: number;
  periodSeconds: number;
  initialDelaySeconds: number;
  successThreshold: number;
  failureThreshold: number;
};

export const DEFAULT_PERIOD_SECONDS = 10;

export const targetKey = (pod: Pod, ppm: PodProbeMarker, probe: PodContainerProbe): string => `${pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`}/${ppm.metadata.name}#${probe.name}`;

type Port = { name?: string; containerPort?: number };

function resolvePort(port: number | string | undefined, pod: Pod, containerName: string): number | undefined {
  let n: number | undefined;
  if (typeof port === 'number') n = port;
  else if (typeof port === 'string') {
    const container = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === containerName);
    if (!container) return undefined;
    const named = ((container.ports ?? []) as Port[]).find((p) => p.name === port);
    n = named?.containerPort ?? (/^[+-]?\d+$/.test(port) ? Number(port) : undefined);
  }
  return n !== undefined && n > 0 && n < 65536 ? n : undefined;
}

function actionOf(probe: V1Probe, pod: Pod, containerName: string, podIP: string): ProbeAction | undefined {
  if (probe.exec) return undefined;
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port as number | string | undefined, pod, containerName);
    if (port === undefined) return undefined;
    const headers = (probe.httpGet.httpHeaders ?? []).map((h): [string, string] => [h.name, h.value]);
    return { kind: 'http', host: probe.httpGet.host || podIP, port, path: probe.httpGet.path ?? '', scheme: probe.httpGet.scheme === 'HTTPS' ? 'https' : 'http', headers };
  }
  if (probe.tcpSocket) {
    const port = resolvePort(probe.tcpSocket.port as number | string | undefined, pod, containerName);
    return port === undefined ? undefined : { kind: 'tcp', host: probe.tcpSocket.host || podIP, port };
  }
  return undefined;
}

const positive = (v: number | undefined, fallback: number) => (v && v > 0 ? v : fallback);

export function isVirtualKubeletPod(pod: Pod, nodes: ReadonlyMap<string, Node>): boolean {
  const labels = nodes.get(pod.spec.nodeName ?? '')?.metadata.labels ?? {};
  return labels[VIRTUAL_KUBELET_LABEL.key] === VIRTUAL_KUBELET_LABEL.value;
}

export function probeTargets(ppm: PodProbeMarker, pods: readonly Pod[], nodes: ReadonlyMap<string, Node>): ProbeTarget[] {
  const out: ProbeTarget[] = [];
  for (const pod of pods) {
    const podIP = typeof pod.status?.podIP === 'string' ? pod.status.podIP : '';
    if (!podIP || isVirtualKubeletPod(pod, nodes)) continue;
    for (const probe of ppm.spec?.probes ?? []) {
      const action = actionOf(probe.probe ?? {}, pod, probe.containerName, podIP);
      if (!action) continue;
      const status = containerStatus(pod, probe.containerName) as { state?: { running?: { startedAt?: string } } } | undefined;
      const running = status?.state?.running;
      const p = probe.probe;
      out.push({
        key: targetKey(pod, ppm, probe), action, containerName: probe.containerName,
        container: running ? { running: true, ...(running.startedAt ? { startedAt: running.startedAt } : {}) } : { running: false },
        timeoutSeconds: positive(p.timeoutSeconds, 1),
        periodSeconds: positive(p.periodSeconds, DEFAULT_PERIOD_SECONDS),
        initialDelaySeconds: positive(p.initialDelaySeconds, 1),
        successThreshold: positive(p.successThreshold, 1),
        failureThreshold: positive(p.failureThreshold, 1),
      });
    }
  }
  return out;
}
