import { describe, expect, it } from 'vitest';
import { admittedRef } from './admitted-ref.js';

const pod = (rv?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'ns', ...(rv ? { resourceVersion: rv } : {}) } });

describe('admittedRef', () => {
  it('a creation names the object; an update or a status write also the version it was admitted against', () => {
    expect(admittedRef({ kind: 'Pod', namespace: 'ns', operation: 'CREATE', object: pod() })).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'web-0', operation: 'CREATE' });
    expect(admittedRef({ kind: 'Pod', namespace: 'ns', operation: 'UPDATE', subResource: 'status', object: pod('8'), oldObject: pod('8') })).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'web-0', operation: 'UPDATE', basedOn: '8' });
  });

  it('a deletion is read from the old object (the review carries no object)', () => {
    expect(admittedRef({ kind: 'Pod', namespace: 'ns', operation: 'DELETE', oldObject: pod('8') })).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'web-0', operation: 'DELETE', basedOn: '8' });
  });

  it('none where a GET of the object would not show the write, or nothing names it', () => {
    expect(admittedRef({ kind: 'Pod', namespace: 'ns', operation: 'CREATE', subResource: 'eviction', object: pod() })).toBeUndefined();
    expect(admittedRef({ kind: 'Pod', namespace: 'ns', operation: 'CONNECT', object: pod() })).toBeUndefined();
    expect(admittedRef({ kind: 'Pod', namespace: 'ns', operation: 'CREATE', object: { apiVersion: 'v1', metadata: { generateName: 'web-' } } })).toBeUndefined();
  });
});
