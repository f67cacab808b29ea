// Group 1 on the Lambda path's local stand-in (test/e2e/support/lambda-path.ts): the production
// Worker under Miniflare admits pod status changes (the pod-status observer) and publishes
// ObjectChanged events to an EventBridge stand-in, which invokes the production reconcile handler in
// this process; wake-ups go through a fake SQS. Only one controller may run ours at a time, so the
// Node loop is stopped first (its last counts stand in for it). Run last: the edge's webhooks are
// gone once it is disposed.
import { KubeHttp } from '../../../src/kube/http.js';
import { loadKubeConfig } from '../../../src/kube/node-client.js';
import { cloneSetFeature } from '../../../src/cloneset/index.js';
import { daemonSetFeature } from '../../../src/daemonset/index.js';
import { statefulSetFeature } from '../../../src/statefulset/index.js';
import { startLambdaPath } from '../../../test/e2e/support/lambda-path.js';
import type { BenchCluster } from '../../cluster/cluster.js';
import type { LoopChild } from '../../cluster/children.js';
import { startEdge } from '../../cloneset/edge.js';
import { measureProfile, type Profile, type ProfileFigures } from './figures.js';
import type { Sizes } from './workloads.js';

export async function measureLambdaPath(c: BenchCluster, loop: LoopChild, sizes: Sizes, profile: Profile, seed: number, log: (m: string) => void): Promise<ProfileFigures> {
  const last = await loop.stop();
  const stopped: LoopChild = { pid: 0, snapshot: async () => last, stop: async () => last };
  const lambda = await startLambdaPath();
  // Admission lines stay off the report (stdout); warnings still show.
  const edge = await startEdge(c.cp, c.kube, 'bench-model-edge', { ...lambda.bindings, KS_LOG_LEVEL: 'warn' }, [cloneSetFeature, statefulSetFeature, daemonSetFeature]);
  const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(c.cp.kubeconfig));
  try {
    await lambda.attach({ clusterId: edge.clusterId, kube, edge: edge.edge });
    const figures = await measureProfile(c, stopped, sizes, profile, seed, log, { name: 'lambda', controller: 'Lambda stand-in' });
    log(`Lambda stand-in: ${lambda.summaries.length} invocations, ${lambda.published.length} change events`);
    return figures;
  } finally {
    await lambda.close();
    await edge.dispose();
    kube.close();
  }
}
