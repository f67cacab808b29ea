// Reads the generated CRD manifests from infra/crds (Node only).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from './http.js';

export function readCrdManifests(dir: string): KubeObject[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as KubeObject);
}
