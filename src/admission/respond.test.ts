import { describe, expect, it } from 'vitest';
import { encodePatch } from './patch.js';
import { admissionReview, reviewText, type Outcome } from './respond.js';

describe('reviewText', () => {
  const outcomes: [string, Outcome][] = [
    ['allowed, no patch', { allowed: true }],
    ['allowed with a patch and warnings', { allowed: true, patch: [{ op: 'add', path: '/metadata/labels/a', value: 'Größe "quoted" 🚀' }], warnings: ['w1', 'w"2'] }],
    ['denied', { allowed: false, code: 503, message: 'state "x" is stale\nretry', warnings: ['w'] }],
  ];

  it.each(outcomes)('%s: the same JSON as JSON.stringify', (_name, outcome) => {
    const review = admissionReview('admission.k8s.io/v1', 'uid-1', outcome);
    expect(JSON.parse(reviewText(review))).toEqual(JSON.parse(JSON.stringify(review)));
  });

  it('carries a large patch verbatim', () => {
    const value = 'x'.repeat(100_000);
    const review = admissionReview('admission.k8s.io/v1beta1', 'uid-2', { allowed: true, patch: [{ op: 'add', path: '/spec/containers/1', value }] });
    const parsed = JSON.parse(reviewText(review)) as { response: { patch: string } };
    expect(parsed.response.patch).toBe(encodePatch([{ op: 'add', path: '/spec/containers/1', value }]));
  });
});
