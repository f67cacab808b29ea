// Path-secret authentication. Managed clusters can only authenticate their API server to a URL
// webhook by a secret in the URL path, so the secret is a credential: 256 random bits per
// cluster, stored only as its SHA-256, compared in constant time. The sync API (reconcilers →
// edge) uses a separate token. Rotation keeps the old secret valid until an overlap window ends.
// Web Crypto only: this runs in Workers.

export type Credential = {
  /** SHA-256 of the secret, lowercase hex. */
  sha256: string;
  /** ms since epoch after which the credential no longer verifies; unset = no expiry. */
  notAfter?: number;
};

export type ClusterCredentials = {
  clusterId: string;
  webhookSecrets: Credential[];
  syncTokens: Credential[];
};

/** Where credentials live: a Durable Object per cluster at the edge, a file for Node. */
export interface ClusterRegistry {
  credentials(clusterId: string): Promise<ClusterCredentials | undefined>;
}

/** DNS-label-like ids: they appear in URLs, storage keys and Durable Object names. */
export const CLUSTER_ID = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function isClusterId(id: string): boolean {
  return CLUSTER_ID.test(id);
}

const encoder = new TextEncoder();

/** SHA-256 as lowercase hex. Web Crypto by default; Node binds node:crypto (much cheaper there). */
export type Hasher = (text: string) => string | Promise<string>;

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** A new 256-bit secret, hex encoded (64 characters, URL-safe). */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** Compares two equal-length strings without an early exit. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

// Compared against when a cluster is unknown, so unknown ids and wrong secrets cost the same.
const DUMMY: Credential[] = [{ sha256: '0'.repeat(64) }];

/**
 * True if `presented` matches a credential valid at `now`. Every credential is compared, and an
 * unknown cluster (undefined) is compared against a dummy, so timing reveals nothing.
 */
export async function verifySecret(presented: string, creds: Credential[] | undefined, now: number, hasher: Hasher = sha256Hex): Promise<boolean> {
  return matchesCredential(await hasher(presented), creds, now);
}

function matchesCredential(hash: string, creds: Credential[] | undefined, now: number): boolean {
  let ok = false;
  for (const c of creds ?? DUMMY) {
    const match = constantTimeEqual(hash, c.sha256);
    const live = c.notAfter === undefined || now <= c.notAfter;
    ok = (match && live && creds !== undefined) || ok;
  }
  return ok;
}

export type SecretVerifier = (presented: string, creds: Credential[] | undefined, now: number) => Promise<boolean>;

/**
 * verifySecret that remembers the hashes of secrets that verified (at most `capacity`, oldest
 * forgotten first), so the path secret every webhook call carries is hashed once per process or
 * isolate, not per call (Web Crypto's digest is a noticeable share of a Worker's admission). Each
 * call still compares against the credentials as they are now, so rotation and expiry apply at
 * once. Wrong secrets are never kept, so guessing cannot evict the right ones, and they cost
 * what they always did.
 */
export function secretVerifier(hasher: Hasher = sha256Hex, capacity = 256): SecretVerifier {
  const verified = new Map<string, string>();
  return async (presented, creds, now) => {
    const known = verified.get(presented);
    const hash = known ?? (await hasher(presented));
    const ok = matchesCredential(hash, creds, now);
    if (ok && known === undefined) {
      if (verified.size >= capacity) verified.delete(verified.keys().next().value as string);
      verified.set(presented, hash);
    }
    return ok;
  };
}

/**
 * Adds a new credential; credentials without an expiry get one `overlapMs` from now, and those
 * already expired are dropped. During the overlap both old and new verify.
 */
export function rotateCredentials(existing: Credential[], newSha256: string, now: number, overlapMs: number): Credential[] {
  const kept = existing
    .filter((c) => c.notAfter === undefined || c.notAfter > now)
    .map((c) => ({ sha256: c.sha256, notAfter: Math.min(c.notAfter ?? Infinity, now + overlapMs) }));
  return [...kept, { sha256: newSha256 }];
}

/** Reads a bearer token from an Authorization header value. */
export function bearerToken(header: string | undefined | null): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}
