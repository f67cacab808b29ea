import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploy, type DeployArgs } from './deploy.js';

const ROOT = join(import.meta.dirname, '..', '..');

async function dryRun(target: string, a: DeployArgs): Promise<{ lines: string[]; log: string }> {
  let out = '';
  let log = '';
  expect(await deploy([target], { ...a, dryRun: true, out: (t) => (out += t), log: (m) => (log += `${m}\n`) })).toBe(0);
  return { lines: out.trimEnd().split('\n'), log };
}

describe('deploy aws --dry-run', () => {
  it('prints sam build and sam deploy with the parameters, secrets left to the shell', async () => {
    const { lines, log } = await dryRun('aws', {
      clusterId: 'prod-1', registry: 'clusters.json', region: 'eu-west-1', eksCluster: 'prod', eksEndpoint: 'https://ABC.gr7.eu-west-1.eks.amazonaws.com',
      eksCaDataFile: 'ca.b64', createEksAccessEntry: true, edgeUrl: 'https://edge.example',
    });
    expect(lines).toEqual([
      'sam build --template-file infra/aws/template.yaml',
      'sam deploy --template-file .aws-sam/build/template.yaml --stack-name kruise-serverless-prod-1 --region eu-west-1 --capabilities CAPABILITY_IAM --resolve-s3 ' +
        String.raw`--no-fail-on-empty-changeset --parameter-overrides ClusterId=prod-1 "ClustersJson=$(tr -d ' \n' < clusters.json | sed 's/"/\\"/g')" EksClusterName=prod ` +
        'EksEndpoint=https://ABC.gr7.eu-west-1.eks.amazonaws.com "EksCaData=$(cat ca.b64)" CreateEksAccessEntry=true EdgeUrl=https://edge.example "EdgeSyncToken=$KS_SYNC_TOKEN"',
    ]);
    expect(log).toContain('needs $KS_SYNC_TOKEN in the environment');
    expect(log).toContain(`npx kruise-serverless install --base-url "$(aws cloudformation describe-stacks --stack-name kruise-serverless-prod-1 --region eu-west-1 --query "Stacks[0].Outputs[?OutputKey=='WebhookUrl'].OutputValue" --output text)" --cluster-id prod-1 --secret-file webhook-secret --apply`);
  });

  it('names only parameters the template has, and quotes what the shell would split', async () => {
    const { lines } = await dryRun('aws', { clusterId: 'c1', registry: 'my clusters.json', kubeconfigSecretArn: 'arn:aws:secretsmanager:us-east-1:1:secret:kc', stackName: 'ks' });
    expect(lines[1]).toContain(`--stack-name ks --capabilities`);
    expect(lines[1]).toContain(String.raw`"ClustersJson=$(tr -d ' \n' < 'my clusters.json' | sed 's/"/\\"/g')" KubeconfigSecretArn=arn:aws:secretsmanager:us-east-1:1:secret:kc`);
    const text = readFileSync(join(ROOT, 'infra', 'aws', 'template.yaml'), 'utf8');
    const parameters = [...text.slice(text.indexOf('\nParameters:'), text.indexOf('\nRules:')).matchAll(/^ {2}(\w+):$/gm)].map((m) => m[1]!);
    const all = (await dryRun('aws', { clusterId: 'c1', registry: 'r.json', eksCluster: 'e', eksEndpoint: 'https://x', eksCaDataFile: 'ca', edgeUrl: 'https://edge' })).lines[1]!;
    const names = [...all.split('--parameter-overrides ')[1]!.matchAll(/(?:^| |")(\w+)=/g)].map((m) => m[1]!);
    expect(names.length).toBe(8);
    expect(parameters).toEqual(expect.arrayContaining(names));
    expect(parameters).toContain('ClustersJson');
  });

  it('refuses two cluster sources, or none', async () => {
    await expect(deploy(['aws'], { clusterId: 'c', registry: 'r', dryRun: true })).rejects.toThrow('give the cluster one way');
    await expect(deploy(['aws'], { clusterId: 'c', registry: 'r', kubeconfigSecretArn: 'a', eksCluster: 'e', eksEndpoint: 'https://x', eksCaDataFile: 'f', dryRun: true })).rejects.toThrow('give the cluster one way');
    await expect(deploy(['aws'], { registry: 'r', kubeconfigSecretArn: 'a', dryRun: true })).rejects.toThrow('missing --cluster-id');
  });
});

describe('deploy cloudflare --dry-run', () => {
  it('prints wrangler deploy (minified) and the admin token secret, read from $KS_ADMIN_TOKEN', async () => {
    expect((await dryRun('cloudflare', {})).lines).toEqual([
      'npx wrangler deploy --minify',
      'printf %s "$KS_ADMIN_TOKEN" | npx wrangler secret put ADMIN_TOKEN',
    ]);
  });

  it('with an EventBridge bus: its name and Region as vars, the AWS credentials as secrets', async () => {
    const { lines, log } = await dryRun('cloudflare', { name: 'ks-eu', eventBus: 'ks-prod-changes', region: 'eu-west-1' });
    expect(lines).toEqual([
      'npx wrangler deploy --name ks-eu --minify --var KS_EVENT_BUS_NAME:ks-prod-changes --var AWS_REGION:eu-west-1',
      'printf %s "$KS_ADMIN_TOKEN" | npx wrangler secret put ADMIN_TOKEN --name ks-eu',
      'printf %s "$AWS_ACCESS_KEY_ID" | npx wrangler secret put AWS_ACCESS_KEY_ID --name ks-eu',
      'printf %s "$AWS_SECRET_ACCESS_KEY" | npx wrangler secret put AWS_SECRET_ACCESS_KEY --name ks-eu',
    ]);
    expect(log).toContain('needs $KS_ADMIN_TOKEN, $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY in the environment');
    // The names the Worker reads (functions/worker/platform.ts).
    const platform = readFileSync(join(ROOT, 'functions', 'worker', 'platform.ts'), 'utf8');
    for (const name of ['ADMIN_TOKEN', 'KS_EVENT_BUS_NAME', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) expect(platform).toContain(`${name}?: string`);
  });
});

describe('the printed wrangler deploy', () => {
  it('is one wrangler accepts (its own --dry-run: bundles and lists the bindings, uploads nothing)', async () => {
    const { lines } = await dryRun('cloudflare', { eventBus: 'ks-prod-changes', region: 'eu-west-1' });
    const outdir = mkdtempSync(join(tmpdir(), 'ks-wrangler-'));
    try {
      const r = spawnSync('bash', ['-c', `${lines[0]} --dry-run --outdir ${outdir}`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' } });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/env\.KS_EVENT_BUS_NAME .*Environment Variable/);
      expect(r.stdout).toMatch(/env\.AWS_REGION .*Environment Variable/);
      // Minified: well under the 520 KiB of the unminified bundle.
      expect(statSync(join(outdir, 'index.js')).size).toBeLessThan(400 * 1024);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('deploy without --dry-run', () => {
  it('runs the printed commands in order, stopping at the first failure', async () => {
    const ran: string[] = [];
    const code = await deploy(['cloudflare'], { env: { KS_ADMIN_TOKEN: 't' }, log: () => undefined, run: (l) => (ran.push(l), ran.length === 1 ? 1 : 0) });
    expect([code, ran]).toEqual([1, ['npx wrangler deploy --minify']]);
  });

  it('needs the secrets in the environment first', async () => {
    await expect(deploy(['cloudflare'], { env: {}, run: () => 0 })).rejects.toThrow('deploy cloudflare: set $KS_ADMIN_TOKEN first');
  });
});
