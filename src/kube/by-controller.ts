// Objects grouped by the uid of the object that controls them (their controller owner reference),
// kept only when that controller is of `kind` (and of `group`'s API group, when given). Pure.
type ControllerRef = { uid?: string; controller?: boolean; kind?: string; apiVersion?: string };

const groupOf = (apiVersion = '') => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

export function byController<T extends { metadata: object }>(items: readonly T[], kind: string, group?: string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const owner = ((item.metadata as { ownerReferences?: ControllerRef[] }).ownerReferences)?.find((o) => o.controller);
    if (!owner?.uid || owner.kind !== kind || (group !== undefined && groupOf(owner.apiVersion) !== group)) continue;
    const list = out.get(owner.uid);
    if (list) list.push(item);
    else out.set(owner.uid, [item]);
  }
  return out;
}
