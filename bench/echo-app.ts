// The floor every admission pays on a platform: read the body, parse the AdmissionReview JSON,
// answer an allowed AdmissionReview with its uid. No auth, no dispatch, no state. Any POST path,
// so the client sends the echo exactly what it sends the real webhook.
import { Hono } from 'hono';

type Review = { apiVersion?: string; request?: { uid?: string } };

export function buildEchoApp(): Hono {
  const app = new Hono();
  app.post('*', async (c) => {
    const review = JSON.parse(await c.req.text()) as Review;
    return c.json({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } });
  });
  return app;
}
