// The echo baseline as a Worker entry, for Miniflare. startLocalWorker binds the CLUSTERS Durable
// Object namespace, so its class is exported here too, though the echo never calls it.
import { buildEchoApp } from './echo-app.js';

export { ClusterObject } from '../functions/worker/cluster-object.js';
export default buildEchoApp();
