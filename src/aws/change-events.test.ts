import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import {
  batchEntries,
  ChangeEventPublishError,
  entrySize,
  EventBridgeSink,
  parseChangeEvent,
  type ChangeEvent,
  type EventBridgeSender,
} from './change-events.js';
import { EventBridgeStub } from './eventbridge-stub.js';

// Compile-time: the real SDK client fits the port the sink takes, so the stub stands in for it.
// Constructing a client makes no network call.
const real: EventBridgeSender = new EventBridgeClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
void real;

const ev = (name: string, extra: Partial<ChangeEvent> = {}): ChangeEvent => ({
  clusterId: 'example', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', namespace: 'default', name, reason: 'updated', ...extra,
});
const detailName = (e: { Detail?: string }) => (JSON.parse(e.Detail ?? '{}') as ChangeEvent).name;

describe('EventBridgeSink', () => {
  it('sends Source, DetailType, bus and the event as Detail', async () => {
    const stub = new EventBridgeStub();
    await new EventBridgeSink(stub, { eventBusName: 'kruise-serverless' }).publish([ev('web')]);
    expect(stub.commands).toHaveLength(1);
    expect(stub.entries).toEqual([{ Source: 'kruise-serverless', DetailType: 'ObjectChanged', EventBusName: 'kruise-serverless', Detail: JSON.stringify(ev('web')) }]);
  });

  it('sends nothing for no events', async () => {
    const stub = new EventBridgeStub();
    await new EventBridgeSink(stub, { eventBusName: 'b' }).publish([]);
    expect(stub.commands).toHaveLength(0);
  });

  it('splits 23 events into calls of 10, 10, 3 in order', async () => {
    const stub = new EventBridgeStub();
    const events = Array.from({ length: 23 }, (_, i) => ev(`o${i}`));
    await new EventBridgeSink(stub, { eventBusName: 'b' }).publish(events);
    expect(stub.commands.map((c) => c.input.Entries?.length)).toEqual([10, 10, 3]);
    expect(stub.entries.map(detailName)).toEqual(events.map((e) => e.name));
  });

  it('retries rejected entries once, in a fresh call, and succeeds', async () => {
    const stub = new EventBridgeStub((e, { call }) => (call === 1 && detailName(e) === 'b' ? 'ThrottlingException' : undefined));
    await new EventBridgeSink(stub, { eventBusName: 'b' }).publish([ev('a'), ev('b'), ev('c')]);
    expect(stub.commands.map((c) => (c.input.Entries ?? []).map(detailName))).toEqual([['a', 'b', 'c'], ['b']]);
  });

  it('reports entries that fail twice, after trying every batch', async () => {
    const stub = new EventBridgeStub((e) => (detailName(e) === 'o3' || detailName(e) === 'o12' ? 'InternalFailure' : undefined));
    const err = await new EventBridgeSink(stub, { eventBusName: 'b' }).publish(Array.from({ length: 15 }, (_, i) => ev(`o${i}`))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChangeEventPublishError);
    const failures = (err as ChangeEventPublishError).failures;
    expect(failures.map((f) => [f.event.name, f.errorCode])).toEqual([['o3', 'InternalFailure'], ['o12', 'InternalFailure']]);
    expect(stub.commands.map((c) => c.input.Entries?.length)).toEqual([10, 5, 2]);
    expect((err as Error).message).toContain('CloneSet default/o3: InternalFailure');
  });

  it('lets errors from send propagate', async () => {
    const failing: EventBridgeSender = { send: async () => Promise.reject(new Error('network down')) };
    await expect(new EventBridgeSink(failing, { eventBusName: 'b' }).publish([ev('a')])).rejects.toThrow('network down');
  });
});

describe('batchEntries', () => {
  const entry = (bytes: number) => ({ entry: { Source: 's', DetailType: 'd', Detail: 'x'.repeat(bytes - 2) } });

  it.each([
    ['11 small entries', Array.from({ length: 11 }, () => entry(100)), [10, 1], 0],
    ['two of 130 KB exceed 256 KB together', [entry(130 * 1024), entry(130 * 1024)], [1, 1], 0],
    ['one of exactly 256 KB is too large', [entry(256 * 1024), entry(10)], [1], 1],
    ['three of 85 KB fit (255 KB)', [entry(85 * 1024), entry(85 * 1024), entry(85 * 1024)], [3], 0],
  ])('%s', (_name, items, sizes, oversized) => {
    const out = batchEntries(items);
    expect(out.batches.map((b) => b.length)).toEqual(sizes);
    expect(out.oversized).toHaveLength(oversized);
  });

  it('counts UTF-8 bytes, Time as 14, and resources', () => {
    expect(entrySize({ Source: 'é', DetailType: 'ab', Detail: '{}', Time: new Date(), Resources: ['arn:x'] })).toBe(2 + 2 + 2 + 14 + 5);
  });
});

describe('parseChangeEvent', () => {
  it.each([
    ['namespaced', ev('web'), true],
    ['cluster-scoped', { clusterId: 'c', kind: 'ResourceDistribution', apiVersion: 'apps.kruise.io/v1alpha1', name: 'rd', reason: 'deleted' }, true],
    ['other reason', ev('web', { reason: 'scaled' }), true],
    ['not an object', 'CloneSet/web', false],
    ['null', null, false],
    ['missing name', { clusterId: 'c', kind: 'CloneSet', apiVersion: 'v', reason: 'updated' }, false],
    ['empty kind', ev('web', { kind: '' }), false],
    ['namespace not a string', { ...ev('web'), namespace: 3 }, false],
  ])('%s', (_name, detail, ok) => {
    expect(parseChangeEvent(detail).ok).toBe(ok);
  });

  it('names every bad field', () => {
    expect(parseChangeEvent({ kind: 'CloneSet' })).toEqual({ ok: false, error: 'detail: clusterId must be a non-empty string, apiVersion must be a non-empty string, name must be a non-empty string, reason must be a non-empty string' });
  });

  it('drops unknown fields', () => {
    expect(parseChangeEvent({ ...ev('web'), extra: 1 })).toEqual({ ok: true, event: ev('web') });
  });

  it('keeps the admitted write, and says what is wrong with a bad one', () => {
    const admitted = { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0', operation: 'UPDATE', basedOn: '41' };
    expect(parseChangeEvent({ ...ev('web'), admitted: { ...admitted, extra: 1 } })).toEqual({ ok: true, event: { ...ev('web'), admitted } });
    expect(parseChangeEvent({ ...ev('web'), admitted: { ...admitted, operation: 'CONNECT' } })).toEqual({ ok: false, error: 'detail.admitted: operation must be one of CREATE, UPDATE, DELETE' });
    expect(parseChangeEvent({ ...ev('web'), admitted: { ...admitted, name: '' } })).toEqual({ ok: false, error: 'detail.admitted: name must be a non-empty string' });
    expect(parseChangeEvent({ ...ev('web'), admitted: 'web-0' })).toEqual({ ok: false, error: 'detail.admitted: must be an object' });
  });
});
