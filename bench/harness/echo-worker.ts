// The echo baseline as a Worker entry, for Miniflare. startLocalWorker binds the CLUSTERS and
// LEDGERS Durable Object namespaces, so their classes are exported here too, though the echo never
// calls them.
import { makeLedgerObject } from '../../functions/worker/ledger-object.js';
import { buildEchoApp } from './echo-app.js';

export { ClusterObject } from '../../functions/worker/cluster-object.js';
export const LedgerObject = makeLedgerObject([]);
export default buildEchoApp();
