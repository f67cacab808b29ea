import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../kube/errors.js';
import { eventFor, eventName, eventNamespace, isNamespaceTerminating } from './events.js';
import type { EventNote } from './types.js';

const C = 'kruise-serverless';

function note(over: Partial<EventNote> = {}, regarding: Partial<EventNote['regarding']> = {}): EventNote {
  return {
    regarding: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', namespace: 'ns-1', uid: 'u-1', ...regarding },
    type: 'Normal',
    reason: 'SuccessfulCreate',
    message: 'succeed to create pod web-abc',
    ...over,
  };
}

describe('eventName', () => {
  it('is <name>.<16 hex>', () => {
    expect(eventName(note(), C)).toMatch(/^web\.[0-9a-f]{16}$/);
  });

  it('is the same for the same note (a repeat bumps one Event)', () => {
    expect(eventName(note(), C)).toBe(eventName(note(), C));
    expect(eventName(note({ type: 'Warning' }), C)).toBe(eventName(note(), C));
  });

  it.each([
    ['another object (uid)', note({}, { uid: 'u-2' })],
    ['another reason', note({ reason: 'SuccessfulDelete' })],
    ['another message', note({ message: 'succeed to create pod web-xyz' })],
    ['no uid: another kind of the same name', note({}, { uid: undefined, kind: 'StatefulSet' })],
  ])('differs for %s', (_name, other) => {
    const base = other.regarding.uid ? note() : note({}, { uid: undefined });
    expect(eventName(other, C)).not.toBe(eventName(base, C));
  });

  it('differs per component', () => {
    expect(eventName(note(), C)).not.toBe(eventName(note(), 'other-component'));
  });
});

describe('eventFor', () => {
  it.each([
    ['namespaced object', note(), 'ns-1'],
    ['cluster-scoped object', note({}, { namespace: undefined, kind: 'ResourceDistribution' }), 'default'],
  ])('%s: Event lives in %s', (_name, n, ns) => {
    expect(eventNamespace(n)).toBe(ns);
    expect(eventFor(n, C, new Date()).metadata.namespace).toBe(ns);
  });

  it('starts a series of one, from our component', () => {
    const e = eventFor(note(), C, new Date('2026-11-22T14:00:00.250Z'));
    expect(e).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', namespace: 'ns-1', uid: 'u-1' },
      type: 'Normal',
      reason: 'SuccessfulCreate',
      source: { component: C },
      count: 1,
      firstTimestamp: '2026-11-22T14:00:00Z',
      lastTimestamp: '2026-11-22T14:00:00Z',
    });
  });
});

describe('isNamespaceTerminating', () => {
  it.each([
    ['the terminating-namespace refusal', new KubeApiError(403, 'Forbidden', 'POST /api/v1/namespaces/a/events: 403 events "p.1" is forbidden: unable to create new content in namespace a because it is being terminated'), true],
    ['another 403', new KubeApiError(403, 'Forbidden', 'POST /api/v1/namespaces/a/events: 403 events is forbidden: User "x" cannot create resource'), false],
    ['not an API error', new Error('because it is being terminated'), false],
  ])('%s', (_name, e, want) => {
    expect(isNamespaceTerminating(e)).toBe(want);
  });
});
