// The README's first command against an existing cluster ($KUBECONFIG set): it installs our CRDs
// and returns with --detach.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { inject, expect, it } from 'vitest';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { ALL_KINDS } from '../../src/api/index.js';
import './provided.js';

it('npm start installs every CRD into $KUBECONFIG', async () => {
  const { stderr } = await promisify(execFile)(join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts', '--detach'], {
    cwd: REPO_ROOT,
    env: { ...process.env, KUBECONFIG: inject('kubeconfig') },
  });
  expect(stderr).toContain(`installed ${ALL_KINDS.length} CRDs`);
  expect(stderr).toContain('using $KUBECONFIG');
});
