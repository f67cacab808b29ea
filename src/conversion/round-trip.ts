// The round-trip property both ways, for the conversion property tests: an object valid in one
// version, converted to the other and back, comes back equal. Test support only.
import { expect, it } from 'vitest';
import { convertObject, type ConvertibleObject } from './convert.js';
import { random, type Random } from './random-objects.js';

const RUNS = 500;

export function itRoundTrips(alpha: (r: Random) => ConvertibleObject, beta: (r: Random) => ConvertibleObject): void {
  const cases = [['v1alpha1', 'v1beta1', alpha], ['v1beta1', 'v1alpha1', beta]] as const;
  for (const [from, to, make] of cases) {
    it(`${from} → ${to} → ${from} is lossless`, () => {
      for (let seed = 1; seed <= RUNS; seed++) {
        const obj = make(random(seed));
        expect(convertObject(convertObject(obj, `apps.kruise.io/${to}`), `apps.kruise.io/${from}`), `seed ${seed}`).toEqual(obj);
      }
    });
  }
}
