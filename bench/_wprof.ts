import './offline-env.js';
import { Miniflare } from 'miniflare';
import { WebSocket } from 'undici';
import { writeFileSync } from 'node:fs';
import { bundleWorker, COMPATIBILITY_DATE } from '../scripts/local-worker.js';
import { newSecret } from '../src/admission/auth.js';
import { pushCollections } from '../src/admission/push.js';
import { FEATURES, stateCollections } from '../src/registry.js';
import { buildBenchCluster, matchedPodReviews } from './sidecarset-cluster.js';
import { stop } from 'esbuild';

const k = Number(process.argv[2] ?? 10) as 10;
const cluster = await buildBenchCluster();
const adminToken = newSecret();
const script = await bundleWorker();
await stop();
const mf = new Miniflare({
  modules: true, script, compatibilityDate: COMPATIBILITY_DATE, cf: false, host: '127.0.0.1', port: 0, inspectorPort: 9333,
  durableObjects: { CLUSTERS: 'ClusterObject', LEDGERS: { className: 'LedgerObject', useSQLite: true } },
  bindings: { ADMIN_TOKEN: adminToken },
});
const url = (await mf.ready).toString().replace(/\/$/, '');
const res = await fetch(`${url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: JSON.stringify({ clusterId: 'c' }) });
const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
await pushCollections({ baseUrl: url, clusterId: 'c', syncToken: creds.syncToken, fetch }, cluster.list, stateCollections(FEATURES));
const { bodies } = matchedPodReviews(k, 64);
const path = `${url}/clusters/c/${creds.webhookSecret}/mutate-pod`;
const drive = async (n: number) => { const t0 = performance.now(); let i = 0; await Promise.all(Array.from({ length: 4 }, async () => { while (i < n) { const r = await fetch(path, { method: 'POST', body: bodies[i++ % 64] }); await r.text(); } })); return (performance.now() - t0) / n; };
console.log('warm', (await drive(3000)).toFixed(3), 'ms/adm');
const targets = (await (await fetch('http://127.0.0.1:9333/json/list')).json()) as { id: string; title: string; webSocketDebuggerUrl: string }[];
console.log(targets.map((t) => t.title + ' ' + t.webSocketDebuggerUrl));
const target = targets.find((t) => !t.title.includes('entry') && !t.title.includes('Object')) ?? targets[0]!;
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener('open', r));
let id = 0; const pending = new Map<number, (v: unknown) => void>();
ws.addEventListener('message', (e) => { const m = JSON.parse(String(e.data)); if (m.id && pending.has(m.id)) { pending.get(m.id)!(m.result); pending.delete(m.id); } });
const send = (method: string, params: object = {}) => new Promise<any>((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
await send('Profiler.enable'); await send('Profiler.setSamplingInterval', { interval: 100 }); await send('Profiler.start');
console.log('measured', (await drive(4000)).toFixed(3), 'ms/adm');
const { profile } = await send('Profiler.stop');
writeFileSync('/tmp/wprof/w.cpuprofile', JSON.stringify(profile));
ws.close(); await mf.dispose();
