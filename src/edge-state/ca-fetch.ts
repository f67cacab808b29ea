// Node only: a fetch for talking to an edge whose certificate comes from a private CA (local
// runs, self-hosted Node). Production edges have public certificates and use plain fetch.
import { Agent, fetch as undiciFetch } from 'undici';
import type { Fetch } from './push.js';

export function fetchTrustingCa(caPem: string | undefined): Fetch {
  if (!caPem) return (input, init) => fetch(input, init);
  const dispatcher = new Agent({ connect: { ca: caPem } });
  return (input, init) => undiciFetch(input, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
}
