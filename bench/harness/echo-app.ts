// The floor every admission pays on a platform: read the body, parse the AdmissionReview JSON,
// answer an allowed AdmissionReview with its uid. No auth, no dispatch, no state. Any POST path,
// so the client sends the echo exactly what it sends the real webhook. With `?answer=<bytes>` the
// answer carries a patch of filler so it is about that long: the floor for a webhook whose answer
// is that big (an injected pod's patch), what moving the bytes costs without computing them.
import { Hono } from 'hono';
import { reviewText, type AdmissionResponse } from '../../src/admission/respond.js';
import type { ReviewVersion } from '../../src/admission/review.js';

type Review = { apiVersion?: string; request?: { uid?: string } };

/** Filler patches by length, made once: the floor should not pay for building them. */
const fillers = new Map<number, string>();
const MAX_ANSWER_BYTES = 16 << 20;

function filler(answerBytes: number): string | undefined {
  // base64 of zero bytes ('A's), minus the room the rest of the answer takes.
  const length = Math.floor(Math.max(0, answerBytes - 200) / 4) * 4;
  if (!Number.isInteger(answerBytes) || answerBytes > MAX_ANSWER_BYTES || length === 0) return undefined;
  let text = fillers.get(length);
  if (text === undefined) fillers.set(length, (text = 'A'.repeat(length)));
  return text;
}

export function buildEchoApp(): Hono {
  const app = new Hono();
  app.post('*', async (c) => {
    const review = JSON.parse(await c.req.text()) as Review;
    const patch = filler(Number(c.req.query('answer') ?? 0));
    const response: AdmissionResponse = { uid: review.request?.uid ?? '', allowed: true, ...(patch ? { patchType: 'JSONPatch' as const, patch } : {}) };
    // Written as the real app writes its answers, the patch spliced in rather than scanned.
    const text = reviewText({ apiVersion: review.apiVersion as ReviewVersion, kind: 'AdmissionReview', response });
    return c.body(text, 200, { 'content-type': 'application/json' });
  });
  return app;
}
