// Deletion protection (../shared/SEMANTICS.md §5): the label, its values, the kinds it guards and the
// denial messages, which clients and tests compare verbatim.

export const DELETE_PROTECTION_LABEL = 'policy.kruise.io/delete-protection';
export type ProtectionValue = 'Always' | 'Cascading';

/** The label's value if it protects (case-sensitive); any other value protects nothing. */
export function protectionOf(labels: Readonly<Record<string, string>> | undefined): ProtectionValue | undefined {
  const v = labels?.[DELETE_PROTECTION_LABEL];
  return v === 'Always' || v === 'Cascading' ? v : undefined;
}

/** What Cascading means for a kind. */
export type CascadeRule = 'namespace' | 'crd' | 'replicas' | 'none';

/** The guarded kinds by API group and resource (the `validate-delete` endpoint's rules). */
const RULES: Record<string, CascadeRule> = {
  '/namespaces': 'namespace',
  'apiextensions.k8s.io/customresourcedefinitions': 'crd',
  'apps/deployments': 'replicas',
  'apps/replicasets': 'replicas',
  'apps/statefulsets': 'replicas',
  'apps.kruise.io/clonesets': 'replicas',
  'apps.kruise.io/statefulsets': 'replicas',
  'apps.kruise.io/uniteddeployments': 'replicas',
  '/services': 'none',
  'networking.k8s.io/ingresses': 'none',
};

export function cascadeRuleFor(group: string, resource: string): CascadeRule | undefined {
  return RULES[`${group}/${resource}`];
}

const PREFIX = `forbidden by ResourcesProtectionDeletion for ${DELETE_PROTECTION_LABEL}`;
export const ALWAYS_MESSAGE = `${PREFIX}=Always`;
export const cascadingMessage = (what: string): string => `${PREFIX}=Cascading and ${what}`;
export const replicasMessage = (n: number): string => cascadingMessage(`replicas ${n}>0`);
export const activePodsMessage = (n: number): string => cascadingMessage(`active pods ${n}>0`);
export const boundPvcMessage = (n: number): string => cascadingMessage(`"Bound" status pvc ${n}>0`);
export const activeCrsMessage = (n: number): string => cascadingMessage(`active CRs ${n}>0`);
export const listPodsErrorMessage = (err: string): string => `forbidden by ResourcesProtectionDeletion for list pods error: ${err}`;
export const listPvcErrorMessage = (err: string): string => `forbidden by ResourcesProtectionDeletion for list pvc error: ${err}`;
export const listCrsErrorMessage = (gvk: string, err: string): string => `failed to list CRs of ${gvk}: ${err}`;
