// Ctrl-C for a process that must clean up before it exits. The first SIGINT or SIGTERM calls
// `onStop`; later ones (a terminal's Ctrl-C reaches every process of the group, and npm and tsx
// relay it again) are ignored. Other SIGINT/SIGTERM listeners are removed as they appear:
// Miniflare's exit hook would exit the process at once, before the cleanup.
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function onStopSignal(onStop: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    onStop(signal);
  };
  const isStopSignal = (event: string | symbol) => (STOP_SIGNALS as readonly (string | symbol)[]).includes(event);
  const stripOthers = () => {
    for (const s of STOP_SIGNALS) for (const l of process.listeners(s)) if (l !== handler) process.off(s, l as (...args: unknown[]) => void);
  };
  process.on('newListener', (event: string | symbol) => {
    // Emitted before the listener is added: remove it just after.
    if (isStopSignal(event)) queueMicrotask(stripOthers);
  });
  stripOthers();
  for (const s of STOP_SIGNALS) process.on(s, handler);
}
