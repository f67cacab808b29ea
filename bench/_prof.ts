import './offline-env.js';
import { FEATURES, webhookEndpoints, stateCollections } from '../src/registry.js';
import { buildStoredApp } from './real-app.js';
import { pushCollections } from '../src/admission/push.js';
import { buildBenchCluster, matchedPodReviews } from './sidecarset-cluster.js';
const cluster = await buildBenchCluster();
const { app, webhookSecret, syncToken } = await buildStoredApp('c', webhookEndpoints(FEATURES));
const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
await pushCollections({ baseUrl: 'http://x.invalid', clusterId: 'c', syncToken, fetch }, cluster.list, stateCollections(FEATURES));
const k = Number(process.argv[2] ?? 10) as 10;
const { bodies } = matchedPodReviews(k, 64);
console.log('request bytes', bodies[0]!.length);
const path = `http://x.invalid/clusters/c/${webhookSecret}/mutate-pod`;
const N = Number(process.argv[3] ?? 3000);
for (let round = 0; round < 3; round++) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const r = await app.request(path, { method: 'POST', body: bodies[i % 64], headers: { 'content-type': 'application/json' } });
    const t = await r.text();
    if (i === 0 && round === 0) console.log('answer bytes', t.length, r.status);
  }
  const c = process.cpuUsage(c0);
  console.log(`round ${round}: ${((performance.now() - t0) / N * 1000).toFixed(0)} µs/adm wall, ${((c.user + c.system) / N).toFixed(0)} µs cpu`);
}
