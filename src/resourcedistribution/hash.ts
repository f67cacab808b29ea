// The hashcode annotation: sha256 (hex) of the distribution's `spec.resource` in canonical JSON.
// OpenKruise (pkg/controller/resourcedistribution/utils.go, hashResource) hashes the raw JSON of
// `spec.resource` the same way. Node only (node:crypto, synchronous): the reconciler imports this,
// the Worker never does — validate.ts and webhook.ts must not import it, nor anything that does.
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export function hashResource(resource: unknown): string {
  return createHash('sha256').update(canonicalJson(resource), 'utf8').digest('hex');
}
