// Converts one object of our API to another version it is served in. Pure. Kinds whose versions
// share a schema only change apiVersion; the others go through v1beta1 (OpenKruise's hub and
// storage version) with the field moves in sidecarset.ts and daemonset.ts.
import type { DaemonSet, DaemonSetV1beta1 } from '../api/apps/daemonset.js';
import type { SidecarSet, SidecarSetV1beta1 } from '../api/apps/sidecarset.js';
import { daemonSetToV1alpha1, daemonSetToV1beta1 } from './daemonset.js';
import { isPlainObject } from './objects.js';
import { sidecarSetToV1alpha1, sidecarSetToV1beta1 } from './sidecarset.js';

/** Input the API server should never send; the message says what is wrong. */
export class ConversionError extends Error {
  override name = 'ConversionError';
}

export type ConvertibleObject = { apiVersion: string; kind: string; metadata?: Record<string, unknown>; [field: string]: unknown };

const HUB = 'v1beta1';
const SPOKE = 'v1alpha1';

type FieldMoves = { toHub: (o: ConvertibleObject) => ConvertibleObject; fromHub: (o: ConvertibleObject) => ConvertibleObject };

// The hand-over between the JSON the API server sends and the typed functions: shapes are checked by checkShape.
const MOVES: Record<string, FieldMoves> = {
  SidecarSet: {
    toHub: (o) => sidecarSetToV1beta1(o as unknown as SidecarSet) as unknown as ConvertibleObject,
    fromHub: (o) => sidecarSetToV1alpha1(o as unknown as SidecarSetV1beta1) as unknown as ConvertibleObject,
  },
  DaemonSet: {
    toHub: (o) => daemonSetToV1beta1(o as unknown as DaemonSet) as unknown as ConvertibleObject,
    fromHub: (o) => daemonSetToV1alpha1(o as unknown as DaemonSetV1beta1) as unknown as ConvertibleObject,
  },
};

/** Kinds of apps.kruise.io served in v1alpha1 and v1beta1 (docs/api-versions.md). */
export const CONVERTIBLE_KINDS: readonly string[] = ['SidecarSet', 'DaemonSet', 'StatefulSet', 'BroadcastJob', 'AdvancedCronJob', 'ImagePullJob'];
const GROUP = 'apps.kruise.io';

export function convertObject(input: unknown, desiredAPIVersion: string): ConvertibleObject {
  const obj = checkShape(input);
  const from = versionOf(obj.apiVersion, `object ${describe(obj)}`);
  const to = versionOf(desiredAPIVersion, 'desiredAPIVersion');
  if (from === to) return structuredClone(obj);
  const moves = MOVES[obj.kind];
  if (!moves) return { ...structuredClone(obj), apiVersion: `${GROUP}/${to}` };
  return to === HUB ? moves.toHub(obj) : moves.fromHub(obj);
}

function versionOf(apiVersion: string, what: string): string {
  const [group, version, extra] = apiVersion.split('/');
  if (group !== GROUP || extra !== undefined || (version !== HUB && version !== SPOKE)) {
    throw new ConversionError(`${what}: apiVersion "${apiVersion}" is not ${GROUP}/${SPOKE} or ${GROUP}/${HUB}`);
  }
  return version;
}

function describe(obj: { kind?: unknown; metadata?: unknown }): string {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  const name = [meta.namespace, meta.name].filter((s) => typeof s === 'string' && s).join('/');
  return `${typeof obj.kind === 'string' ? obj.kind : '?'} ${name || '(no name)'}`;
}

function checkShape(input: unknown): ConvertibleObject {
  if (!isPlainObject(input)) throw new ConversionError(`object: expected a JSON object, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}`);
  const what = describe(input);
  if (typeof input.kind !== 'string' || !CONVERTIBLE_KINDS.includes(input.kind)) {
    throw new ConversionError(`object ${what}: kind must be one of ${CONVERTIBLE_KINDS.join(', ')}`);
  }
  if (typeof input.apiVersion !== 'string') throw new ConversionError(`object ${what}: apiVersion must be a string`);
  for (const field of ['metadata', 'spec', 'status'] as const) {
    if (input[field] !== undefined && !isPlainObject(input[field])) throw new ConversionError(`object ${what}: ${field} must be an object`);
  }
  const meta = (input.metadata ?? {}) as Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const map = meta[field];
    if (map === undefined || map === null) continue;
    if (!isPlainObject(map) || Object.values(map).some((v) => typeof v !== 'string')) {
      throw new ConversionError(`object ${what}: metadata.${field} must map strings to strings`);
    }
  }
  return input as ConvertibleObject;
}
