// The SidecarSet hashes (../shared/SEMANTICS.md §2.2, OpenKruise pkg/control/sidecarcontrol/hash.go): SHA-256
// of Go's JSON of {"containers": …} (plus "initContainers" when one of them is a native sidecar,
// restartPolicy Always), as lowercase hex mapped through apimachinery's rand.SafeEncodeString.
// Pods record these values, and the controller compares them, so they must be stable; they are
// byte-compatible with OpenKruise's for the objects its own defaulting produces.
import { encodeSidecarContainers } from '../kube/go-sidecar-containers.js';
import type { SidecarContainer, SidecarSet } from './types.js';
import { safeEncodeString } from '../workload/revisions.js';


export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An init container with restartPolicy Always (a Kubernetes 1.28 native sidecar). */
export function isNativeSidecar(c: { restartPolicy?: unknown }): boolean {
  return c.restartPolicy === 'Always';
}

/** The exact text OpenKruise hashes (encodeSidecarSet); exported for tests and debugging. */
export function hashInput(set: SidecarSet, withoutImage = false): string {
  const strip = (cs: SidecarContainer[] | undefined) =>
    withoutImage && cs ? cs.map((c) => ({ ...c, image: '' })) : cs;
  const containers = strip(set.spec?.containers);
  const init = strip(set.spec?.initContainers);
  // Keys of a Go map are written sorted: "containers" before "initContainers".
  let text = `{"containers":${encodeSidecarContainers(containers)}`;
  if ((init ?? []).some(isNativeSidecar)) text += `,"initContainers":${encodeSidecarContainers(init)}`;
  return `${text}}`;
}

/** `kruise.io/sidecarset-hash`: changes with any sidecar container field. */
export async function sidecarSetHash(set: SidecarSet): Promise<string> {
  return safeEncodeString(await sha256Hex(hashInput(set)));
}

/** `kruise.io/sidecarset-hash-without-image`: unchanged when only images change (in-place upgrade). */
export async function sidecarSetHashWithoutImage(set: SidecarSet): Promise<string> {
  return safeEncodeString(await sha256Hex(hashInput(set, true)));
}
