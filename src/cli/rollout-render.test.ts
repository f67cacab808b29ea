import { describe, expect, it } from 'vitest';
import type { RolloutProgress, Waiting } from './rollout-progress.js';
import { doneMessage, fitWidth, formatDuration, progressBar, statusLine, waitingText } from './rollout-render.js';

const progress = (o: Partial<RolloutProgress> = {}): RolloutProgress => ({
  updated: 1, ready: 2, total: 3, updatedAvailable: 1, target: 3, revision: 'web-5f7d', done: false, waiting: [], ...o,
});

describe('rollout status text', () => {
  it.each<[number, number, string]>([
    [0, 3, '[....................]'],
    [1, 3, '[######..............]'],
    [3, 3, '[####################]'],
    [5, 3, '[####################]'],
    [0, 0, '[####################]'],
  ])('progressBar(%i, %i)', (done, of, want) => expect(progressBar(done, of)).toBe(want));

  it.each<[Waiting, string]>([
    [{ on: 'observed', generation: 4, observedGeneration: 3 }, 'the controller to observe generation 4 (status is at 3)'],
    [{ on: 'paused' }, 'updates paused (spec.updateStrategy.paused)'],
    [{ on: 'partition', partition: 2 }, 'paused at partition 2'],
    [{ on: 'budget', maxUnavailable: 1, unavailable: 1 }, 'maxUnavailable 1 reached (1 unavailable), no more pods may be taken down'],
    [{ on: 'not-ready', pods: ['a', 'b', 'c', 'd', 'e'] }, 'pods not ready: a, b, c (+2 more)'],
    [{ on: 'pod-count', have: 2, want: 3 }, '2 pods of 3'],
    [{ on: 'controller' }, 'the controller to update pods'],
    [{ on: 'hook', pods: [{ name: 'web-a', state: 'PreparingUpdate', hook: 'inPlaceUpdate', waitsFor: 'removal', handlers: ['label hold=true', 'finalizer x/y'] }] },
      'lifecycle hook spec.lifecycle.inPlaceUpdate: web-a PreparingUpdate held while label hold=true and finalizer x/y is on it'],
    [{ on: 'hook', pods: [
      { name: 'web-a', state: 'PreparingNormal', hook: 'preNormal', waitsFor: 'addition', handlers: ['label warm=yes'] },
      { name: 'web-b', state: 'PreparingNormal', hook: 'preNormal', waitsFor: 'addition', handlers: ['label warm=yes'] }] },
      'lifecycle hook spec.lifecycle.preNormal: web-a PreparingNormal until label warm=yes is added (+1 more pods)'],
  ])('waitingText %j', (w, want) => expect(waitingText(w)).toBe(want));

  it('one status line: bar of updated-and-available over the target, updated/ready/total, what it waits on', () => {
    expect(statusLine('cloneset/web', progress({ waiting: [{ on: 'paused' }, { on: 'not-ready', pods: ['web-a'] }] })))
      .toBe('cloneset/web [######..............] 1/2/3 updated/ready/total, waiting on: updates paused (spec.updateStrategy.paused); pods not ready: web-a');
    expect(statusLine('cloneset/web', progress({ updated: 3, ready: 3, updatedAvailable: 3, done: 'complete' })))
      .toBe('cloneset/web [####################] 3/3/3 updated/ready/total');
  });

  it('closing messages: complete, and complete up to the partition', () => {
    expect(doneMessage('cloneset/web', progress({ done: 'complete' }))).toBe('cloneset/web successfully rolled out: 3 pods updated and available at revision web-5f7d');
    expect(doneMessage('cloneset/web', progress({ done: 'partitioned', target: 1 })))
      .toBe('cloneset/web partitioned roll out complete: 1 of 3 pods updated at revision web-5f7d (partition 2)');
  });

  it('fitWidth cuts a line to the terminal so an in-place redraw never wraps', () => {
    expect(fitWidth('abcdef', 5)).toBe('abc…');
    expect(fitWidth('abc', 5)).toBe('abc');
    expect(fitWidth('abcdef', undefined)).toBe('abcdef');
  });

  it.each<[number, string]>([[1000, '1s'], [1500, '1.5s'], [300_000, '5m'], [5_400_000, '1h30m'], [3_661_000, '1h1m1s'], [0, '0s']])('formatDuration(%i)', (ms, want) =>
    expect(formatDuration(ms)).toBe(want));
});
