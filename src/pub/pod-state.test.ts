import { describe, expect, it } from 'vitest';
import type { Pod } from '../workload/pods.js';
import { isPodAvailableForBudget } from './pod-state.js';
import { readyPod } from './test-builders.js';

const DIGEST = 'sha256:' + 'a'.repeat(64);
const OTHER = 'sha256:' + 'b'.repeat(64);
const edit = (f: (p: Pod) => void): Pod => {
  const p = readyPod('p');
  f(p);
  return p;
};

describe('isPodAvailableForBudget', () => {
  it.each([
    ['ready pod', readyPod('p'), true],
    ['not ready', readyPod('p', { ready: false }), false],
    ['pending', edit((p) => (p.status!.phase = 'Pending')), false],
    ['being deleted', edit((p) => (p.metadata.deletionTimestamp = '2024-01-01T00:00:00Z')), false],
    ['unavailable label', edit((p) => (p.metadata.labels = { 'unavailable-pod.kruise.io/drain': 'true' })), false],
    ['digest image matches', edit((p) => {
      p.spec.containers[0]!.image = `nginx@${DIGEST}`;
      p.status!.containerStatuses![0]!.imageID = `docker-pullable://nginx@${DIGEST}`;
    }), true],
    ['digest image differs', edit((p) => {
      p.spec.containers[0]!.image = `nginx@${DIGEST}`;
      p.status!.containerStatuses![0]!.imageID = `docker-pullable://nginx@${OTHER}`;
    }), false],
    ['in-place update grace', edit((p) => (p.metadata.annotations = { 'apps.kruise.io/inplace-update-grace': '{}' })), false],
    ['in-place update with next batches', edit((p) => (p.metadata.annotations = { 'apps.kruise.io/inplace-update-state': JSON.stringify({ nextContainerImages: { main: 'nginx:2' } }) })), false],
    ['in-place update not yet restarted', edit((p) => {
      p.spec.containers[0]!.image = 'nginx:2';
      p.metadata.annotations = { 'apps.kruise.io/inplace-update-state': JSON.stringify({ lastContainerStatuses: { main: { imageID: 'docker.io/library/nginx@sha256:abc' } } }) };
    }), false],
    ['in-place update done', edit((p) => {
      p.metadata.annotations = { 'apps.kruise.io/inplace-update-state': JSON.stringify({ lastContainerStatuses: { main: { imageID: 'old' } } }) };
    }), true],
    ['unparsable in-place state', edit((p) => (p.metadata.annotations = { 'apps.kruise.io/inplace-update-state': '{' })), false],
  ])('%s', (_name, p, want) => {
    expect(isPodAvailableForBudget(p)).toBe(want);
  });
});
