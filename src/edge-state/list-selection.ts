// Whether one object falls inside a collection's LIST selection (CollectionSpec.select), so an
// admitted object is written through only to the collections a LIST would have put it in. Only
// the selector forms collections use are understood: label terms `k`, `!k`, `k=v`, `k==v`, `k!=v`
// and field terms `path=v`, `path==v`, `path!=v`. Anything else answers undefined (unknown): the
// caller then leaves the object to the next push.
import type { ListOptions } from './contracts.js';
import { asObj, type Obj } from '../kube/projection.js';

type Term = { key: string; op: '=' | '!=' | 'exists' | '!exists'; value: string };

function parseTerms(selector: string, allowExistence: boolean): Term[] | undefined {
  const terms: Term[] = [];
  for (const raw of selector.split(',').map((t) => t.trim()).filter(Boolean)) {
    const m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(raw);
    if (m) terms.push({ key: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]! });
    else if (allowExistence && /^![^=!\s()]+$/.test(raw)) terms.push({ key: raw.slice(1), op: '!exists', value: '' });
    else if (allowExistence && /^[^=!\s()]+$/.test(raw)) terms.push({ key: raw, op: 'exists', value: '' });
    else return undefined;
  }
  return terms;
}

function holds(term: Term, value: string | undefined): boolean {
  switch (term.op) {
    case 'exists': return value !== undefined;
    case '!exists': return value === undefined;
    case '=': return value === term.value;
    case '!=': return value !== term.value;
  }
}

function fieldValue(obj: Obj, path: string): string | undefined {
  let at: unknown = obj;
  for (const part of path.split('.')) at = asObj(at)[part];
  return typeof at === 'string' || typeof at === 'number' || typeof at === 'boolean' ? String(at) : undefined;
}

/** true/false, or undefined where the selection uses a form this does not evaluate. */
export function inSelection(obj: Obj, select: ListOptions | undefined): boolean | undefined {
  if (!select) return true;
  const meta = asObj(obj.metadata);
  if (select.namespace !== undefined && meta.namespace !== select.namespace) return false;
  if (select.labelSelector) {
    const terms = parseTerms(select.labelSelector, true);
    if (!terms) return undefined;
    const labels = asObj(meta.labels);
    if (!terms.every((t) => holds(t, typeof labels[t.key] === 'string' ? (labels[t.key] as string) : undefined))) return false;
  }
  if (select.fieldSelector) {
    const terms = parseTerms(select.fieldSelector, false);
    if (!terms) return undefined;
    // An absent field compares as the empty string, as the API server's field selectors do.
    if (!terms.every((t) => holds(t, fieldValue(obj, t.key) ?? ''))) return false;
  }
  return true;
}
