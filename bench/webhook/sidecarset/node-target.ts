// The Node platform for the sidecarset scenario, in its own process: the production feature list
// (src/registry.ts FEATURES) on @hono/node-server over HTTPS, its state in a MemoryStateStore the
// parent fills through the sync API (the Node adapter proper reads the cluster live; there is no
// cluster here), and the echo beside it. Usage: node --import tsx bench/webhook/sidecarset/node-target.ts
// <cert.pem> <key.pem>. Prints one JSON line (SidecarSetNodeTarget); exits when its stdin closes.
import { FEATURES, webhookEndpoints } from '../../../src/registry.js';
import { serveEchoAndReal, tlsFromArgs } from '../../harness/node-serve.js';
import { buildStoredApp } from '../../harness/real-app.js';

export type SidecarSetNodeTarget = { echoUrl: string; realUrl: string; clusterId: string; webhookSecret: string; syncToken: string; pid: number };

const CLUSTER = 'bench-node';

const tls = tlsFromArgs('sidecarset-node-target.ts');
const { app, webhookSecret, syncToken } = await buildStoredApp(CLUSTER, webhookEndpoints(FEATURES));
const { echoUrl, realUrl } = await serveEchoAndReal(app, tls);
const target: SidecarSetNodeTarget = { echoUrl, realUrl, clusterId: CLUSTER, webhookSecret, syncToken, pid: process.pid };
process.stdout.write(`${JSON.stringify(target)}\n`);
