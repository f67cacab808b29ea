// HTTPS to our local servers from tests: certificates from the control plane's CA, and a fetch
// that trusts it.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { inject } from 'vitest';
import { issueServingCert } from '../../cluster/pki.js';
import { fetchTrustingCa } from '../../../src/edge-state/ca-fetch.js';
import '../provided.js';

export function caPem(): string {
  return readFileSync(inject('caCert'), 'utf8');
}

/** A serving certificate for 127.0.0.1/localhost signed by the test cluster's CA. */
export function localServingCert(name = 'webhook'): { cert: string; key: string } {
  const { cert, key } = issueServingCert(dirname(inject('caCert')), name, ['localhost'], ['127.0.0.1']);
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

export const trustingFetch = fetchTrustingCa(caPem());
