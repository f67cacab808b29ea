// The self-hosted manifests as an operator applies them: infra/kustomize/base rendered by kubectl's
// kustomize, and the webhook configurations `kruise-serverless install --webhook-service` prints,
// each sent to the real API server with `kubectl apply --dry-run=server` (validated client-side
// against the server's OpenAPI, then admitted and validated by the API server, nothing stored).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { newSecret } from '../../src/edge-state/auth.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { kubectl } from './support/kube.js';

const run = promisify(execFile);
const NAMESPACE = 'kruise-system';
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ks-selfhosted-'));
  // A server-side dry run of a namespaced object needs its namespace to exist (a real apply
  // creates it first, from the same file).
  await kubectl('create', 'namespace', NAMESPACE).catch((e: Error) => {
    if (!/AlreadyExists/.test(e.message)) throw e;
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Doc = { kind: string; metadata: { name: string; namespace?: string } };
const docsOf = (yaml: string): Doc[] => parseAllDocuments(yaml).map((d) => d.toJSON() as Doc).filter(Boolean);

async function dryRunApply(file: string): Promise<string[]> {
  const out = await kubectl('apply', '--dry-run=server', '-f', file);
  return out.trim().split('\n');
}

describe('self-hosted manifests', () => {
  it('kustomize crds and base, the base through an overlay that sets the image: every object passes a server-side dry-run apply', async () => {
    // An overlay as docs/deploy-self-hosted.md writes it (`bases:`, as kubectl 1.20's kustomize v2 reads it).
    const overlay = join(work, 'overlay');
    mkdirSync(overlay);
    symlinkSync(join(REPO_ROOT, 'infra', 'kustomize', 'base'), join(work, 'base'));
    writeFileSync(join(overlay, 'kustomization.yaml'), 'bases: [../base]\nimages:\n  - name: kruise-serverless\n    newName: registry.example/kruise-serverless\n    newTag: v1\n');
    const rendered = (await kubectl('kustomize', join(REPO_ROOT, 'infra', 'kustomize', 'crds'))) + '---\n' + (await kubectl('kustomize', overlay));
    expect(rendered.match(/^\s+image: .*$/gm)?.map((l) => l.trim())).toEqual(['image: registry.example/kruise-serverless:v1', 'image: registry.example/kruise-serverless:v1']);
    const docs = docsOf(rendered);
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    expect(kinds).toEqual(expect.arrayContaining([
      'Deployment/kruise-serverless-webhook', 'Service/kruise-serverless-webhook', 'Deployment/kruise-serverless-reconciler',
      'ClusterRole/kruise-serverless-reconciler', 'ClusterRoleBinding/kruise-serverless-reconciler', 'ServiceAccount/kruise-serverless-reconciler',
      'CustomResourceDefinition/clonesets.apps.kruise.io', 'Namespace/kruise-system',
    ]));
    const file = join(work, 'base.yaml');
    writeFileSync(file, rendered);
    const lines = await dryRunApply(file);
    expect(lines).toHaveLength(docs.length);
    for (const line of lines) expect(line).toMatch(/\(server dry run\)$/);
  });

  it('the reconciler and the webhook server run as the ServiceAccounts the RBAC binds', () => {
    const docs = docsOf(readFileSync(join(REPO_ROOT, 'infra', 'kustomize', 'base', 'reconciler.yaml'), 'utf8') + '\n---\n' + readFileSync(join(REPO_ROOT, 'infra', 'kustomize', 'base', 'webhook-server.yaml'), 'utf8'));
    const bound = docsOf(readFileSync(join(REPO_ROOT, 'infra', 'kustomize', 'base', 'reconciler-rbac.yaml'), 'utf8')).concat(docs)
      .filter((d) => d.kind === 'ClusterRoleBinding')
      .flatMap((d) => ((d as unknown as { subjects: { kind: string; name: string }[] }).subjects).filter((s) => s.kind === 'ServiceAccount').map((s) => s.name));
    for (const d of docs.filter((x) => x.kind === 'Deployment')) {
      const sa = (d as unknown as { spec: { template: { spec: { serviceAccountName: string } } } }).spec.template.spec.serviceAccountName;
      expect(bound).toContain(sa);
    }
  });

  it('install --webhook-service: the webhook configurations call the Service and pass a server-side dry-run apply', async () => {
    const ca = inject('caCert') || join(work, 'none');
    const { stdout } = await run(process.execPath, [
      '--import', 'tsx', join(REPO_ROOT, 'src', 'cli', 'main.ts'), 'install',
      '--webhook-service', `${NAMESPACE}/kruise-serverless-webhook`, '--cluster-id', 'self-hosted-e2e', '--ca-bundle', ca, '--node-loop',
    ], { cwd: REPO_ROOT, env: { ...process.env, KS_WEBHOOK_SECRET: newSecret() }, maxBuffer: 64 * 1024 * 1024 });
    const configs = docsOf(stdout).filter((d) => d.kind.endsWith('WebhookConfiguration'));
    expect(configs.length).toBe(2);
    for (const c of configs) {
      for (const w of (c as unknown as { webhooks: { clientConfig: { url?: string; service?: { name: string; namespace: string; path: string } } }[] }).webhooks) {
        expect(w.clientConfig.url).toBeUndefined();
        expect(w.clientConfig.service).toMatchObject({ name: 'kruise-serverless-webhook', namespace: NAMESPACE, path: expect.stringMatching(/^\/clusters\/self-hosted-e2e\//) });
      }
    }
    const file = join(work, 'install.yaml');
    writeFileSync(file, stdout);
    const lines = await dryRunApply(file);
    expect(lines).toHaveLength(docsOf(stdout).length);
    for (const line of lines) expect(line).toMatch(/\(server dry run\)$/);
  });
});
