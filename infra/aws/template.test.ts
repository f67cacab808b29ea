// Checks the SAM template's wiring without AWS: parse it (CloudFormation short-form tags mapped to
// their long forms), then follow the references.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CFN_TAGS } from './cfn-tags.js';
import { LAMBDA_BANNER, LAMBDA_ENTRIES, LAMBDA_EXTERNAL, LAMBDA_TARGET } from '../../scripts/lambda-bundle.js';
import { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE } from '../../src/aws/change-events.js';
import { EMF_NAMESPACE, dimensionSets } from '../../src/telemetry/emf.js';
import { METRICS } from '../../src/telemetry/catalog.js';

const ROOT = join(import.meta.dirname, '..', '..');

// The build (scripts/build.ts, and `sam build`) bundles each Lambda entry to <name>.mjs.
const BUNDLE_SOURCES: Record<string, string> = Object.fromEntries(Object.entries(LAMBDA_ENTRIES).map(([name, src]) => [`${name}.mjs`, src]));


type Resource = { Type: string; Condition?: string; Metadata?: Record<string, any>; Properties: Record<string, any> };
type Template = { Parameters: Record<string, { Default?: unknown }>; Conditions: Record<string, unknown>; Resources: Record<string, Resource>; Rules?: unknown; Outputs?: Record<string, { Description?: string; Value: unknown }> };
const template = parse(readFileSync(join(ROOT, 'infra', 'aws', 'template.yaml'), 'utf8'), { customTags: CFN_TAGS }) as Template;
const resources = Object.entries(template.Resources);
const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);

const ref = (name: string) => ({ Ref: name });
const arnOf = (name: string) => ({ 'Fn::GetAtt': [name, 'Arn'] });

/** Both branches of every Fn::If, without AWS::NoValue: everything a deployment might contain. */
function branches(v: unknown): unknown[] {
  if (v && typeof v === 'object' && 'Fn::If' in v) {
    const [, a, b] = (v as { 'Fn::If': unknown[] })['Fn::If'];
    return [a, b].filter((x) => !(x && typeof x === 'object' && (x as { Ref?: string }).Ref === 'AWS::NoValue'));
  }
  return [v];
}
const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

type Statement = { Sid?: string; Effect: string; Action: string | string[]; Resource: unknown };
const statementsOf = (role: Resource): Statement[] =>
  (role.Properties.Policies as { PolicyDocument: { Statement: unknown[] } }[]).flatMap((p) => p.PolicyDocument.Statement.flatMap(branches)) as Statement[];

describe('functions', () => {
  const functions = ofType('AWS::Serverless::Function');

  it('are the webhook and the reconciler', () => {
    expect(functions.map(([id, f]) => [id, f.Properties.Handler])).toEqual([
      ['ReconcileFunction', 'reconcile.handler'],
      ['WebhookFunction', 'index.handler'],
    ]);
  });

  it.each(functions.map(([id, f]) => [id, f] as const))('%s runs on nodejs22.x, built by `sam build` as `npm run build` bundles it', (_id, f) => {
    expect(f.Properties.Runtime).toBe('nodejs22.x');
    // esbuild runs from the repository root (package.json, tsconfig.json).
    expect(f.Properties.CodeUri).toBe('../..');
    const file = (f.Properties.Handler as string).split('.')[0]!;
    expect(f.Metadata).toEqual({
      BuildMethod: 'esbuild',
      BuildProperties: {
        EntryPoints: [BUNDLE_SOURCES[`${file}.mjs`]], Format: 'esm', OutExtension: ['.js=.mjs'], Target: LAMBDA_TARGET,
        External: LAMBDA_EXTERNAL, Minify: false, Sourcemap: false, Banner: [`js=${LAMBDA_BANNER}`],
      },
    });
  });

  it.each(functions.map(([id, f]) => [id, f.Properties.Handler as string] as const))('%s: handler %s is exported by its source', async (_id, handler) => {
    const [file, exportName] = handler.split('.') as [string, string];
    const source = BUNDLE_SOURCES[`${file}.mjs`];
    expect(source, `no source known for dist/lambda/${file}.mjs`).toBeDefined();
    const mod = (await import(join(ROOT, source!))) as Record<string, unknown>;
    expect(typeof mod[exportName]).toBe('function');
  });

  it('the reconciler is configured through the variables its entry reads', () => {
    const vars = Object.keys(template.Resources.ReconcileFunction!.Properties.Environment.Variables as object);
    expect(vars).toEqual(['KS_CLUSTER_ID', 'KS_EKS_CLUSTER', 'KS_EKS_ENDPOINT', 'KS_EKS_CA_DATA', 'KS_KUBECONFIG_SECRET_ARN', 'KS_EDGE_URL', 'KS_SYNC_TOKEN', 'KS_REQUEUE_QUEUE_URL', 'KS_RESYNC_SECONDS']);
    const src = ['functions/lambda/reconcile.ts', 'functions/node/ports.ts', 'src/aws/kube-source-env.ts'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    for (const v of vars) expect(src).toContain(`env.${v}`);
  });

  it('the webhook is configured through the variables its entry reads', () => {
    const vars = Object.keys(template.Resources.WebhookFunction!.Properties.Environment.Variables as object);
    expect(vars).toEqual(['KS_CLUSTER_ID', 'KS_CLUSTERS_JSON', 'KS_EKS_CLUSTER', 'KS_EKS_ENDPOINT', 'KS_EKS_CA_DATA', 'KS_KUBECONFIG_SECRET_ARN', 'KS_EVENT_BUS_NAME', 'KS_EDGE_URL', 'KS_SYNC_TOKEN']);
    const src = ['functions/lambda/index.ts', 'functions/node/ports.ts', 'src/aws/kube-source-env.ts'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    for (const v of vars) expect(src).toContain(`env.${v}`);
  });

  it('the webhook reaches the cluster exactly as the reconciler does (its handlers list live state)', () => {
    const fns = template.Resources;
    const clusterVars = (id: string) => Object.fromEntries(Object.entries(fns[id]!.Properties.Environment.Variables as object).filter(([k]) => k.startsWith('KS_EKS_') || k === 'KS_KUBECONFIG_SECRET_ARN'));
    expect(Object.keys(clusterVars('WebhookFunction'))).toHaveLength(4);
    expect(clusterVars('WebhookFunction')).toEqual(clusterVars('ReconcileFunction'));
    expect(fns.WebhookFunction!.Properties.VpcConfig).toEqual(fns.ReconcileFunction!.Properties.VpcConfig);
    const entries = ofType('AWS::EKS::AccessEntry').map(([, e]) => [e.Condition, e.Properties.PrincipalArn, e.Properties.KubernetesGroups]);
    expect(entries).toEqual([
      ['CreateAccessEntry', arnOf('ReconcileRole'), ['kruise-serverless-reconciler']],
      ['CreateAccessEntry', arnOf('WebhookRole'), ['kruise-serverless-reconciler']],
    ]);
  });

  it('the webhook has a public function URL (the path secret authenticates)', () => {
    const [[, url]] = ofType('AWS::Lambda::Url') as [[string, Resource]];
    expect(url.Properties).toEqual({ TargetFunctionArn: arnOf('WebhookFunction'), AuthType: 'NONE' });
  });
});

describe('events', () => {
  const rules = Object.fromEntries(ofType('AWS::Events::Rule'));

  it('a rate(1 minute) schedule on the default bus targets the reconciler', () => {
    const rule = rules.ReconcileScheduleRule!;
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(rule.Properties.EventBusName).toBeUndefined();
    expect(rule.Properties.Targets.map((t: { Arn: unknown }) => t.Arn)).toEqual([arnOf('ReconcileFunction')]);
  });

  it('the ObjectChanged rule is on the custom bus, matches what the sink publishes and targets the reconciler', () => {
    const bus = template.Resources.ChangeEventBus!;
    expect(bus.Type).toBe('AWS::Events::EventBus');
    // Two clusters' stacks in one Region must not share (or fail on) one bus name.
    expect(bus.Properties.Name).toEqual({ 'Fn::If': ['NamedBus', ref('EventBusName'), { 'Fn::Sub': '${AWS::StackName}-changes' }] });
    expect(template.Parameters.EventBusName!.Default).toBe('');
    expect(template.Conditions.NamedBus).toEqual({ 'Fn::Not': [{ 'Fn::Equals': [ref('EventBusName'), ''] }] });
    const rule = rules.ObjectChangedRule!;
    expect(rule.Properties.EventBusName).toEqual(ref('ChangeEventBus'));
    expect(rule.Properties.EventPattern).toEqual({ source: [CHANGE_EVENT_SOURCE], 'detail-type': [CHANGE_EVENT_DETAIL_TYPE], detail: { clusterId: [ref('ClusterId')] } });
    expect(rule.Properties.Targets.map((t: { Arn: unknown }) => t.Arn)).toEqual([arnOf('ReconcileFunction')]);
  });

  it('EventBridge may invoke the reconciler only from those two rules', () => {
    const fromEvents = ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'events.amazonaws.com').map(([, p]) => p.Properties);
    expect(fromEvents).toEqual([
      { FunctionName: ref('ReconcileFunction'), Action: 'lambda:InvokeFunction', Principal: 'events.amazonaws.com', SourceArn: arnOf('ReconcileScheduleRule') },
      { FunctionName: ref('ReconcileFunction'), Action: 'lambda:InvokeFunction', Principal: 'events.amazonaws.com', SourceArn: arnOf('ObjectChangedRule') },
    ]);
  });

  it('public invoke permissions are only the function URL pair for the webhook', () => {
    const open = ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === '*').map(([, p]) => p.Properties);
    expect(open).toEqual([
      { FunctionName: ref('WebhookFunction'), Action: 'lambda:InvokeFunctionUrl', Principal: '*', FunctionUrlAuthType: 'NONE' },
      { FunctionName: ref('WebhookFunction'), Action: 'lambda:InvokeFunction', Principal: '*', InvokedViaFunctionUrl: true },
    ]);
  });
});

describe('wake-ups (SQS)', () => {
  const res = template.Resources;
  const fn = res.ReconcileFunction!.Properties;

  it('the reconciler gets the queue URL, and the schedule period matches the schedule rule', () => {
    expect(fn.Environment.Variables.KS_REQUEUE_QUEUE_URL).toEqual(ref('RequeueQueue'));
    const [, n, unit] = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(res.ReconcileScheduleRule!.Properties.ScheduleExpression as string)!;
    expect(Number(fn.Environment.Variables.KS_RESYNC_SECONDS)).toBe(Number(n) * (unit!.startsWith('hour') ? 3600 : 60));
  });

  it('the queue feeds the reconciler in batches, reporting partial batch failures', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toMatchObject({ FunctionName: ref('ReconcileFunction'), EventSourceArn: arnOf('RequeueQueue'), FunctionResponseTypes: ['ReportBatchItemFailures'], MaximumBatchingWindowInSeconds: 0 });
    expect(mappings[0]!.BatchSize).toBeLessThanOrEqual(10);
    // SAM would attach its own poller policy to a role it made; the role here is ours.
    expect(fn.Events).toBeUndefined();
  });

  it('a standard queue (FIFO has no per-message delay), invisible while a batch may still be running, with a dead-letter queue', () => {
    const q = res.RequeueQueue!;
    expect(q.Type).toBe('AWS::SQS::Queue');
    expect(q.Properties.FifoQueue).toBeUndefined();
    expect(q.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(fn.Timeout as number);
    expect(q.Properties.DelaySeconds ?? 0).toBe(0);
    expect(q.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf('RequeueDeadLetterQueue'), maxReceiveCount: expect.any(Number) });
    expect(res.RequeueDeadLetterQueue!.Type).toBe('AWS::SQS::Queue');
    // A standard queue's message keeps its enqueue time when moved, so the dead-letter queue must keep it longer.
    expect(res.RequeueDeadLetterQueue!.Properties.MessageRetentionPeriod).toBeGreaterThan(q.Properties.MessageRetentionPeriod as number);
  });
});

describe('IAM', () => {
  const roles = Object.fromEntries(ofType('AWS::IAM::Role'));

  it('each function uses its own role, assumable only by Lambda', () => {
    expect(template.Resources.ReconcileFunction!.Properties.Role).toEqual(arnOf('ReconcileRole'));
    expect(template.Resources.WebhookFunction!.Properties.Role).toEqual(arnOf('WebhookRole'));
    for (const role of Object.values(roles)) {
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }]);
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('the reconciler may log, send to and poll the requeue queue, read the one kubeconfig secret and (in a VPC) manage its interfaces', () => {
    expect(statementsOf(roles.ReconcileRole!).map((s) => [s.Sid, list(s.Action), s.Resource])).toEqual([
      ['Logs', ['logs:CreateLogStream', 'logs:PutLogEvents'], arnOf('ReconcileLogGroup')],
      ['RequeueSend', ['sqs:SendMessage'], arnOf('RequeueQueue')],
      ['RequeuePoll', ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'], arnOf('RequeueQueue')],
      ['KubeconfigSecret', ['secretsmanager:GetSecretValue'], ref('KubeconfigSecretArn')],
      ['VpcDescribe', ['ec2:DescribeNetworkInterfaces', 'ec2:DescribeSubnets'], '*'],
      ['VpcInterfaces', ['ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface', 'ec2:AssignPrivateIpAddresses', 'ec2:UnassignPrivateIpAddresses'], { 'Fn::Sub': 'arn:${AWS::Partition}:ec2:${AWS::Region}:${AWS::AccountId}:*/*' }],
    ]);
  });

  it('the webhook may log, put events on the custom bus, read the one kubeconfig secret and (in a VPC) manage its interfaces', () => {
    const reconciler = statementsOf(roles.ReconcileRole!).filter((s) => ['KubeconfigSecret', 'VpcDescribe', 'VpcInterfaces'].includes(s.Sid!));
    expect(statementsOf(roles.WebhookRole!)).toEqual([
      { Sid: 'Logs', Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: arnOf('WebhookLogGroup') },
      { Sid: 'PublishChangeEvents', Effect: 'Allow', Action: 'events:PutEvents', Resource: arnOf('ChangeEventBus') },
      ...reconciler,
    ]);
  });

  it('no wildcard actions; wildcard resources only where AWS requires them', () => {
    const all = Object.entries(roles).flatMap(([id, r]) => statementsOf(r).map((s) => ({ id, ...s })));
    expect(all.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(all.flatMap((s) => list(s.Action)).filter((a) => a.includes('*'))).toEqual([]);
    const wildcards = all.filter((s) => JSON.stringify(s.Resource).includes('*')).map((s) => `${s.id}/${s.Sid}`);
    // VpcDescribe: ec2:Describe* support no resource-level permissions.
    // VpcInterfaces: Lambda creates and deletes ENIs whose ids are not known in advance; scoped to
    // this account and Region (Lambda: "Configuring a Lambda function to access resources in a VPC").
    expect(wildcards).toEqual(['ReconcileRole/VpcDescribe', 'ReconcileRole/VpcInterfaces', 'WebhookRole/VpcDescribe', 'WebhookRole/VpcInterfaces']);
    // SQS only on the requeue queue, only for the reconciler.
    const sqs = all.filter((s) => list(s.Action).some((a) => a.startsWith('sqs:')));
    expect(sqs.map((s) => [s.id, s.Resource])).toEqual([['ReconcileRole', arnOf('RequeueQueue')], ['ReconcileRole', arnOf('RequeueQueue')]]);
    // Minting an EKS token calls nothing (sts:GetCallerIdentity needs no permission); endpoint and CA are parameters.
    expect(all.flatMap((s) => list(s.Action)).filter((a) => a.startsWith('eks:') || a.startsWith('sts:'))).toEqual([]);
  });
});

describe('references', () => {
  const pseudo = ['AWS::NoValue', 'AWS::Region', 'AWS::AccountId', 'AWS::Partition', 'AWS::StackName', 'AWS::URLSuffix'];
  const known = new Set([...Object.keys(template.Parameters), ...Object.keys(template.Resources), ...pseudo]);
  const found: { kind: string; name: string }[] = [];
  (function walk(v: unknown): void {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'Ref' && typeof x === 'string') found.push({ kind: 'Ref', name: x });
      else if (k === 'Fn::GetAtt') found.push({ kind: 'GetAtt', name: (x as string[])[0]! });
      else if (k === 'Condition' && typeof x === 'string') found.push({ kind: 'Condition', name: x });
      else if (k === 'Fn::Sub' && typeof x === 'string') for (const m of x.matchAll(/\$\{([^}!.]+)/g)) found.push({ kind: 'Sub', name: m[1]! });
      walk(x);
    }
  })({ ...template, Parameters: undefined });

  it('every Ref, GetAtt and Sub names a parameter, resource or pseudo parameter', () => {
    expect(found.filter((f) => f.kind !== 'Condition' && !known.has(f.name))).toEqual([]);
  });

  it('every Condition exists', () => {
    expect(found.filter((f) => f.kind === 'Condition' && !(f.name in template.Conditions))).toEqual([]);
  });
});

describe('outputs', () => {
  const cli = readFileSync(join(ROOT, 'src', 'cli', 'main.ts'), 'utf8');

  it('name only flags the command has (its usage line)', () => {
    const uses = Object.values(template.Outputs!).flatMap((o) => [...(o.Description ?? '').matchAll(/kruise-serverless (\w+) (--[a-z-]+)/g)].map((m) => [m[1]!, m[2]!] as const));
    expect(uses).toContainEqual(['install', '--base-url']);
    for (const [command, flag] of uses) expect(cli).toMatch(new RegExp(`\\n  kruise-serverless ${command} [^\\n]*${flag} `));
  });

  it('give both role ARNs to map to Kubernetes RBAC', () => {
    expect(template.Outputs!.ReconcileRoleArn!.Value).toEqual(arnOf('ReconcileRole'));
    expect(template.Outputs!.WebhookRoleArn!.Value).toEqual(arnOf('WebhookRole'));
  });
});

describe('alarms', () => {
  type Dimension = { Name: string; Value: unknown };
  const alarms = ofType('AWS::CloudWatch::Alarm').map(([id, a]) => ({ id, ...(a.Properties as { Namespace: string; MetricName: string; Dimensions: Dimension[]; AlarmActions: unknown }) }));
  const watched = (namespace: string, metric: string) => alarms.filter((a) => a.Namespace === namespace && a.MetricName === metric);
  const names = (a: { Dimensions: Dimension[] }) => JSON.stringify(a.Dimensions.map((d) => d.Value));

  it.each([
    ['the reconciler failing', 'AWS/Lambda', 'Errors', 'ReconcileFunction'],
    ['the reconciler throttled', 'AWS/Lambda', 'Throttles', 'ReconcileFunction'],
    ['the webhook failing', 'AWS/Lambda', 'Errors', 'WebhookFunction'],
    ['the webhook throttled', 'AWS/Lambda', 'Throttles', 'WebhookFunction'],
    ['the schedule failing to invoke', 'AWS/Events', 'FailedInvocations', 'ReconcileScheduleRule'],
    ['the schedule not running', 'AWS/Events', 'Invocations', 'ReconcileScheduleRule'],
    ['change events failing to invoke', 'AWS/Events', 'FailedInvocations', 'ObjectChangedRule'],
    ['wake-ups dead-lettered', 'AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'RequeueDeadLetterQueue'],
  ])('%s raises an alarm', (_what, namespace, metric, resource) => {
    expect(watched(namespace, metric).some((a) => names(a).includes(`"${resource}`))).toBe(true);
  });

  // The functions' EMF metrics: alarms watch the roll-ups the EMF lines declare (src/telemetry/emf.ts).
  it.each([
    ['reconcile runs or writes failing', 'ks_reconcile_errors_total', {}],
    ['pushes to the edge failing', 'ks_pushes_total', { result: 'failed' }],
    ['webhook handlers falling back', 'ks_admission_fallbacks_total', {}],
  ])('%s raises an alarm on a metric the code emits, with a dimension set it declares', (_what, metric, dims) => {
    const alarm = watched(EMF_NAMESPACE, metric)[0];
    expect(alarm).toBeDefined();
    expect(Object.fromEntries(alarm!.Dimensions.map((d) => [d.Name, d.Value]))).toEqual(dims);
    const def = Object.values(METRICS).find((m) => m.name === metric)!;
    expect(def.type).toBe('counter');
    expect(dimensionSets(def.labels)).toContainEqual(Object.keys(dims));
  });

  it('notify the optional topic', () => {
    for (const a of alarms) expect(a.AlarmActions).toEqual({ 'Fn::If': ['NotifyAlarms', [ref('AlarmTopicArn')], ref('AWS::NoValue')] });
  });
});
