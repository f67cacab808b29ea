// `kruise-serverless`: renders the cluster side (CRDs, namespace, RBAC, webhook configurations)
// as YAML, applies it, or removes it. Exit codes: 0 ok, 1 failure, 2 usage error.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import type { LabelSelector } from '../admission/types.js';
import { applyClusterSide, uninstallClusterSide } from '../install/apply.js';
import { serverKeepsNameLabel } from '../install/server-version.js';
import {
  checkWebhookTarget,
  DEFAULT_NAMESPACE,
  InstallOptionError,
  OPT_OUT_LABEL,
  OPT_OUT_VALUE,
  renderClusterSide,
  type FailurePolicy,
  type WebhookOverride,
} from '../install/render.js';
import { readCrdManifests } from '../kube/crd-manifests.js';
import { KubeHttp, type KubeObject } from '../kube/http.js';
import { loadKubeConnection } from '../kube/kubeconfig.js';
import { webhookEndpoints, withoutPodStatusObserver } from '../registry.js';
import { cluster, ClusterUsageError } from './cluster.js';
import { deploy } from './deploy.js';
import { DeployOptionError } from '../deploy/plan.js';
import { reconcile, type ReconcileOptions } from './reconcile.js';
import { nodeTelemetry } from '../telemetry/node.js';
import { telemetry } from '../telemetry/telemetry.js';
import { rollout, RolloutUsageError } from './rollout.js';
import { parseServiceRef, routeToService, serviceBaseUrl } from './webhook-service.js';
import { handback, takeover } from '../takeover/run.js';
import { HandbackRecordError } from '../takeover/handback-record.js';
import { reconcilersFromEnv } from '../reconcilers.js';
import { remoteLedgers } from '../edge-state/ledger-client.js';
import { fetchTrustingCa } from '../edge-state/ca-fetch.js';
import type { Ledgers } from '../edge-state/ledger.js';

const USAGE = `Usage:
  kruise-serverless install (--base-url URL | --webhook-service NS/NAME) --cluster-id ID --secret-file FILE [options]
  kruise-serverless uninstall [--namespace NS] [--purge-crds] [--purge-namespace] [--kubeconfig FILE] [--context NAME]
  kruise-serverless reconcile [--once | --dry-run] [--kind KIND] [--resync-seconds N] [--no-watch] [--verbose]
                              [--edge-url URL --cluster-id ID (+ $KS_SYNC_TOKEN) [--ca-bundle FILE]]
                              [--kubeconfig FILE] [--context NAME]
  kruise-serverless takeover (--base-url URL | --webhook-service NS/NAME) --cluster-id ID --secret-file FILE [install options]
                              [--edge-url URL] (+ $KS_SYNC_TOKEN) [--dry-run] [--force] [--kubeconfig FILE] [--context NAME]
  kruise-serverless handback [--dry-run] [--kubeconfig FILE] [--context NAME]
  kruise-serverless rollout status|history|pause|resume|restart|undo KIND/NAME [-n NS] [--kubeconfig FILE] [--context NAME]
                              [status: --timeout 5m --no-watch] [history: --revision N -o json|yaml] [undo: --to-revision N]
  kruise-serverless cluster add|rotate|remove ID | list  (--edge-url URL | --registry FILE)
                              [--dry-run] [-o json|yaml] [rotate: --credential webhook|sync --overlap-seconds N]
  kruise-serverless deploy aws --cluster-id ID --registry FILE [--stack-name S] [--region R] [--dry-run]
                              (--eks-cluster N --eks-endpoint URL --eks-ca-data-file F [--create-eks-access-entry]
                               | --kubeconfig-secret-arn ARN) [--edge-url URL (+ $KS_SYNC_TOKEN)]
  kruise-serverless deploy cloudflare [--name WORKER] [--event-bus BUS --region R] [--dry-run]
                              (+ $KS_ADMIN_TOKEN; with --event-bus $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY)

takeover moves a cluster from OpenKruise 1.9 to Kruise Serverless without restarting a pod (docs/takeover.md):
it refuses while kruise-controller-manager runs, removes OpenKruise's webhooks (saved for handback),
applies our CRDs, seeds the edge's PUB and WorkloadSpread ledgers from the status OpenKruise wrote (sync
token in $KS_SYNC_TOKEN; the sync API at --edge-url, default --base-url; it stops if the edge cannot take
them), runs every reconciler once in dry-run and stops if one would write a pod (--force goes on), then
installs our webhooks with the install options. --dry-run prints every step and changes nothing.
handback removes our webhooks and restores what takeover removed.

install prints the cluster side as YAML (kubectl apply --server-side -f -), or applies it with --apply:
our CRDs, a namespace, RBAC for the reconcilers, and webhook configurations calling
  URL/clusters/ID/SECRET/<endpoint path>

  --base-url URL                  where the edge serves webhooks (https only)
  --webhook-service NS/NAME[:PORT]
                                  instead of --base-url: the self-hosted webhook server's Service
                                    (infra/kustomize; port default 443); give its CA with --ca-bundle
  --cluster-id ID                 this cluster's id at the edge (a DNS label)
  --secret-file FILE              the cluster's path secret; or set $KS_WEBHOOK_SECRET,
  --secret S                        or pass it inline (it then lands in your shell history)
  --ca-bundle FILE                PEM CA, only if the edge's certificate is not publicly trusted
  --namespace NS                  namespace for the reconciler ServiceAccount (default ${DEFAULT_NAMESPACE};
                                    uninstall finds the installed one)
  --failure-policy [PATH=]Fail|Ignore
                                  per endpoint path, or for all endpoints without PATH= (repeatable)
  --namespace-selector PATH=KEY=VALUE
                                  only call endpoint PATH for namespaces labelled KEY=VALUE (repeatable)
  --object-selector PATH=KEY=VALUE
                                  only call endpoint PATH for objects labelled KEY=VALUE (repeatable)
  --endpoint-url PATH=URL         serve endpoint PATH from URL instead (same cluster id and secret;
                                    publicly trusted), e.g. validate-delete on the Lambda webhook
                                    to decide Cascading CRD deletions from live LISTs (repeatable)
  --node-loop                     the reconcilers run as the Node loop (reconcile, watching): leave out
                                    the pods/status observer, which only feeds the Lambda path
  --apply                         apply to the cluster instead of printing
  --force                         with --apply: keep the webhooks even if the edge answers them with an
                                    error (by default they are removed again: failurePolicy Fail would
                                    refuse every request they match)
  --kubeconfig FILE               default: $KUBECONFIG, then ~/.kube/config
  --context NAME                  the kubeconfig context to use (default: its current-context), as kubectl's

uninstall deletes the webhook configurations, then RBAC. CRDs and the namespace stay unless
--purge-crds (this deletes every OpenKruise object in the cluster) or --purge-namespace.

Namespaces labelled ${OPT_OUT_LABEL}=${OPT_OUT_VALUE} are never sent to the webhooks.

reconcile runs the reconcilers against the cluster: --once does one full resync and exits (for an
in-cluster CronJob); --dry-run prints the plans without writing; otherwise it keeps running,
resyncing every --resync-seconds (default 60) with watches triggering runs in between. With
--edge-url, every resync also pushes the state webhooks read to the edge (sync token in
$KS_SYNC_TOKEN). Concurrent invocations coordinate through a Lease: only one acts at a time.
It logs one line per push and one per run that wrote something; --verbose logs every run and
every collection pushed.

rollout follows and steers a workload's rollout (kinds: cloneset, statefulset (Advanced
StatefulSet, apps.kruise.io/v1beta1; also asts), daemonset (Advanced DaemonSet; also ads)): status
watches it, showing updated/ready/total and what it waits on, and exits 0 once complete (or complete
up to the partition), 1 on --timeout (default: none) or, with --no-watch, when not complete; history
lists its revisions (REVISION, CHANGE-CAUSE), or with --revision N that revision's pod template,
-o json|yaml as data; pause and resume set the paused flag (CloneSet spec.updateStrategy.paused,
the others spec.updateStrategy.rollingUpdate.paused); restart stamps the pod template with the time
(kubectl.kruise.io/restartedAt on a CloneSet, kubectl.kubernetes.io/restartedAt on the others, as
kubectl-kruise), which rolls every pod; undo puts back the previous revision's pod template, or
revision N's. -n NS defaults to the kubeconfig context's namespace.

cluster registers clusters with an edge and prints their new secrets (once): add makes a webhook
secret and a sync token, rotate a new one of either (the previous stays valid --overlap-seconds,
default 86400), remove forgets the cluster. --edge-url: a Worker's admin API (token in
$KS_ADMIN_TOKEN; it has no list). --registry FILE: the JSON registry of Node (KS_CLUSTERS_FILE)
and AWS Lambda (SAM parameter ClustersJson), rewritten in place; it says how to deploy it.
--dry-run prints the request or the change without making it.

deploy runs what deploys the edge: aws, sam build + sam deploy of infra/aws/template.yaml with its
parameters (ClustersJson from the registry file); cloudflare, wrangler deploy (minified) and its
secrets (ADMIN_TOKEN from $KS_ADMIN_TOKEN). --dry-run prints exactly those commands. Secrets stay
in the environment and files: the commands expand them when they run.
`;

/** Wrong arguments: print the message (and a hint), exit 2. */
class UsageError extends Error {
  override name = 'UsageError';
}

const OPTIONS = {
  'base-url': { type: 'string' },
  'webhook-service': { type: 'string' },
  'cluster-id': { type: 'string' },
  secret: { type: 'string' },
  'secret-file': { type: 'string' },
  'ca-bundle': { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'failure-policy': { type: 'string', multiple: true },
  'endpoint-url': { type: 'string', multiple: true },
  'namespace-selector': { type: 'string', multiple: true },
  'object-selector': { type: 'string', multiple: true },
  apply: { type: 'boolean' },
  force: { type: 'boolean' },
  'node-loop': { type: 'boolean' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  revision: { type: 'string' },
  'purge-crds': { type: 'boolean' },
  'purge-namespace': { type: 'boolean' },
  once: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  kind: { type: 'string' },
  identity: { type: 'string' },
  'resync-seconds': { type: 'string' },
  'no-watch': { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  'edge-url': { type: 'string' },
  timeout: { type: 'string' },
  'to-revision': { type: 'string' },
  registry: { type: 'string' },
  credential: { type: 'string' },
  'overlap-seconds': { type: 'string' },
  output: { type: 'string', short: 'o' },
  'stack-name': { type: 'string' },
  region: { type: 'string' },
  'eks-cluster': { type: 'string' },
  'eks-endpoint': { type: 'string' },
  'eks-ca-data-file': { type: 'string' },
  'create-eks-access-entry': { type: 'boolean' },
  'kubeconfig-secret-arn': { type: 'string' },
  name: { type: 'string' },
  'event-bus': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export async function main(argv: string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    const [command, ...extra] = positionals;
    if (values.help || command === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    if (command === 'rollout') {
      return await rollout(extra, {
        namespace: values.namespace, kubeconfig: values.kubeconfig, context: values.context, timeout: values.timeout,
        noWatch: values['no-watch'], toRevision: values['to-revision'], revision: values.revision, output: values.output,
      });
    }
    if (values.context !== undefined && !['install', 'uninstall', 'reconcile', 'takeover', 'handback'].includes(command ?? '')) {
      throw new UsageError(`--context: ${command ?? 'this command'} does not talk to a cluster`);
    }
    if (command === 'cluster') {
      return await cluster(extra, {
        ...(values['edge-url'] !== undefined ? { edgeUrl: values['edge-url'] } : {}),
        ...(values.registry !== undefined ? { registry: values.registry } : {}),
        ...(values.credential !== undefined ? { credential: values.credential } : {}),
        ...(values['overlap-seconds'] !== undefined ? { overlapSeconds: values['overlap-seconds'] } : {}),
        ...(values.output !== undefined ? { output: values.output } : {}),
        dryRun: !!values['dry-run'],
      });
    }
    if (command === 'deploy') {
      const defined = <K extends string, V>(k: K, v: V | undefined) => (v === undefined ? {} : ({ [k]: v } as Record<K, V>));
      return await deploy(extra, {
        dryRun: !!values['dry-run'], createEksAccessEntry: !!values['create-eks-access-entry'],
        ...defined('clusterId', values['cluster-id']), ...defined('registry', values.registry), ...defined('stackName', values['stack-name']),
        ...defined('region', values.region), ...defined('eksCluster', values['eks-cluster']), ...defined('eksEndpoint', values['eks-endpoint']),
        ...defined('eksCaDataFile', values['eks-ca-data-file']), ...defined('kubeconfigSecretArn', values['kubeconfig-secret-arn']),
        ...defined('edgeUrl', values['edge-url']), ...defined('name', values.name), ...defined('eventBus', values['event-bus']),
      });
    }
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (command === 'install') await install(values);
    else if (command === 'uninstall') await uninstall(values);
    else if (command === 'reconcile') return await reconcileCommand(values);
    else if (command === 'takeover') await takeoverCommand(values);
    else if (command === 'handback') await handbackCommand(values);
    else throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
    return 0;
  } catch (e) {
    const usage = e instanceof UsageError || e instanceof HandbackRecordError || e instanceof InstallOptionError || e instanceof RolloutUsageError || e instanceof ClusterUsageError || e instanceof DeployOptionError;
    process.stderr.write(`kruise-serverless: ${(e as Error).message ?? String(e)}\n`);
    if (usage) process.stderr.write('Run `kruise-serverless --help` for usage.\n');
    else if (process.env.KS_DEBUG) process.stderr.write(`${(e as Error).stack}\n`);
    return usage ? 2 : 1;
  }
}

async function install(v: Values): Promise<void> {
  if (!v.apply) for (const o of ['kubeconfig', 'context', 'force'] as const) if (v[o]) throw new UsageError(`--${o} needs --apply`);
  const { render, clusterId, endpoints } = installRenderer(v);
  // Printed for a current cluster (1.21+); applied for the cluster's own version.
  const printed = render(true);
  if (!v.apply) {
    process.stdout.write(toYaml(printed, clusterId));
    return;
  }
  await withKube(v, async (kube) => applyClusterSide(kube, render(await serverKeepsNameLabel(kube)), { log, ...(v.force ? { force: true } : {}) }));
  const hooks = endpoints.length;
  log(`installed for cluster ${clusterId}: ${hooks} webhook endpoint${hooks === 1 ? '' : 's'} registered`);
}

/** The cluster side `install` renders from its options (takeover applies the same). */
function installRenderer(v: Values) {
  const service = v['webhook-service'] === undefined ? undefined : parseServiceRef(v['webhook-service']);
  if (service && 'error' in service) throw new UsageError(service.error);
  if (service && v['base-url'] !== undefined) throw new UsageError('give either --base-url or --webhook-service, not both');
  const baseUrl = service ? serviceBaseUrl(service) : required(v['base-url'], '--base-url');
  const clusterId = required(v['cluster-id'], '--cluster-id');
  const secret = readSecret(v);
  checkWebhookTarget(baseUrl, clusterId, secret);
  const endpoints = v['node-loop'] ? withoutPodStatusObserver(webhookEndpoints()) : webhookEndpoints();
  const routed = (objects: KubeObject[]) => (service ? routeToService(objects, service) : objects);
  const render = (nameLabelKept: boolean) => routed(renderClusterSide({
    baseUrl,
    clusterId,
    secret,
    ...(v['ca-bundle'] ? { caBundle: readUserFile(v['ca-bundle'], '--ca-bundle') } : {}),
    ...(v.namespace ? { namespace: v.namespace } : {}),
    endpoints,
    crds: readCrdManifests(crdDir()),
    overrides: overrides(v, endpoints.map((e) => e.path)),
    nameLabelKept,
  }));
  return { render, clusterId, endpoints };
}

async function takeoverCommand(v: Values): Promise<void> {
  if (v.apply) throw new UsageError('takeover applies by itself; use --dry-run to see the steps');
  const { render, clusterId } = installRenderer(v);
  const ledgers = takeoverLedgers(v, clusterId);
  await withKube(v, async (kube) =>
    takeover(kube, {
      dryRun: !!v['dry-run'], force: !!v.force, clusterSide: render(await serverKeepsNameLabel(kube)),
      reconcilers: reconcilersFromEnv(process.env), ...(ledgers ? { ledgers } : {}), out: (m) => process.stdout.write(`${m}\n`),
    }),
  );
}

/** The edge's ledgers step 4 seeds: its sync API (--edge-url, else --base-url) with $KS_SYNC_TOKEN. A dry run needs none. */
function takeoverLedgers(v: Values, clusterId: string): Ledgers | undefined {
  const url = v['edge-url'] ?? v['base-url'];
  const syncToken = process.env.KS_SYNC_TOKEN;
  if (v['dry-run'] && (!url || !syncToken)) return undefined;
  if (!syncToken) throw new UsageError('takeover seeds the edge\'s ledgers (step 4): set $KS_SYNC_TOKEN to the cluster\'s sync token');
  if (!url) throw new UsageError('takeover with --webhook-service: give the edge\'s sync API with --edge-url URL (step 4 seeds its ledgers)');
  const fetch = fetchTrustingCa(v['ca-bundle'] ? readUserFile(v['ca-bundle'], '--ca-bundle') : undefined);
  return remoteLedgers({ baseUrl: url.replace(/\/$/, ''), clusterId, syncToken, fetch });
}

async function handbackCommand(v: Values): Promise<void> {
  await withKube(v, (kube) => handback(kube, { dryRun: !!v['dry-run'], out: (m) => process.stdout.write(`${m}\n`) }));
}

async function reconcileCommand(v: Values): Promise<number> {
  const resync = Number(v['resync-seconds'] ?? '60');
  if (!Number.isFinite(resync) || resync < 1) throw new UsageError('--resync-seconds must be a number ≥ 1');
  let edge: ReconcileOptions['edge'];
  if (v['edge-url']) {
    const syncToken = process.env.KS_SYNC_TOKEN;
    if (!syncToken) throw new UsageError('--edge-url needs the sync token in $KS_SYNC_TOKEN');
    edge = { url: v['edge-url'], clusterId: required(v['cluster-id'], '--cluster-id'), syncToken, ...(v['ca-bundle'] ? { caFile: v['ca-bundle'] } : {}) };
  }
  let code = 0;
  await withKube(v, async (kube) => {
    code = await reconcile(kube, {
      once: !!v.once, dryRun: !!v['dry-run'], ...(v.kind ? { kind: v.kind } : {}), ...(v.identity ? { identity: v.identity } : {}),
      resyncSeconds: resync, watch: !v['no-watch'], verbose: !!v.verbose, ...(edge ? { edge } : {}), out: (m) => process.stdout.write(`${m}\n`),
      // The long-running loop is a service: JSON lines with a level (KS_LOG_LEVEL). One-shot runs keep plain lines.
      log: v.once || v['dry-run'] ? log : (nodeTelemetry(), (m: string) => telemetry().log.info(m)),
    });
  });
  return code;
}

async function uninstall(v: Values): Promise<void> {
  for (const o of ['base-url', 'webhook-service', 'cluster-id', 'secret', 'secret-file', 'ca-bundle', 'failure-policy', 'endpoint-url', 'namespace-selector', 'object-selector', 'apply', 'force'] as const) {
    if (v[o] !== undefined) throw new UsageError(`--${o} is an install option`);
  }
  const purgeCrds = v['purge-crds'] ? (readCrdManifests(crdDir())) : [];
  await withKube(v, (kube) =>
    uninstallClusterSide(kube, { ...(v.namespace ? { namespace: v.namespace } : {}), purgeCrds, purgeNamespace: !!v['purge-namespace'], log }),
  );
  log('uninstalled');
}

function readSecret(v: Values): string {
  if (v.secret !== undefined && v['secret-file'] !== undefined) throw new UsageError('give either --secret or --secret-file, not both');
  const secret = v.secret ?? (v['secret-file'] !== undefined ? readUserFile(v['secret-file'], '--secret-file') : process.env.KS_WEBHOOK_SECRET);
  if (secret === undefined || secret.trim() === '') throw new UsageError('missing the webhook secret: pass --secret-file FILE or set $KS_WEBHOOK_SECRET');
  return secret.trim();
}

function overrides(v: Values, paths: string[]): Record<string, WebhookOverride> {
  const out: Record<string, WebhookOverride> = {};
  const at = (path: string, flag: string): WebhookOverride => {
    if (!paths.includes(path)) throw new UsageError(`${flag}: no webhook endpoint "${path}" (endpoints: ${paths.join(', ') || 'none'})`);
    return (out[path] ??= {});
  };
  for (const arg of v['failure-policy'] ?? []) {
    const eq = arg.lastIndexOf('=');
    const policy = arg.slice(eq + 1);
    if (policy !== 'Fail' && policy !== 'Ignore') throw new UsageError(`--failure-policy "${arg}": expected [PATH=]Fail or [PATH=]Ignore`);
    for (const path of eq < 0 ? paths : [arg.slice(0, eq)]) at(path, '--failure-policy').failurePolicy = policy as FailurePolicy;
  }
  for (const arg of v['endpoint-url'] ?? []) {
    const eq = arg.indexOf('=');
    if (eq < 1) throw new UsageError(`--endpoint-url "${arg}": expected PATH=URL`);
    at(arg.slice(0, eq), '--endpoint-url').baseUrl = arg.slice(eq + 1);
  }
  for (const field of ['namespace-selector', 'object-selector'] as const) {
    const key = field === 'namespace-selector' ? 'namespaceSelector' : 'objectSelector';
    for (const arg of v[field] ?? []) {
      const m = /^([^=]+)=([^=]+)=([^=]*)$/.exec(arg);
      if (!m) throw new UsageError(`--${field} "${arg}": expected PATH=KEY=VALUE`);
      const [, path, label, value] = m as unknown as [string, string, string, string];
      const o = at(path, `--${field}`);
      const sel: LabelSelector = (o[key] ??= {});
      sel.matchLabels = { ...sel.matchLabels, [label]: value };
    }
  }
  return out;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing ${flag}`);
  return value;
}

function readUserFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag} ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

async function withKube(v: Pick<Values, 'kubeconfig' | 'context'>, run: (kube: KubeHttp) => Promise<void>): Promise<void> {
  if (v.kubeconfig && !existsSync(v.kubeconfig)) throw new UsageError(`--kubeconfig ${v.kubeconfig}: no such file`);
  const kube = KubeHttp.connect(await loadKubeConnection(v.kubeconfig, process.env, undefined, v.context));
  try {
    await run(kube);
  } finally {
    kube.close();
  }
}

function toYaml(objects: KubeObject[], clusterId: string): string {
  const header = [
    `# Kruise Serverless, cluster side for cluster "${clusterId}". Contains the webhook secret: treat as a credential.`,
    '# Apply with: kubectl apply --server-side --field-manager=kruise-serverless -f -',
    `# On Kubernetes < 1.21 also run: kubectl label namespace kube-system ${OPT_OUT_LABEL}=${OPT_OUT_VALUE}`,
    '',
  ].join('\n');
  return header + objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n');
}

/** infra/crds, found from this file whether it runs from src/cli/ or a bundle in dist/. */
function crdDir(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), i = 0; i < 4; dir = dirname(dir), i++) {
    if (existsSync(join(dir, 'infra', 'crds'))) return join(dir, 'infra', 'crds');
  }
  throw new Error('cannot find infra/crds next to the kruise-serverless install');
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

// `kruise-serverless install ... | head` closes stdout early: that is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => process.exit(e.code === 'EPIPE' ? 0 : 1));
process.exitCode = await main(process.argv.slice(2));
