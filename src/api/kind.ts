// What every kind declares besides its schemas: names, scope, subresources and the printer
// columns `kubectl get` shows. gen-crds.ts reads these; nothing else does.
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { TSchema, Static } from '@sinclair/typebox';

export type PrinterColumn = {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  /** 0 shows in `kubectl get`, 1 only with `-o wide`. */
  priority?: number;
  format?: string;
};

export type KindDefinition<Spec extends TSchema = TSchema, Status extends TSchema = TSchema> = {
  group: 'apps.kruise.io' | 'policy.kruise.io';
  /** The version `spec` and `status` describe: the one our features read and write. */
  version: string;
  kind: string;
  plural: string;
  singular: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
  scope: 'Namespaced' | 'Cluster';
  description: string;
  spec: Spec;
  status: Status;
  printerColumns: PrinterColumn[];
  /** The other versions OpenKruise serves for this kind (docs/api-versions.md). */
  otherVersions?: ServedVersion[];
  /**
   * The version the API server stores (OpenKruise's); default `version`. With conversion Webhook,
   * only once the installer has pointed the CRD at the edge: until then `version` is stored.
   */
  storage?: string;
  /**
   * How the API server converts between versions: None (only apiVersion changes) or Webhook (it
   * calls our /convert, src/conversion). The installer fills in the webhook's URL.
   */
  conversion?: 'None' | 'Webhook';
  /** The scale subresource, where OpenKruise has one. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
};

/** A version served besides `version`; its schemas default to `version`'s. */
export type ServedVersion = { name: string; spec?: TSchema; status?: TSchema };

export function defineKind<Spec extends TSchema, Status extends TSchema>(
  def: KindDefinition<Spec, Status>,
): KindDefinition<Spec, Status> {
  return def;
}

/**
 * ObjectMeta as it travels in JSON: client-node's model types the timestamps as Date, but an
 * object read from the API server or a webhook holds RFC 3339 strings.
 */
export type ObjectMeta = Omit<V1ObjectMeta, 'creationTimestamp' | 'deletionTimestamp'> & {
  creationTimestamp?: string;
  deletionTimestamp?: string | null;
};

/** A Kubernetes object of a kind defined here. */
export type KindObject<Spec, Status> = {
  /** Absent on items of some lists and on objects built in memory. */
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: Spec;
  status?: Status;
};

export type ObjectOf<D> = D extends KindDefinition<infer Spec, infer Status>
  ? KindObject<Static<Spec>, Static<Status>>
  : never;

/** An object of a namespaced kind as the API server lists it: it has a name and a namespace. */
export type Stored<O extends { metadata: ObjectMeta }> = O & { metadata: { name: string; namespace: string } };

/**
 * A kind's shape as a webhook receives it, before validation: any field may be missing, and an
 * enumerated string may hold any value (the CRD leaves most open). Code reading an untrusted object
 * checks what it uses. JSON null is not modelled: where a client may send it, say so.
 */
export type Loose<T> = T extends string
  ? string
  : T extends readonly (infer E)[]
  ? Loose<E>[]
  : T extends object
    ? string extends keyof T
      ? { [k: string]: Loose<T[string]> }
      : { [K in keyof T]?: Loose<T[K]> }
    : T;

/** `kubectl get`'s AGE, as OpenKruise declares it on most kinds. */
export const AGE_COLUMN: PrinterColumn = { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since the object was created.' };

/** The `-o wide` columns of workloads with a pod template. */
export const TEMPLATE_COLUMNS: readonly PrinterColumn[] = [
  { name: 'CONTAINERS', type: 'string', jsonPath: '.spec.template.spec.containers[*].name', description: 'Container names in the template.', priority: 1 },
  { name: 'IMAGES', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', description: 'Container images in the template.', priority: 1 },
];

/** The scale subresource of replica-counted workloads (kubectl scale, HPA). */
export const REPLICAS_SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } as const;
