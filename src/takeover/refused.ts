/** The takeover stopped, saying why (exit code 1); what was done before it stays done. */
export class TakeoverRefused extends Error {}
