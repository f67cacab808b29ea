// The oldest state of a resource (pods, clonesets, …) a client may read and still see every write it
// made to it: the newest resourceVersion its writes to that resource were answered with. A LIST at
// that resourceVersion (no limit) is served from the API server's watch cache once the cache of that
// resource has caught up to it, instead of a range read from etcd, whose cost grows with every object
// under the prefix (a namespace's pods, matching or not).
// Per resource: a resource's watch cache moves only with writes to that resource (etcd's progress
// notifications are minutes apart), so a floor raised by a write elsewhere (a Lease) could keep a
// LIST waiting until the API server gives up. For the same reason a LIST's own resourceVersion (etcd's
// revision, for every resource) never raises a floor.
// Until the client has written a resource, or after a write to it that may have landed without an
// answer (a lost connection, a 5xx) or was answered without a resourceVersion (a delete that removed
// the object at once, an eviction), its LISTs go to etcd, until the next write to it is answered.
// resourceVersions are opaque to clients, but etcd3's are its revision, an integer; anything else
// leaves the floor unset (reads go to etcd).
// A watch event of a resource raises its floor once the client has written it: the LIST then sees
// every change the client has been told of (the event that triggered a run), on whichever API
// server answers it (another server's cache waits until it has caught up). It never sets a floor
// that is unset: a write that may have landed unseen must not be skipped over.

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isWriteMethod = (method: string) => WRITE_METHODS.has(method);

function revision(v: unknown): bigint | undefined {
  return typeof v === 'string' && /^[1-9]\d{0,30}$/.test(v) ? BigInt(v) : undefined;
}

/** `group/resource` of an API path (`/api/v1/namespaces/ns/pods/a/status` → `/pods`), or undefined. */
export function resourceOfPath(path: string): string | undefined {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  let group: string;
  let rest: string[];
  if (segments[0] === 'api') [group, rest] = ['', segments.slice(2)];
  else if (segments[0] === 'apis') [group, rest] = [segments[1] ?? '', segments.slice(3)];
  else return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  return rest[0] ? `${group}/${rest[0]}` : undefined;
}

export class OwnWritesFloor {
  /** By resource: the newest revision written, or undefined while a write may have landed unseen. */
  private readonly floors = new Map<string, bigint | undefined>();

  /** A write to `path` answered with `answer`: the object written (its resourceVersion), or a Status. */
  wrote(path: string, answer: unknown): void {
    const resource = resourceOfPath(path);
    if (resource === undefined) return;
    const written = answer as { metadata?: { resourceVersion?: unknown }; items?: unknown } | null | undefined;
    // A list (a DELETE of a collection) carries etcd's revision, which that resource's cache may never reach.
    const rv = Array.isArray(written?.items) ? undefined : revision(written?.metadata?.resourceVersion);
    if (rv === undefined) return this.lost(path);
    const floor = this.floors.get(resource);
    this.floors.set(resource, floor === undefined || rv > floor ? rv : floor);
  }

  /** A watch of `path`'s resource delivered a change at `resourceVersion`. */
  saw(path: string, resourceVersion: string | undefined): void {
    const resource = resourceOfPath(path);
    const rv = revision(resourceVersion);
    const floor = resource === undefined ? undefined : this.floors.get(resource);
    if (floor !== undefined && rv !== undefined && rv > floor) this.floors.set(resource!, rv);
  }

  /** A write to `path` that may or may not have landed. */
  lost(path: string): void {
    const resource = resourceOfPath(path);
    if (resource !== undefined) this.floors.set(resource, undefined);
  }

  /** The resourceVersion to LIST `path`'s resource at, or undefined: read from etcd. */
  version(path: string): string | undefined {
    const resource = resourceOfPath(path);
    const floor = resource === undefined ? undefined : this.floors.get(resource);
    return floor === undefined ? undefined : String(floor);
  }
}
