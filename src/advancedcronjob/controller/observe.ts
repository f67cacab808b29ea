// What the AdvancedCronJob controller reads: the AdvancedCronJobs in scope and the children of
// the kinds their templates make (Jobs, BroadcastJobs, ImageListPullJobs), in their namespace when all are in one.
// Fresh LISTs every run; children are matched to their AdvancedCronJob by controller uid.
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { isNotFound } from '../../kube/errors.js';
import { ACJ_API_VERSION, ACJ_KIND, ACJ_V1BETA1_API_VERSION, childApiVersion, childKindOf, type AdvancedCronJobLike, type Child, type ChildKind } from '../types.js';
import type { AdvancedCronJobObserved } from './decide.js';

const inScope = (scope: Scope, acj: AdvancedCronJobLike) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === acj.metadata.name && (o.namespace ?? '') === acj.metadata.namespace);

/**
 * At v1beta1, as OpenKruise 1.9 reads them: only that version carries imageListPullJobTemplate.
 * A cluster whose CRD serves v1alpha1 alone is read at v1alpha1.
 */
async function listCronJobs(kube: KubeReader, opts: { namespace?: string }) {
  try {
    return await kube.list<KubeObject>(ACJ_V1BETA1_API_VERSION, ACJ_KIND, opts);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    return kube.list<KubeObject>(ACJ_API_VERSION, ACJ_KIND, opts);
  }
}

export async function observeAdvancedCronJobs(kube: KubeReader, scope: Scope): Promise<AdvancedCronJobObserved> {
  const single = scope.kind === 'objects' && scope.objects.length === 1 && scope.objects[0]!.namespace ? { namespace: scope.objects[0]!.namespace } : {};
  const listed = (await listCronJobs(kube, single)).items as unknown as AdvancedCronJobLike[];
  const cronJobs = listed.filter((acj) => inScope(scope, acj) && !acj.metadata.deletionTimestamp);
  const children = new Map<string, { kind: ChildKind; child: Child }[]>();
  if (!cronJobs.length) return { cronJobs, children };
  const namespaces = [...new Set(cronJobs.map((a) => a.metadata.namespace))];
  const namespace = namespaces.length === 1 && namespaces[0] ? { namespace: namespaces[0] } : {};
  const kinds = [...new Set(cronJobs.map((a) => childKindOf(a.spec)))];
  const uids = new Set(cronJobs.map((a) => a.metadata.uid));
  await Promise.all(
    kinds.map(async (kind) => {
      const items = (await kube.list<KubeObject>(childApiVersion(kind), kind, namespace)).items as unknown as Child[];
      for (const child of items) {
        const owner = child.metadata.ownerReferences?.find((o) => o.controller);
        if (!owner?.uid || owner.kind !== ACJ_KIND || !uids.has(owner.uid)) continue;
        children.set(owner.uid, [...(children.get(owner.uid) ?? []), { kind, child }]);
      }
    }),
  );
  return { cronJobs, children };
}
