// Validation of a subset `patch` (../shared/SEMANTICS.md §3.2; OpenKruise validateWorkloadSpreadSubsets): the
// patch is strategic-merged into the target workload's pod template and the result validated as
// the pod spec it will give. Pure.
//
// Two differences from OpenKruise, both so that a patch is refused only when its pods would be:
// - the merged spec gets the API server's pod defaults first (terminationMessagePolicy,
//   imagePullPolicy, …), as the pods will. OpenKruise validates the template as stored, which its
//   own defaulting has filled for a CloneSet; here no CloneSet webhook runs, and without this a
//   patch of one container's resources would be refused for the template's blanks.
// - without the target (not created yet, or not in the edge's state yet) OpenKruise skips the
//   check; here the patch is merged into a stand-in template that has every container and volume
//   the patch names, so what the patch alone gets wrong (a bad quantity, a blanked image, an
//   unmergeable list) is still refused, and nothing that depends on the template is.
import type { FieldError } from '../kube/field-errors.js';
import { defaultPodSpecParts } from '../kube/pod-defaults.js';
import { validatePodParts } from '../kube/pod-validation.js';
import { isRecord } from '../kube/validation.js';
import { goJSON } from '../kube/go-json.js';
import { strategicMergePod } from './strategic-merge.js';

type Obj = Record<string, unknown>;
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const names = (v: unknown): string[] => objects(v).filter((o) => o.$patch === undefined).map((o) => o.name).filter((n): n is string => typeof n === 'string' && n !== '');

/** The target workload as patch validation needs it: the pod template's spec and the claim templates. */
export type PatchTarget = { spec?: { template?: { spec?: Obj }; volumeClaimTemplates?: { metadata?: { name?: string } }[] } };

/** The target's pod template as its pods get it: CloneSets and StatefulSets add a volume per claim template. */
function templateOf(target: PatchTarget): Obj {
  const template = structuredClone(target.spec?.template ?? {}) as Obj;
  const claims = (target.spec?.volumeClaimTemplates ?? []).map((c) => ({ name: c.metadata?.name, persistentVolumeClaim: { claimName: c.metadata?.name } }));
  if (claims.length) {
    const spec = (template.spec ??= {}) as Obj;
    spec.volumes = [...objects(spec.volumes), ...claims];
  }
  return template;
}

/**
 * A template the patch can only be judged by what it sets itself: a container (name and image) for
 * each container the patch names, or one when it names none, and a volume for each volume its
 * mounts and devices refer to that it does not define (a claim for devices, which need one).
 */
function standInTemplate(patch: Obj): Obj {
  const spec = isRecord(patch.spec) ? patch.spec : {};
  const container = (name: string) => ({ name, image: 'stand-in' });
  const containers = names(spec.containers);
  const inits = names(spec.initContainers);
  const defined = new Set(names(spec.volumes));
  const volumes = new Map<string, Obj>();
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    for (const m of objects(c.volumeMounts)) {
      if (typeof m.name === 'string' && !defined.has(m.name) && !volumes.has(m.name)) volumes.set(m.name, { name: m.name, emptyDir: {} });
    }
    for (const d of objects(c.volumeDevices)) {
      if (typeof d.name === 'string' && !defined.has(d.name)) volumes.set(d.name, { name: d.name, persistentVolumeClaim: { claimName: d.name } });
    }
  }
  return {
    spec: {
      containers: (containers.length ? containers : ['stand-in']).map(container),
      ...(inits.length ? { initContainers: inits.map(container) } : {}),
      ...(volumes.size ? { volumes: [...volumes.values()] } : {}),
    },
  };
}

/** Errors of one subset's patch, under `field` (`spec.subsets[i].patch`). */
export function validateSubsetPatch(patch: unknown, target: PatchTarget | undefined, field: string): FieldError[] {
  if (patch === undefined || patch === null) return [];
  const template = target?.spec?.template ? templateOf(target) : standInTemplate(isRecord(patch) ? patch : {});
  const merged = strategicMergePod(template, patch);
  // OpenKruise prints the raw patch as the API server sent it: Go's JSON, keys sorted.
  if (!merged.ok) return [{ field, type: 'Invalid', value: goJSON(patch), detail: `failed to merge patch: ${merged.error}` }];
  // A copy: the merge shares unpatched parts with the template.
  const spec = defaultPodSpecParts(structuredClone(isRecord(merged.value.spec) ? merged.value.spec : {}));
  return validatePodParts({ containers: spec.containers, initContainers: spec.initContainers, volumes: spec.volumes }).map((e) => ({
    ...e,
    field: e.field.replace(/^spec\./, `${field}.`),
  }));
}
