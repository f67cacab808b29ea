import { describe, expect, it } from 'vitest';
import { ANSWER_MARGIN_MS, attemptUntilSettled } from './attempt-until-settled.js';

describe('attemptUntilSettled', () => {
  it('asks again until the answer settles', async () => {
    let calls = 0;
    const answer = await attemptUntilSettled(async () => ++calls, (n) => n >= 3, Date.now() + 2000);
    expect(answer).toBe(3);
  });

  it('stops before the deadline with the last answer', async () => {
    let calls = 0;
    const deadline = Date.now() + ANSWER_MARGIN_MS + 120;
    const answer = await attemptUntilSettled(async () => ++calls, () => false, deadline);
    expect(answer).toBe(calls);
    expect(calls).toBeGreaterThan(1);
    expect(Date.now()).toBeLessThan(deadline);
  });

  it('asks once without a deadline, or with one already too close', async () => {
    let calls = 0;
    await attemptUntilSettled(async () => ++calls, () => false, undefined);
    await attemptUntilSettled(async () => ++calls, () => false, Date.now() + ANSWER_MARGIN_MS);
    expect(calls).toBe(2);
  });
});
