import { describe, expect, it } from 'vitest';
import type { AdmissionInput, Verdict } from '../admission/types.js';
import { defaultCloneSetHandler } from './webhook.js';

const req = (operation: 'CREATE' | 'UPDATE', object: unknown, oldObject?: unknown): AdmissionInput => ({
  uid: 'u', kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' }, resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'clonesets' },
  namespace: 'default', operation, userInfo: {}, dryRun: false, clusterId: 'c', object, ...(oldObject ? { oldObject } : {}),
});
const cs = (image: string, extra: Record<string, unknown> = {}) => ({ metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] } }, ...extra } });
const specOf = async (v: Verdict | Promise<Verdict>) => ((await v) as { object?: { spec: Record<string, unknown> } }).object?.spec;

describe('defaultCloneSetHandler', () => {
  it('on create: the spec defaults and the template defaults', async () => {
    const spec = await specOf(defaultCloneSetHandler(req('CREATE', cs('nginx:1')), { collection: async () => undefined }, { now: 0 }));
    expect(spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10, updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 } });
    expect(spec?.template).toMatchObject({ spec: { dnsPolicy: 'ClusterFirst', containers: [{ imagePullPolicy: 'Always' }] } });
  });

  it('on update: the template is defaulted only when it changed', async () => {
    const state = { collection: async () => undefined };
    const same = await specOf(defaultCloneSetHandler(req('UPDATE', cs('nginx:1', { replicas: 3 }), cs('nginx:1')), state, { now: 0 }));
    expect(same?.template).toEqual(cs('nginx:1').spec.template);
    const changed = await specOf(defaultCloneSetHandler(req('UPDATE', cs('nginx:2'), cs('nginx:1')), state, { now: 0 }));
    expect(changed?.template).toMatchObject({ spec: { containers: [{ image: 'nginx:2', imagePullPolicy: 'Always' }] } });
  });

  it('a claim template gets volumeMode Filesystem and phase Pending', async () => {
    const spec = await specOf(defaultCloneSetHandler(req('CREATE', cs('nginx:1', { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] })), { collection: async () => undefined }, { now: 0 }));
    expect(spec?.volumeClaimTemplates).toEqual([{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }]);
  });
});
