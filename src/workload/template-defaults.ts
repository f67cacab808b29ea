// The defaults OpenKruise's workload webhooks inject into a pod template (SetDefaultPodSpec in
// apis/apps/defaults/pod.go): Kubernetes' SetDefaults_PodSpec, then the container and volume
// defaulters, except that a container's imagePullPolicy defaults to Always whatever its tag (so
// an in-place image update always pulls). A workload's revision is computed from the defaulted
// template, so these decide whether its revision names agree with OpenKruise's. In place on a copy.
import { defaultContainer, defaultVolume } from '../kube/pod-defaults.js';
import { isRecord } from '../kube/validation.js';

type Obj = Record<string, unknown>;
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A defaulted copy of a pod template's `spec`. */
export function defaultedTemplateSpec(spec: unknown): Obj {
  const out: Obj = isRecord(spec) ? structuredClone(spec) : {};
  if (blank(out.dnsPolicy)) out.dnsPolicy = 'ClusterFirst';
  if (blank(out.restartPolicy)) out.restartPolicy = 'Always';
  if (!isRecord(out.securityContext)) out.securityContext = {};
  if (out.terminationGracePeriodSeconds === undefined || out.terminationGracePeriodSeconds === null) out.terminationGracePeriodSeconds = 30;
  if (blank(out.schedulerName)) out.schedulerName = 'default-scheduler';
  for (const v of objects(out.volumes)) defaultVolume(v);
  for (const c of objects(out.initContainers)) defaultContainer(c, { startupProbe: true });
  for (const c of objects(out.containers)) {
    if (blank(c.imagePullPolicy)) c.imagePullPolicy = 'Always';
    defaultContainer(c, { startupProbe: true });
  }
  return out;
}
