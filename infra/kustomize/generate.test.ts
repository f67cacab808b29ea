// The committed kustomize base holds what generate.ts derives from the installer today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles, KUSTOMIZE_DIR } from './generate.js';

describe('infra/kustomize generated files', () => {
  for (const [name, text] of Object.entries(generatedFiles())) {
    it(`${name} is current (else: npx tsx infra/kustomize/generate.ts)`, () => {
      expect(readFileSync(join(KUSTOMIZE_DIR, name), 'utf8')).toBe(text);
    });
  }
});
