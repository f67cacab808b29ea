// Waiting, inside one admission, for state that is not there yet: a budget before its first sync
// (a PUB created a moment ago), or a collection a new or restarted edge has not been pushed yet.
// Refusing with 503 then makes every client retry for nothing, so the read is asked again, with
// growing pauses, until it is there or the request's time budget is nearly spent.

/** Time kept back from the request's deadline for the last attempt's answer to travel. */
export const ANSWER_MARGIN_MS = 150;
const FIRST_PAUSE_MS = 25;
const MAX_PAUSE_MS = 200;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `attempt` until `settled` holds of its answer or the next pause would overrun `deadline` (wall
 * clock ms); answers the last attempt's answer. Without a deadline it attempts once.
 */
export async function attemptUntilSettled<R>(attempt: () => Promise<R>, settled: (r: R) => boolean, deadline: number | undefined, clock: () => number = Date.now): Promise<R> {
  let answer = await attempt();
  let delay = FIRST_PAUSE_MS;
  while (!settled(answer) && deadline !== undefined && deadline - clock() > delay + ANSWER_MARGIN_MS) {
    await pause(delay);
    answer = await attempt();
    delay = Math.min(delay * 2, MAX_PAUSE_MS);
  }
  return answer;
}
