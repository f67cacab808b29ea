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
  /** Older versions OpenKruise still serves with the same schema (conversion: None). */
  alsoServed?: string[];
  /** The scale subresource, where OpenKruise has one. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
};

export function defineKind<Spec extends TSchema, Status extends TSchema>(
  def: KindDefinition<Spec, Status>,
): KindDefinition<Spec, Status> {
  return def;
}

/** A Kubernetes object of a kind defined here. */
export type KubeObject<Spec, Status> = {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta;
  spec: Spec;
  status?: Status;
};

export type ObjectOf<D> = D extends KindDefinition<infer Spec, infer Status>
  ? KubeObject<Static<Spec>, Static<Status>>
  : never;
