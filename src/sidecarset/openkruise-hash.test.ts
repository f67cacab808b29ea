// Our SidecarSet hashes against OpenKruise 1.9's own SidecarSetHash / SidecarSetHashWithoutImage,
// run by Go: scripts/openkruise-revision-vectors.ts writes the fixture.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import type { SidecarSet } from './types.js';

type Vector = { input: { object: SidecarSet }; annotations: Record<string, string> };
const { vectors } = JSON.parse(readFileSync(new URL('../../test/e2e/fixtures/takeover/sidecarset.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

describe('SidecarSet hashes equal OpenKruise 1.9’s (sidecarset.json)', () => {
  it.each(vectors.map((v, i) => [i, v] as const))('vector %i', async (_i, v) => {
    expect(await sidecarSetHash(v.input.object)).toBe(v.annotations['kruise.io/sidecarset-hash']);
    expect(await sidecarSetHashWithoutImage(v.input.object)).toBe(v.annotations['kruise.io/sidecarset-hash-without-image']);
  });
});
