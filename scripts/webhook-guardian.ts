// Removes `npm start`'s webhook configurations if `npm start` dies without doing so itself.
// Started detached (its own process group, so Ctrl-C does not reach it) with its standard input
// a pipe from `npm start`: EOF without a "released" line first means `npm start` is gone (killed,
// crashed, or stopped by a broken stdout such as `npm start | tee log` after Ctrl-C), and a
// configuration left pointing at a stopped edge would block every pod creation.
//   node --import tsx scripts/webhook-guardian.ts KUBECONFIG EDGE_URL
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeHttp, type KubeObject } from '../src/kube/http.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { isNotFound } from '../src/kube/errors.js';
import { MUTATING_CONFIG, VALIDATING_CONFIG } from '../src/install/render.js';
import { REPO_ROOT } from '../test/cluster/control-plane.js';

const [kubeconfig, edgeUrl] = process.argv.slice(2);
const LOG = join(REPO_ROOT, '.kruise-serverless', 'webhook-guardian.log');
const log = (m: string) => {
  try {
    appendFileSync(LOG, `${new Date().toISOString()} ${m}\n`);
  } catch {
    // nowhere to write: the removal matters, not the note
  }
};

for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => undefined);

type WebhookConfig = KubeObject & { webhooks?: { clientConfig?: { url?: string } }[] };

/** Deletes our configuration of `kind` if it still calls this edge (a newer `npm start` may own it). */
async function removeIfOurs(kube: KubeHttp, kind: string, name: string): Promise<void> {
  try {
    const live = await kube.get<WebhookConfig>('admissionregistration.k8s.io/v1', kind, name);
    if (!(live.webhooks ?? []).some((w) => w.clientConfig?.url?.startsWith(`${edgeUrl}/`))) return;
    await kube.delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name } });
    log(`deleted ${kind} ${name}`);
  } catch (e) {
    if (!isNotFound(e)) log(`${kind} ${name}: ${String(e)}`);
  }
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => (input += chunk));
process.stdin.on('end', () => {
  if (input.includes('released')) {
    log(`npm start (edge ${edgeUrl}) released: it removed its webhook configurations itself`);
    process.exit(0);
  }
  log(`npm start (edge ${edgeUrl}) ended without removing its webhook configurations: removing them`);
  void (async () => {
    const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig));
    await removeIfOurs(kube, 'MutatingWebhookConfiguration', MUTATING_CONFIG);
    await removeIfOurs(kube, 'ValidatingWebhookConfiguration', VALIDATING_CONFIG);
    kube.close();
    process.exit(0);
  })();
});
