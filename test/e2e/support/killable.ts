// A reconciler's client that "dies" at a chosen API call, for kill-anywhere reliability tests: that
// call is either never sent or sent with its answer lost, and no call after it is sent.
import { testKube } from './kube.js';

/** Which API calls a kill is counted over: any, or the pod and PVC writes (creates, updates, deletes). */
export type KillTarget = 'any call' | 'pod/PVC write';
const isPodOrPvcWrite = (method: string, path: string) => method !== 'GET' && /\/(pods|persistentvolumeclaims)(\/|$|\?)/.test(path);

/**
 * A client whose process "dies" at the `killAt`-th call of `target`: that call is either never sent
 * or sent with its answer lost, and no call after it is sent.
 */
export async function killableKube(killAt: number, target: KillTarget, afterSend: boolean) {
  const kube = await testKube();
  const state = { counted: 0, killed: undefined as string | undefined };
  const send = kube.request.bind(kube);
  kube.request = (async (method: string, path: string, init?: object) => {
    if (state.killed !== undefined) throw new Error('killed');
    if (target === 'any call' || isPodOrPvcWrite(method, path)) state.counted += 1;
    if (state.counted < killAt) return send(method, path, init);
    state.killed = `${method} ${path.replace(/\?.*/, '')}${afterSend ? ' (sent, answer lost)' : ' (not sent)'}`;
    if (afterSend) await send(method, path, init).catch(() => undefined);
    throw new Error('killed');
  }) as typeof kube.request;
  return { kube, state };
}
export type Doomed = Awaited<ReturnType<typeof killableKube>>;