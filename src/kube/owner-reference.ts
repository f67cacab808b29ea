// The controller owner reference a workload puts on what it creates (pods, revisions, children):
// the garbage collector deletes them with it, and blockOwnerDeletion makes a foreground deletion
// of the owner wait for them.
export type ControllerReference = { apiVersion: string; kind: string; name: string; uid: string; controller: true; blockOwnerDeletion: true };

export const controllerReference = (apiVersion: string, kind: string, owner: { name?: string | undefined; uid?: string | undefined }): ControllerReference => ({
  apiVersion, kind, name: owner.name ?? '', uid: owner.uid ?? '', controller: true, blockOwnerDeletion: true,
});
