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
    // kruise#2570: containerd reports the image config digest, bare; it cannot be compared.
    ['digest image, bare config-digest imageID', edit((p) => {
      p.spec.containers[0]!.image = `registry.k8s.io/ingress-nginx/controller@${DIGEST}`;
      p.status!.containerStatuses![0]!.imageID = OTHER;
    }), true],
    ['digest image, bare imageID with scheme', edit((p) => {
      p.spec.containers[0]!.image = `nginx:1.25@${DIGEST}`;
      p.status!.containerStatuses![0]!.imageID = `containerd://${OTHER}`;
    }), true],
    ['digest image, no imageID yet', edit((p) => {
      p.spec.containers[0]!.image = `nginx@${DIGEST}`;
      p.status!.containerStatuses = [];
    }), false],
    ['digest image, another repository', edit((p) => {
      p.spec.containers[0]!.image = `nginx@${DIGEST}`;
      p.status!.containerStatuses![0]!.imageID = `docker.io/library/httpd@${DIGEST}`;
    }), false],
    // PR #2563: a digest-pinned pod still waits for its in-place update.
    ['digest image in in-place update grace', edit((p) => {
      p.spec.containers[0]!.image = `nginx@${DIGEST}`;
      p.status!.containerStatuses![0]!.imageID = `docker-pullable://nginx@${DIGEST}`;
      p.metadata.annotations = { 'apps.kruise.io/inplace-update-grace': '{}' };
    }), false],
    ['native sidecar digest differs', edit((p) => {
      p.spec.initContainers = [{ name: 'proxy', image: `envoy@${DIGEST}`, restartPolicy: 'Always' }];
      p.status!['initContainerStatuses'] = [{ name: 'proxy', imageID: `docker.io/library/envoy@${OTHER}` }];
    }), false],
    ['native sidecar digest matches', edit((p) => {
      p.spec.initContainers = [{ name: 'proxy', image: `envoy@${DIGEST}`, restartPolicy: 'Always' }];
      p.status!['initContainerStatuses'] = [{ name: 'proxy', imageID: `docker.io/library/envoy@${DIGEST}` }];
    }), true],
    ['plain init container is not compared', edit((p) => {
      p.spec.initContainers = [{ name: 'setup', image: `busybox@${DIGEST}` }];
      p.status!['initContainerStatuses'] = [{ name: 'setup', imageID: `docker.io/library/busybox@${OTHER}` }];
    }), true],
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
