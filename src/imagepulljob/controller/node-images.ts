// Whether a node already holds the job's image, from the images its kubelet reports in
// `status.images` (OpenKruise reads its NodeImage instead). That list is capped (the kubelet's
// nodeStatusMaxImages, 50 by default, largest images first), so an image it does not list may
// still be there: only a listed image counts as present; any other is pulled (with IfNotPresent
// a present image costs the kubelet nothing). Pure.
import { parseImage } from '../../workload/pods.js';
import type { Node } from '../../workload/nodes.js';

type NodeImage = { names?: string[] | null };

/** A name the kubelet lists is this image: same repository and digest (a digest job), or same tag. */
function sameImage(wanted: { repo: string; tag: string; digest: string }, name: string): boolean {
  const got = parseImage(name);
  if (!got || got.repo !== wanted.repo) return false;
  return wanted.digest ? got.digest === wanted.digest : got.tag === wanted.tag;
}

export function nodeListsImage(node: Node, image: string): boolean {
  const parsed = parseImage(image);
  if (!parsed) return false;
  const wanted = { ...parsed, tag: parsed.tag || (parsed.digest ? '' : 'latest') };
  const images = (node.status?.['images'] as NodeImage[] | null | undefined) ?? [];
  return images.some((i) => (i.names ?? []).some((name) => sameImage(wanted, name)));
}
