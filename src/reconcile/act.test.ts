import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../kube/errors.js';
import { isStaleTarget } from './act.js';

describe('isStaleTarget', () => {
  it.each([
    ['a conflict (stale resourceVersion)', new KubeApiError(409, 'Conflict', 'PATCH …: 409 the object has been modified'), true],
    ['the object deleted since it was observed (its namespace being deleted)', new KubeApiError(404, 'NotFound', 'PATCH …/podunavailablebudgets/ev/status: 404 not found'), true],
    ['a refusal', new KubeApiError(403, 'Forbidden', 'PATCH …: 403 forbidden'), false],
    ['broken I/O', new Error('socket hang up'), false],
  ])('%s', (_name, e, want) => {
    expect(isStaleTarget(e)).toBe(want);
  });
});
