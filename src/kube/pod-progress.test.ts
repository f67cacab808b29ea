import { describe, expect, it } from 'vitest';
import { podProgressChanges } from './pod-progress.js';

type Container = { name: string; ready?: boolean; imageID?: string; restartCount?: number; started?: boolean; state?: unknown };
type PodArgs = { phase?: string; nodeName?: string; conditions?: Record<string, string>; containers?: Container[]; podIP?: string; probedAt?: string };

const running: Container = { name: 'main', ready: true, imageID: 'img@sha256:1', restartCount: 0, started: true };

/** A pod with the given status; conditions as type → status. */
function pod(a: PodArgs = {}) {
  return {
    spec: { nodeName: a.nodeName ?? 'node-a' },
    status: {
      phase: a.phase ?? 'Running',
      ...(a.podIP ? { podIP: a.podIP } : {}),
      conditions: Object.entries(a.conditions ?? { Ready: 'True', ContainersReady: 'True' }).map(([type, status]) => ({ type, status, lastProbeTime: a.probedAt ?? null })),
      containerStatuses: a.containers ?? [running],
    },
  };
}

describe('podProgressChanges', () => {
  it.each([
    ['nothing changed', pod(), pod(), []],
    ['only an IP', pod(), pod({ podIP: '10.0.0.9' }), []],
    ['only a probe time', pod(), pod({ probedAt: '2026-01-01T00:00:00Z' }), []],
    ['a container state detail only', pod(), pod({ containers: [{ ...running, state: { running: { startedAt: 'x' } } }] }), []],
    ['PodScheduled / Initialized are not watched', pod({ conditions: { Ready: 'True', PodScheduled: 'False' } }), pod({ conditions: { Ready: 'True', PodScheduled: 'True' } }), []],
    ['phase', pod({ phase: 'Pending' }), pod(), ['status.phase']],
    ['node', pod({ nodeName: 'node-b' }), pod(), ['spec.nodeName']],
    ['Ready and ContainersReady', pod({ conditions: { Ready: 'False', ContainersReady: 'False' } }), pod(), ['conditions[Ready]', 'conditions[ContainersReady]']],
    ['InPlaceUpdateReady appears', pod(), pod({ conditions: { Ready: 'True', ContainersReady: 'True', InPlaceUpdateReady: 'True' } }), ['conditions[InPlaceUpdateReady]']],
    ['KruisePodReady flips', pod({ conditions: { KruisePodReady: 'True' } }), pod({ conditions: { KruisePodReady: 'False' } }), ['conditions[KruisePodReady]']],
    ['container ready', pod({ containers: [{ ...running, ready: false }] }), pod(), ['containers[main].ready']],
    ['container restarted', pod(), pod({ containers: [{ ...running, restartCount: 1 }] }), ['containers[main].restartCount']],
    ['new image running (in-place update)', pod(), pod({ containers: [{ ...running, imageID: 'img@sha256:2' }] }), ['containers[main].imageID']],
    ['container started', pod({ containers: [{ ...running, started: false }] }), pod(), ['containers[main].started']],
    ['a container status appears', pod({ containers: [] }), pod(), ['containers[main]']],
  ])('%s', (_name, before, after, want) => {
    expect(podProgressChanges(before, after)).toEqual(want);
  });

  it('reads anything without throwing', () => {
    expect(podProgressChanges(undefined, null)).toEqual([]);
    expect(podProgressChanges({ status: { conditions: 'x', containerStatuses: [null, 1] } }, {})).toEqual([]);
  });
});
