// `kruise-serverless deploy aws|cloudflare [--dry-run]`: the commands that deploy the edge
// (src/deploy/plan.ts), printed with --dry-run, otherwise run in order with bash, stopping at the
// first that fails. Secrets come from the environment when the commands run, never from here.
import { spawnSync } from 'node:child_process';
import { awsDeployPlan, awsNextSteps, cloudflareDeployPlan, cloudflareNextSteps, DeployOptionError, type AwsDeployOptions, type CloudflareDeployOptions } from '../deploy/plan.js';

export type DeployArgs = {
  dryRun?: boolean;
  clusterId?: string;
  registry?: string;
  stackName?: string;
  region?: string;
  eksCluster?: string;
  eksEndpoint?: string;
  eksCaDataFile?: string;
  createEksAccessEntry?: boolean;
  kubeconfigSecretArn?: string;
  edgeUrl?: string;
  name?: string;
  eventBus?: string;
  env?: Record<string, string | undefined>;
  out?: (text: string) => void;
  log?: (message: string) => void;
  /** Runs one command line; returns its exit code. */
  run?: (line: string) => number;
};

const bash = (line: string): number => spawnSync('bash', ['-euo', 'pipefail', '-c', line], { stdio: 'inherit' }).status ?? 1;

export async function deploy(args: string[], a: DeployArgs): Promise<number> {
  const [target, ...extra] = args;
  if (extra.length) throw new DeployOptionError(`deploy: unexpected argument "${extra[0]}"`);
  const out = a.out ?? ((t) => process.stdout.write(t));
  const log = a.log ?? ((m) => process.stderr.write(`${m}\n`));
  const env = a.env ?? process.env;
  let plan: string[];
  let next: string[];
  let needs: string[];
  if (target === 'aws') {
    const o = awsOptions(a);
    plan = awsDeployPlan(o);
    next = awsNextSteps(o);
    needs = o.edgeUrl ? ['KS_SYNC_TOKEN'] : [];
  } else if (target === 'cloudflare') {
    const o = cloudflareOptions(a);
    plan = cloudflareDeployPlan(o);
    next = cloudflareNextSteps();
    needs = ['KS_ADMIN_TOKEN', ...(o.eventBus ? ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] : [])];
  } else {
    throw new DeployOptionError(target ? `deploy: unknown target "${target}" (aws, cloudflare)` : 'deploy: missing the target (aws, cloudflare)');
  }
  if (a.dryRun) {
    out(plan.map((l) => `${l}\n`).join(''));
    log(`needs ${needs.length ? needs.map((n) => `$${n}`).join(', ') : 'no secrets'} in the environment; then:\n${next.map((l) => `  ${l}`).join('\n')}`);
    return 0;
  }
  const missing = needs.filter((n) => !env[n]);
  if (missing.length) throw new DeployOptionError(`deploy ${target}: set ${missing.map((n) => `$${n}`).join(', ')} first`);
  const run = a.run ?? bash;
  for (const l of plan) {
    log(`+ ${l}`);
    const code = run(l);
    if (code !== 0) {
      log(`deploy ${target}: the command above failed (exit ${code})`);
      return 1;
    }
  }
  log(`deployed; next:\n${next.map((l) => `  ${l}`).join('\n')}`);
  return 0;
}

function required(v: string | undefined, flag: string): string {
  if (!v) throw new DeployOptionError(`deploy: missing ${flag}`);
  return v;
}

function awsOptions(a: DeployArgs): AwsDeployOptions {
  for (const [v, flag] of [[a.name, '--name'], [a.eventBus, '--event-bus']] as const) if (v !== undefined) throw new DeployOptionError(`${flag} is a deploy cloudflare option`);
  const eks = a.eksCluster !== undefined || a.eksEndpoint !== undefined || a.eksCaDataFile !== undefined;
  return {
    clusterId: required(a.clusterId, '--cluster-id'),
    registry: required(a.registry, '--registry (the cluster registry file: kruise-serverless cluster add ID --registry FILE)'),
    ...(a.stackName ? { stackName: a.stackName } : {}),
    ...(a.region ? { region: a.region } : {}),
    ...(eks ? { eks: { cluster: required(a.eksCluster, '--eks-cluster'), endpoint: required(a.eksEndpoint, '--eks-endpoint'), caDataFile: required(a.eksCaDataFile, '--eks-ca-data-file'), createAccessEntry: !!a.createEksAccessEntry } } : {}),
    ...(a.kubeconfigSecretArn ? { kubeconfigSecretArn: a.kubeconfigSecretArn } : {}),
    ...(a.edgeUrl ? { edgeUrl: a.edgeUrl } : {}),
  };
}

function cloudflareOptions(a: DeployArgs): CloudflareDeployOptions {
  const awsOnly = [[a.clusterId, '--cluster-id'], [a.registry, '--registry'], [a.stackName, '--stack-name'], [a.eksCluster, '--eks-cluster'], [a.kubeconfigSecretArn, '--kubeconfig-secret-arn'], [a.edgeUrl, '--edge-url']] as const;
  for (const [v, flag] of awsOnly) if (v !== undefined) throw new DeployOptionError(`${flag} is a deploy aws option`);
  if (a.eventBus !== undefined && !a.region) throw new DeployOptionError('--event-bus needs --region (the bus\'s Region)');
  return { ...(a.name ? { name: a.name } : {}), ...(a.eventBus ? { eventBus: { name: a.eventBus, region: a.region! } } : {}) };
}
