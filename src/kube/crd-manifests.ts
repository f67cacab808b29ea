// Reads the generated CRD manifests from infra/crds (Node only).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';

export function readCrdManifests(dir: string): V1CustomResourceDefinition[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as V1CustomResourceDefinition);
}
