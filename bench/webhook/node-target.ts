// The Node platform in its own process, as workerd is for the Worker, so the load generator does
// not share the servers' event loop: the echo and the real app, each on @hono/node-server over
// HTTPS on 127.0.0.1. Usage: node --import tsx bench/webhook/node-target.ts <cert.pem> <key.pem>
// Prints one JSON line (NodeTargets) when listening; exits when its stdin closes.
import { serveEchoAndReal, tlsFromArgs } from '../harness/node-serve.js';
import { buildRealApp } from '../harness/real-app.js';

export type NodeTargets = { echoUrl: string; realUrl: string; webhookPath: string; pid: number };

const tls = tlsFromArgs('node-target.ts');
const real = await buildRealApp();
const { echoUrl, realUrl } = await serveEchoAndReal(real.app, tls);
const targets: NodeTargets = { echoUrl, realUrl, webhookPath: real.webhookPath, pid: process.pid };
process.stdout.write(`${JSON.stringify(targets)}\n`);
