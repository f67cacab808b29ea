// Validation of a sidecar's `resourcesPolicy` (OpenKruise validateResourcesPolicy and friends in
// pkg/webhook/sidecarset/validating): not together with resources, a regex that compiles, at least
// one of limits or requests, and expressions that evaluate with the variable set to 1. Paths and
// messages are OpenKruise's (`spec[i].resourcesPolicy…`, as its validation names them). Pure.
import type { FieldError } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { evaluateExpression } from './calculator.js';
import { goRegExp } from './go-regexp.js';
import { isNativeSidecar } from './hash.js';

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const nonEmpty = (v: unknown) => isRecord(v) && Object.keys(v).length > 0;

/** Go's %#v of an expression struct pointer: nil as Go writes it; otherwise its fields (Go would print an address). */
function goExprs(v: unknown, type: string): string {
  if (!isRecord(v)) return `(*v1beta1.${type})(nil)`;
  return `&v1beta1.${type}{CPU:${JSON.stringify(str(v.cpu))}, Memory:${JSON.stringify(str(v.memory))}}`;
}
const goResourcesExpr = (e: Obj) =>
  `v1beta1.ResourcesExpr{Limits:${goExprs(e.limits, 'ResourceExprLimits')}, Requests:${goExprs(e.requests, 'ResourceExprRequests')}}`;
const goPolicy = (p: Obj) =>
  `v1beta1.ResourcesPolicy{TargetContainersMode:${JSON.stringify(str(p.targetContainersMode))}, TargetContainersNameRegex:${JSON.stringify(str(p.targetContainersNameRegex))}, ResourcesExpr:${goResourcesExpr(isRecord(p.resourcesExpr) ? p.resourcesExpr : {})}}`;

/** validateResourceExpression: evaluates with the variable bound to the number 1. */
function expressionErrors(exprs: unknown, field: string): FieldError[] {
  if (!isRecord(exprs)) return [];
  const errs: FieldError[] = [];
  for (const variable of ['cpu', 'memory'] as const) {
    const expr = str(exprs[variable]);
    if (!expr) continue;
    const result = evaluateExpression(expr, { [variable]: { number: 1 } });
    if ('error' in result) errs.push({ field: `${field}.${variable}`, type: 'Invalid', value: expr, detail: `invalid expression: ${result.error}` });
  }
  return errs;
}

/** validateResourcesPolicy for one sidecar (`field` is `spec[i].resourcesPolicy`). */
export function resourcesPolicyErrors(container: Obj, field: string): FieldError[] {
  const policy = container.resourcesPolicy;
  if (!isRecord(policy)) return [];
  const resources = isRecord(container.resources) ? container.resources : {};
  if (nonEmpty(resources.limits) || nonEmpty(resources.requests)) {
    return [{ field, type: 'Invalid', goValue: goPolicy(policy), detail: 'resourcesPolicy and resources cannot be configured together' }];
  }
  const errs: FieldError[] = [];
  const regex = str(policy.targetContainersNameRegex);
  if (!regex) errs.push({ field: `${field}.targetContainersNameRegex`, type: 'Required', detail: 'invalid empty regex' });
  else {
    try {
      goRegExp(regex);
    } catch (e) {
      errs.push({ field: `${field}.targetContainersNameRegex`, type: 'Invalid', value: regex, detail: `invalid regex pattern: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  const expr = isRecord(policy.resourcesExpr) ? policy.resourcesExpr : {};
  if (!isRecord(expr.limits) && !isRecord(expr.requests)) {
    errs.push({ field: `${field}.resourcesExpr`, type: 'Invalid', goValue: goResourcesExpr(expr), detail: 'at least one of limits or requests must be configured' });
    return errs;
  }
  errs.push(...expressionErrors(expr.limits, `${field}.resourcesExpr.limits`), ...expressionErrors(expr.requests, `${field}.resourcesExpr.requests`));
  return errs;
}

/** The init-container check first: only a native sidecar (restartPolicy Always) may have a resourcesPolicy. */
export function initResourcesPolicyErrors(container: Obj, field: string): FieldError[] {
  if (!isRecord(container.resourcesPolicy)) return [];
  const errs: FieldError[] = [];
  if (!isNativeSidecar(container)) {
    errs.push({ field, type: 'Invalid', goValue: goPolicy(container.resourcesPolicy), detail: 'resourcesPolicy is only supported for containers with RestartPolicy Always' });
  }
  return [...errs, ...resourcesPolicyErrors(container, field)];
}
