// The Cloudflare Worker: admission webhooks, the sync API and the admin API for every cluster.
import { FEATURES } from '../../src/registry.js';
import { makeWorker } from './make-worker.js';

export { ClusterObject } from './cluster-object.js';
export default makeWorker(FEATURES);
