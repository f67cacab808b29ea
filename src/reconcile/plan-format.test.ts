import { describe, expect, it } from 'vitest';
import { formatPlan } from './plan-format.js';
import { emptyPlan, type Plan } from './types.js';

const cm = { apiVersion: 'v1', kind: 'ConfigMap', name: 'game-demo', namespace: 'ns-1' };
const rd = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample' };
const cmObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo', namespace: 'ns-1', resourceVersion: '7' }, data: {} };

const plan = (over: Partial<Plan>): Plan => ({ ...emptyPlan(), ...over });

describe('formatPlan', () => {
  it.each([
    ['nothing to do', emptyPlan(), 'no changes'],
    ['create', plan({ writes: [{ op: 'create', object: cmObject, reason: 'namespace ns-1 is a target' }] }),
      'create ConfigMap ns-1/game-demo — namespace ns-1 is a target'],
    ['update', plan({ writes: [{ op: 'update', object: cmObject, reason: 'data differs from the source' }] }),
      'update ConfigMap ns-1/game-demo — data differs from the source'],
    ['patch names its type', plan({ writes: [{ op: 'patch', target: cm, patch: {}, patchType: 'merge', reason: 'label missing' }] }),
      'patch (merge) ConfigMap ns-1/game-demo — label missing'],
    ['a patch of a subresource names it', plan({ writes: [{ op: 'patch', target: { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'ns-1' }, patch: {}, patchType: 'strategic', subresource: 'ephemeralcontainers', reason: 'inject' }] }),
      'patch (strategic) Pod ns-1/web-0/ephemeralcontainers — inject'],
    ['delete', plan({ writes: [{ op: 'delete', target: cm, preconditions: { uid: 'u' }, reason: 'no longer a target' }] }),
      'delete ConfigMap ns-1/game-demo — no longer a target'],
    ['cluster-scoped status lists the fields it sets', plan({ status: [{ target: rd, status: { succeeded: 1, desired: 2 }, resourceVersion: '3', reason: 'counts changed' }] }),
      'status ResourceDistribution sample {desired, succeeded} — counts changed'],
    ['a status write with metadata and a chained update', plan({ status: [{ target: cm, status: { conditions: [] }, metadata: { labels: { a: 'b' } }, then: { op: 'update', object: cmObject, reason: 'images next' }, reason: 'not ready first' }] }),
      'status ConfigMap ns-1/game-demo {conditions} with metadata {labels} — not ready first\nthen update ConfigMap ns-1/game-demo — images next'],
    ['an Event that narrates a write, told once it is applied', plan({ writes: [{ op: 'create', object: cmObject, reason: 'r', event: { regarding: cm, type: 'Normal', reason: 'Created', message: 'made it' } }] }),
      'create ConfigMap ns-1/game-demo — r\nevent Normal Created on ConfigMap ns-1/game-demo: made it (once create ConfigMap ns-1/game-demo is applied)'],
    ['event', plan({ events: [{ regarding: rd, type: 'Warning', reason: 'ConflictOccurred', message: 'ns-1 has its own game-demo' }] }),
      'event Warning ConflictOccurred on ResourceDistribution sample: ns-1 has its own game-demo'],
    ['ledger write', plan({ ledgers: [{ ref: { kind: 'PodUnavailableBudget', namespace: 'ns-1', name: 'pub' }, op: 'resync', request: {}, reason: 'allowance changed' }] }),
      'ledger PodUnavailableBudget ns-1/pub resync — allowance changed'],
    ['requeue in seconds', plan({ requeueAfterMs: 30_000 }), 'requeue after 30s'],
    ['requeue in minutes', plan({ requeueAfterMs: 300_000 }), 'requeue after 5m'],
    ['requeue in ms', plan({ requeueAfterMs: 1500 }), 'requeue after 1500ms'],
  ])('%s', (_name, p, want) => {
    expect(formatPlan(p)).toBe(want);
  });

  it('lists writes, then status, then events, then requeue: the order act applies them', () => {
    const p = plan({
      events: [{ regarding: cm, type: 'Normal', reason: 'Created', message: 'copied' }],
      status: [{ target: rd, status: { desired: 1 }, reason: 'r2' }],
      writes: [{ op: 'delete', target: cm, reason: 'r1' }],
      requeueAfterMs: 60_000,
    });
    expect(formatPlan(p).split('\n').map((l) => l.split(' ')[0])).toEqual(['delete', 'status', 'event', 'requeue']);
  });
});
