// The write an admission request makes, as a change event carries it (contracts.ts, AdmittedRef).
// Pure. Only writes whose effect a GET of the object shows: the object itself or its status.
import type { Operation } from '../kube/admission-operation.js';
import { asObj } from '../kube/projection.js';
import type { AdmittedRef } from './contracts.js';

type Request = { kind: string; namespace: string; operation: Operation; subResource?: string; object?: unknown; oldObject?: unknown };

export function admittedRef(a: Request): AdmittedRef | undefined {
  if (a.operation === 'CONNECT' || (a.subResource && a.subResource !== 'status')) return undefined;
  const obj = asObj(a.operation === 'DELETE' ? a.oldObject : a.object);
  const { name } = asObj(obj.metadata);
  const { apiVersion } = obj;
  if (typeof name !== 'string' || !name || typeof apiVersion !== 'string' || !apiVersion) return undefined;
  const basedOn = a.operation === 'CREATE' ? undefined : asObj(asObj(a.oldObject).metadata).resourceVersion;
  return {
    apiVersion, kind: a.kind, ...(a.namespace ? { namespace: a.namespace } : {}), name, operation: a.operation,
    ...(typeof basedOn === 'string' && basedOn ? { basedOn } : {}),
  };
}
