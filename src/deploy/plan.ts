// What `kruise-serverless deploy aws|cloudflare` runs: shell command lines, built from the options
// alone (pure). --dry-run prints them; otherwise they run one by one, as printed. Secrets never
// appear in them: they are read from environment variables or files when the lines run.
export class DeployOptionError extends Error {
  override name = 'DeployOptionError';
}

/** POSIX shell single quotes, unless the word needs none. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
/** A parameter whose value the shell expands when the line runs ("NAME=$VAR", "NAME=$(cat FILE)"). */
const expanded = (text: string) => ({ expanded: text });
type Word = string | { expanded: string };
const line = (words: Word[]) => words.map((w) => (typeof w === 'string' ? shellQuote(w) : `"${w.expanded}"`)).join(' ');

/**
 * The shell expansion that passes a JSON file as one `sam deploy --parameter-overrides` value.
 * SAM splits the overrides at spaces and treats `"` as quoting unless escaped (it unescapes `\"`),
 * so the JSON goes without whitespace (a registry has none inside its strings) and with escaped quotes.
 */
export function samJsonValue(file: string): string {
  return `$(tr -d ' \\n' < ${shellQuote(file)} | sed 's/"/\\\\"/g')`;
}

export type AwsDeployOptions = {
  clusterId: string;
  /** The JSON registry file (kruise-serverless cluster add --registry): the ClustersJson parameter. */
  registry: string;
  stackName?: string;
  region?: string;
  eks?: { cluster: string; endpoint: string; caDataFile: string; createAccessEntry: boolean };
  kubeconfigSecretArn?: string;
  /** A Worker whose ledgers the webhook uses and that the reconciler pushes to; sync token in $KS_SYNC_TOKEN. */
  edgeUrl?: string;
};

export function awsDeployPlan(o: AwsDeployOptions): string[] {
  if (!o.eks === !o.kubeconfigSecretArn) throw new DeployOptionError('give the cluster one way: --eks-cluster, --eks-endpoint and --eks-ca-data-file, or --kubeconfig-secret-arn');
  if (o.edgeUrl && !/^https:\/\//.test(o.edgeUrl)) throw new DeployOptionError(`--edge-url ${o.edgeUrl}: https only`);
  const stack = o.stackName ?? `kruise-serverless-${o.clusterId}`;
  const region: Word[] = o.region ? ['--region', o.region] : [];
  const params: Word[] = [
    `ClusterId=${o.clusterId}`,
    expanded(`ClustersJson=${samJsonValue(o.registry)}`),
    ...(o.eks
      ? [`EksClusterName=${o.eks.cluster}`, `EksEndpoint=${o.eks.endpoint}`, expanded(`EksCaData=$(cat ${shellQuote(o.eks.caDataFile)})`), `CreateEksAccessEntry=${o.eks.createAccessEntry}`]
      : [`KubeconfigSecretArn=${o.kubeconfigSecretArn}`]),
    ...(o.edgeUrl ? [`EdgeUrl=${o.edgeUrl}`, expanded('EdgeSyncToken=$KS_SYNC_TOKEN')] : []),
  ];
  return [
    line(['sam', 'build', '--template-file', 'infra/aws/template.yaml']),
    line(['sam', 'deploy', '--template-file', '.aws-sam/build/template.yaml', '--stack-name', stack, ...region, '--capabilities', 'CAPABILITY_IAM', '--resolve-s3',
      '--no-fail-on-empty-changeset', '--parameter-overrides', ...params]),
  ];
}

/** What to run once the stack is up: install the webhooks at its function URL. */
export function awsNextSteps(o: AwsDeployOptions): string[] {
  const stack = o.stackName ?? `kruise-serverless-${o.clusterId}`;
  const url = `$(aws cloudformation describe-stacks --stack-name ${shellQuote(stack)}${o.region ? ` --region ${shellQuote(o.region)}` : ''} --query "Stacks[0].Outputs[?OutputKey=='WebhookUrl'].OutputValue" --output text)`;
  return [line(['npx', 'kruise-serverless', 'install', '--base-url', expanded(url), '--cluster-id', o.clusterId, '--secret-file', 'webhook-secret', '--apply'])];
}

export type CloudflareDeployOptions = {
  /** Worker name (wrangler.toml's by default). */
  name?: string;
  /** Publish change events to this EventBridge bus (the AWS reconcilers); credentials from $AWS_ACCESS_KEY_ID / $AWS_SECRET_ACCESS_KEY. */
  eventBus?: { name: string; region: string };
};

export function cloudflareDeployPlan(o: CloudflareDeployOptions): string[] {
  const name: Word[] = o.name ? ['--name', o.name] : [];
  const secret = (key: string, from: string) => `printf %s "$${from}" | ${line(['npx', 'wrangler', 'secret', 'put', key, ...name])}`;
  return [
    line(['npx', 'wrangler', 'deploy', ...name, '--minify',
      ...(o.eventBus ? ['--var', `KS_EVENT_BUS_NAME:${o.eventBus.name}`, '--var', `AWS_REGION:${o.eventBus.region}`] : [])]),
    // After the deploy (putting a secret on a Worker that does not exist yet asks to create it);
    // until ADMIN_TOKEN is set the admin API answers 404 to everyone.
    secret('ADMIN_TOKEN', 'KS_ADMIN_TOKEN'),
    ...(o.eventBus ? [secret('AWS_ACCESS_KEY_ID', 'AWS_ACCESS_KEY_ID'), secret('AWS_SECRET_ACCESS_KEY', 'AWS_SECRET_ACCESS_KEY')] : []),
  ];
}

export function cloudflareNextSteps(clusterHint = 'CLUSTER_ID'): string[] {
  return [`npx kruise-serverless cluster add ${clusterHint} --edge-url https://<worker>.<subdomain>.workers.dev   # $KS_ADMIN_TOKEN: the same token`];
}
