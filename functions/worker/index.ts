// The Cloudflare Worker: admission webhooks, the sync API and the admin API for every cluster.
import { FEATURES, featuresFromEnv, ledgerKinds } from '../../src/registry.js';
import { makeLedgerObject } from './ledger-object.js';
import { makeWorker } from './make-worker.js';

export { ClusterObject } from './cluster-object.js';
export const LedgerObject = makeLedgerObject(ledgerKinds(FEATURES));
// Ledger kinds do not depend on the feature gates.
export default makeWorker(featuresFromEnv);
