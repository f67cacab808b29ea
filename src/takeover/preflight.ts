// Step 1 of a takeover: OpenKruise's manager must be scaled to 0, or two controllers would act on
// the same objects (two rollouts, two budgets). kruise-daemon may keep running: it acts only on
// NodeImage pulls and ContainerRecreateRequests on its node, which nothing creates once the
// manager is down, and it writes no workload pod; removing it is the user's choice. Pure.
export const KRUISE_NAMESPACE = 'kruise-system';
export const KRUISE_MANAGER = 'kruise-controller-manager';
export const KRUISE_DAEMON = 'kruise-daemon';

export type Scaled = { spec?: { replicas?: number }; status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number } };
export type DaemonSetSeen = { status?: { desiredNumberScheduled?: number; numberReady?: number } };

export type Preflight = { ok: boolean; problems: string[]; notes: string[] };

/** `manager`/`daemon`: what the cluster holds (undefined when absent). */
export function checkKruiseStopped(manager: Scaled | undefined, daemon: DaemonSetSeen | undefined): Preflight {
  const problems: string[] = [];
  const notes: string[] = [];
  const where = `${KRUISE_NAMESPACE}/${KRUISE_MANAGER}`;
  if (!manager) notes.push(`Deployment ${where} not found: OpenKruise's manager is not installed there`);
  else {
    const wanted = manager.spec?.replicas ?? 1;
    const running = manager.status?.replicas ?? 0;
    if (wanted > 0) problems.push(`Deployment ${where} wants ${wanted} replica(s): scale it to 0 first (kubectl -n ${KRUISE_NAMESPACE} scale deployment ${KRUISE_MANAGER} --replicas=0), or OpenKruise and Kruise Serverless would both act on the same workloads`);
    else if (running > 0) problems.push(`Deployment ${where} is scaled to 0 but ${running} pod(s) still run: wait until they are gone`);
    else notes.push(`Deployment ${where} is scaled to 0`);
  }
  if (!daemon) notes.push(`DaemonSet ${KRUISE_NAMESPACE}/${KRUISE_DAEMON} not found`);
  else {
    const n = daemon.status?.desiredNumberScheduled ?? 0;
    notes.push(`DaemonSet ${KRUISE_NAMESPACE}/${KRUISE_DAEMON} runs on ${n} node(s): it may stay (it pulls images for NodeImages and recreates containers for ContainerRecreateRequests, and writes no workload pod); with the manager at 0 nothing gives it new work`);
  }
  return { ok: problems.length === 0, problems, notes };
}
