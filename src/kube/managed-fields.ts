// Who last wrote an object's status, from its managedFields: the newest entry that owns a status
// field. A status our own controller wrote may lag our own webhooks' decisions (it is mirrored
// after them); one another controller wrote is that controller's word (OpenKruise's webhook
// writes the status before it admits).
import { asObj } from './projection.js';
import { FIELD_MANAGER } from './apply.js';

/** The field a collection projection notes the status writer in (statusWrittenByUs reads it). */
export const STATUS_WRITER_FIELD = 'statusWriter';

/** Whether a projected object's status was last written by our own controllers. */
export const statusWrittenByUs = (projected: unknown): boolean =>
  (projected as Record<string, unknown> | undefined)?.[STATUS_WRITER_FIELD] === FIELD_MANAGER;

type ManagedFieldsEntry = { manager?: unknown; time?: unknown; fieldsV1?: unknown };

export function lastStatusWriter(metadata: unknown): string | undefined {
  const entries = asObj(metadata).managedFields;
  if (!Array.isArray(entries)) return undefined;
  let newest: { manager: string; at: number } | undefined;
  for (const e of entries as ManagedFieldsEntry[]) {
    if (typeof e?.manager !== 'string' || !('f:status' in asObj(e.fieldsV1))) continue;
    const at = typeof e.time === 'string' ? Date.parse(e.time) : Number.NaN;
    const when = Number.isFinite(at) ? at : -Infinity;
    if (!newest || when >= newest.at) newest = { manager: e.manager, at: when };
  }
  return newest?.manager;
}
