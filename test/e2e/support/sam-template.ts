// Reads infra/aws/template.yaml as CloudFormation would for one deployment: parameters filled in
// (defaults for the rest), conditions evaluated, and intrinsic functions resolved, so a test can
// run a function with exactly the environment the template gives it. Resources resolve to the
// names a test supplies (what Ref / GetAtt of them would be once deployed).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CFN_TAGS } from '../../../infra/aws/cfn-tags.js';


type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
export type SamTemplate = {
  Parameters: Record<string, { Default?: Json; Type?: string }>;
  Conditions: Record<string, Json>;
  Resources: Record<string, { Type: string; Properties: Record<string, Json> }>;
};

export function readSamTemplate(path: string): SamTemplate {
  return parse(readFileSync(path, 'utf8'), { customTags: CFN_TAGS }) as SamTemplate;
}

const NO_VALUE = Symbol('AWS::NoValue');

export type Deployment = {
  stackName: string;
  region: string;
  accountId: string;
  parameters: Record<string, string>;
  /** Ref of a resource: its physical id (a queue URL, a bus name...). */
  refs: Record<string, string>;
  /** GetAtt Resource.Attribute. */
  attributes?: Record<string, string>;
};

/** The function's Environment.Variables as deployed (variables resolving to AWS::NoValue are absent). */
export function functionEnvironment(t: SamTemplate, functionId: string, d: Deployment): Record<string, string> {
  const fn = t.Resources[functionId];
  if (!fn) throw new Error(`no resource ${functionId}`);
  const vars = (fn.Properties.Environment as { Variables?: Record<string, Json> } | undefined)?.Variables ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) {
    const r = resolve(t, d, v);
    if (r === NO_VALUE) continue;
    if (typeof r !== 'string') throw new Error(`${functionId} ${k}: resolves to ${JSON.stringify(r)}, not a string`);
    out[k] = r;
  }
  return out;
}

function parameter(t: SamTemplate, d: Deployment, name: string): string {
  if (name in d.parameters) return d.parameters[name]!;
  const p = t.Parameters[name];
  if (!p) throw new Error(`no parameter ${name}`);
  if (p.Default === undefined) throw new Error(`parameter ${name} has no default: give it`);
  return String(p.Default);
}

function condition(t: SamTemplate, d: Deployment, name: string): boolean {
  const c = t.Conditions[name];
  if (c === undefined) throw new Error(`no condition ${name}`);
  return resolve(t, d, c) === true;
}

function resolve(t: SamTemplate, d: Deployment, v: Json): Json | typeof NO_VALUE {
  if (Array.isArray(v)) return v.map((x) => resolve(t, d, x)).filter((x): x is Json => x !== NO_VALUE);
  if (!v || typeof v !== 'object') return v;
  const [[key, arg]] = Object.entries(v) as [[string, Json]];
  const r = (x: Json) => resolve(t, d, x);
  switch (key) {
    case 'Ref': {
      const name = arg as string;
      if (name === 'AWS::NoValue') return NO_VALUE;
      if (name === 'AWS::StackName') return d.stackName;
      if (name === 'AWS::Region') return d.region;
      if (name === 'AWS::AccountId') return d.accountId;
      if (name === 'AWS::Partition') return 'aws';
      if (name in t.Parameters) return parameter(t, d, name);
      if (name in d.refs) return d.refs[name]!;
      // Ref of an event bus is its name.
      const res = t.Resources[name];
      if (res?.Type === 'AWS::Events::EventBus') return r(res.Properties.Name!);
      throw new Error(`Ref ${name}: give the resource's physical id`);
    }
    case 'Fn::GetAtt': {
      const key = (arg as string[]).join('.');
      if (d.attributes && key in d.attributes) return d.attributes[key]!;
      throw new Error(`GetAtt ${key}: give its value`);
    }
    case 'Condition':
      return condition(t, d, arg as string);
    case 'Fn::If': {
      const [name, a, b] = arg as [string, Json, Json];
      return condition(t, d, name) ? r(a) : r(b);
    }
    case 'Fn::Equals': {
      const [a, b] = arg as [Json, Json];
      return JSON.stringify(r(a)) === JSON.stringify(r(b));
    }
    case 'Fn::Not':
      return !(r((arg as Json[])[0]!) as boolean);
    case 'Fn::And':
      return (arg as Json[]).every((x) => r(x) === true);
    case 'Fn::Or':
      return (arg as Json[]).some((x) => r(x) === true);
    case 'Fn::Join': {
      const [sep, list] = arg as [string, Json];
      const items = r(list);
      return (Array.isArray(items) ? items : String(items).split(',')).map(String).join(sep);
    }
    case 'Fn::Sub':
      return (arg as string).replace(/\$\{([^}]+)\}/g, (_m, name: string) => String(name.includes('.') ? r({ 'Fn::GetAtt': name.split('.') }) : r({ Ref: name })));
    default:
      throw new Error(`${key}: not resolved here`);
  }
}
